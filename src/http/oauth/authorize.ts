// GET /oauth/authorize checks an authorization request and shows the consent page; POST answers
// its form. The client and its redirect URI are checked first and a failure there shows an error
// page and never redirects (no open redirect); once they are known good, other errors go back to
// the client as RFC 6749 section 4.1.2.1 says, with `state` exactly as given and `iss` (RFC 9207).
// A person signed in to the app allows with one button and the grant acts as them, on the
// organization they choose (a select when they have several); anyone else signs in on the page
// first, or pastes an `ans_` key (docs/oauth.md). The page is served with `Referrer-Policy:
// no-referrer`, so real browsers post its forms with `Origin: null`: a cross-site post is refused on
// Sec-Fetch-Site, and every form carries a token bound to the pending request (the nonce; for a
// signed-in person's Allow, also to their session), never on Origin alone.
import type Koa from 'koa';
import type { Config } from '../../config.ts';
import type { Postgres } from '../../stores/postgres.ts';
import type { AppDeps } from '../../operations/context.ts';
import { resolveSession } from '../../tenancy/sessions.ts';
import { membershipsOf, type Membership } from '../../tenancy/members.ts';
import { currentSession, type Session } from '../app/session-cookie.ts';
import { boundToken, fromAnotherSite, sameToken } from '../app/security.ts';
import { signIn, signInFields } from '../app/sign-in.ts';
import { identityByKeyId, type Identity, KEY_PREFIX, resolveKey } from '../../tenancy/keys.ts';
import { clientById, type OAuthClient } from '../../tenancy/oauth-clients.ts';
import {
  attachKey,
  createGrant,
  createRequest,
  organizationName,
  requestByNonce,
  takeRequest,
  type PendingRequest,
} from '../../tenancy/oauth-grants.ts';
import { baseUrl, isOurResource, SCOPE } from './metadata.ts';
import { readForm, singleParams } from './form.ts';
import { confirmStep, errorPage, keyStep, pageHeaders, type ConsentClient } from './consent-page.ts';

/** RFC 7636 section 4.2: the S256 challenge is base64url without padding, 43 characters for SHA-256. */
const CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE_LENGTH = 2000;

function showError(ctx: Koa.Context, status: number, title: string, message: string): void {
  ctx.status = status;
  ctx.body = errorPage(title, message, pageHeaders(ctx));
}

/** Back to the client's (registered, exactly matched) redirect URI with the answer's parameters. */
function redirectBack(ctx: Koa.Context, redirectUri: string, params: Record<string, string | null>, status: number) {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  ctx.set('Cache-Control', 'no-store');
  ctx.status = status;
  ctx.redirect(url.href); // keeps a redirect status already set
}

const consentClient = (client: OAuthClient | null, redirectUri: string): ConsentClient => ({
  name: client?.name ?? null,
  redirectHost: new URL(redirectUri).host,
});

export async function showAuthorize(ctx: Koa.Context, pg: Postgres, config: Config): Promise<void> {
  const params = singleParams(new URLSearchParams(ctx.querystring));
  if (typeof params === 'string') return showError(ctx, 400, 'Invalid authorization request', params);
  const clientId = params.get('client_id');
  const client = clientId ? await clientById(pg, clientId) : null;
  if (!client) {
    return showError(ctx, 400, 'Unknown application', 'client_id does not name an application registered here.');
  }
  const given = params.get('redirect_uri');
  // OAuth 2.1: redirect_uri may be left out only when the client registered exactly one.
  const redirectUri = given ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    return showError(
      ctx,
      400,
      'Invalid redirect URI',
      given
        ? 'redirect_uri is not one this application registered.'
        : 'redirect_uri is required: this application registered several.',
    );
  }

  const base = baseUrl(ctx, config);
  const state = params.get('state') ?? null;
  const fail = (error: string, description: string) =>
    redirectBack(ctx, redirectUri, { error, error_description: description, state, iss: base }, 302);
  if (params.get('response_type') !== 'code') {
    return fail('unsupported_response_type', 'response_type must be code');
  }
  const challenge = params.get('code_challenge');
  if (!challenge) return fail('invalid_request', 'code_challenge is required (PKCE with S256)');
  if (params.get('code_challenge_method') !== 'S256') {
    return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
  }
  if (!CHALLENGE_RE.test(challenge)) {
    return fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters)');
  }
  if (state !== null && state.length > MAX_STATE_LENGTH) {
    return fail('invalid_request', `state has at most ${MAX_STATE_LENGTH} characters`);
  }
  const resource = params.get('resource') ?? null;
  if (resource !== null && !isOurResource(resource, base)) {
    return fail('invalid_target', `resource must be ${base}/api/mcp`);
  }

  const nonce = await createRequest(pg, {
    clientId: client.id,
    redirectUri,
    state,
    codeChallenge: challenge,
    // The one scope is granted whatever was asked (RFC 6749 section 3.3 lets the server decide).
    scope: SCOPE,
    resource,
  });
  const shown = consentClient(client, redirectUri);
  const styleNonce = pageHeaders(ctx, new URL(redirectUri).origin);
  const session = await currentSession(ctx, pg, config);
  const confirm = session ? await sessionConfirmation(pg, session, nonce) : null;
  ctx.body = confirm
    ? confirmStep(shown, nonce, styleNonce, confirm)
    : keyStep(shown, nonce, styleNonce, undefined, { fields: signInFields({}) });
}

/**
 * What the signed-in person's confirmation shows: their organizations (the current one first, so
 * it is the select's default) and the token bound to their session and this request. Null when
 * they belong to none: they can grant nothing.
 */
async function sessionConfirmation(pg: Postgres, session: Session, nonce: string) {
  const organizations = await membershipsOf(pg, session.identity.userId);
  if (!organizations.length) return null;
  const current = (o: Membership) => o.organization_id === session.identity.organizationId;
  const ordered = [...organizations.filter(current), ...organizations.filter((o) => !current(o))];
  return {
    organization: ordered[0].name,
    organizations: ordered.map((o) => ({ id: o.organization_id, name: o.name })),
    email: session.identity.email,
    via: 'session' as const,
    token: boundToken(session.token, nonce),
  };
}

export async function answerAuthorize(ctx: Koa.Context, deps: AppDeps): Promise<void> {
  const { config } = deps;
  const pg = deps.stores.pg;
  let fields: Map<string, string>;
  try {
    fields = await readForm(ctx);
  } catch (err) {
    return showError(ctx, 400, 'Invalid form', (err as Error).message);
  }
  const nonce = fields.get('nonce') ?? '';
  const request = nonce ? await requestByNonce(pg, nonce) : null;
  if (!request) {
    return showError(
      ctx,
      400,
      'This page has expired',
      'The form was already answered, or waited too long. Nothing was granted.',
    );
  }
  const client = await clientById(pg, request.clientId);
  const shown = consentClient(client, request.redirectUri);
  const redirectOrigin = new URL(request.redirectUri).origin;
  const base = baseUrl(ctx, config);
  const action = fields.get('action');

  if (action === 'deny') {
    if (!(await takeRequest(pg, nonce))) return showError(ctx, 400, 'This page has expired', 'Nothing was granted.');
    pageHeaders(ctx, redirectOrigin);
    return redirectBack(
      ctx,
      request.redirectUri,
      { error: 'access_denied', error_description: 'The person denied access', state: request.state, iss: base },
      303,
    );
  }
  if (action === 'continue')
    return checkKey(ctx, pg, { nonce, request, shown, redirectOrigin, key: fields.get('key') });
  if (action === 'sign-in') {
    return signInHere(ctx, deps, { nonce, request, shown, redirectOrigin }, fields);
  }
  if (action === 'allow') return allow(ctx, pg, config, { nonce, request, shown, redirectOrigin, base }, fields);
  return showError(ctx, 400, 'Invalid form', 'action must be continue, sign-in, allow or deny.');
}

/** Step 1 answered with the sign-in form: a session opens, then the person's organizations are shown. */
async function signInHere(ctx: Koa.Context, deps: AppDeps, step: Step, fields: Map<string, string>): Promise<void> {
  const pg = deps.stores.pg;
  const email = fields.get('email') ?? '';
  const again = (status: number, error: string, errorField?: 'email' | 'password') => {
    ctx.status = status;
    const signInStep = { fields: signInFields({ email, error, errorField }) };
    ctx.body = keyStep(step.shown, step.nonce, pageHeaders(ctx, step.redirectOrigin), undefined, signInStep);
  };
  // A sign-in posted from another site opens no session; the nonce binds the form to this request.
  if (fromAnotherSite(ctx, deps.config, { tokenBound: true })) {
    return showError(ctx, 403, 'Refused', 'Cross-site request refused.');
  }
  const outcome = await signIn(ctx, deps, email, fields.get('password') ?? '');
  if (!outcome.ok) return again(outcome.status, outcome.message, outcome.field);
  const identity = await resolveSession(pg, outcome.token);
  const confirm = identity ? await sessionConfirmation(pg, { token: outcome.token, identity }, step.nonce) : null;
  if (!confirm) return again(400, 'You belong to no organization, so you can grant nothing.');
  ctx.body = confirmStep(step.shown, step.nonce, pageHeaders(ctx, step.redirectOrigin), confirm);
}

interface Step {
  nonce: string;
  request: PendingRequest;
  shown: ConsentClient;
  redirectOrigin: string;
}

/** Step 1 answered: the key is checked and the organization shown, with a new nonce for step 2. */
async function checkKey(ctx: Koa.Context, pg: Postgres, step: Step & { key?: string }): Promise<void> {
  const again = (status: number, message: string) => {
    ctx.status = status;
    ctx.body = keyStep(step.shown, step.nonce, pageHeaders(ctx, step.redirectOrigin), message);
  };
  const key = (step.key ?? '').trim();
  if (!key.startsWith(KEY_PREFIX)) return again(400, 'Paste an Answerscope API key: it starts with ans_.');
  const identity = await resolveKey(pg, key);
  if (!identity?.keyId) return again(400, 'This API key does not exist or was revoked.');
  const organization = identity.organizationId ? await organizationName(pg, identity.organizationId) : null;
  if (!organization) return again(400, "This key's owner belongs to no organization, so it can grant nothing.");
  const next = await attachKey(pg, step.nonce, identity.keyId);
  if (!next) return showError(ctx, 400, 'This page has expired', 'Nothing was granted.');
  ctx.body = confirmStep(step.shown, next, pageHeaders(ctx, step.redirectOrigin), {
    organization,
    email: identity.email,
  });
}

/**
 * Step 2 answered with allow: the grant is made and its code goes back to the client. With a key
 * pasted, the grant is the key's, on the key's organization; otherwise it is the signed-in
 * person's, on the organization they chose, from this site only and with the form's session token.
 */
async function allow(
  ctx: Koa.Context,
  pg: Postgres,
  config: Config,
  step: Step & { base: string },
  fields: Map<string, string>,
): Promise<void> {
  if (!step.request.keyId) {
    const session = fromAnotherSite(ctx, config, { tokenBound: true }) ? null : await currentSession(ctx, pg, config);
    const bound = session && sameToken(fields.get('token') ?? '', boundToken(session.token, step.nonce));
    if (session && bound) {
      const chosen = fields.get('organization_id') ?? session.identity.organizationId ?? '';
      const organizations = await membershipsOf(pg, session.identity.userId);
      if (organizations.some((o) => o.organization_id === chosen)) {
        return grantAndReturn(ctx, pg, step, { ...session.identity, organizationId: chosen });
      }
    }
    ctx.status = 400;
    ctx.body = keyStep(
      step.shown,
      step.nonce,
      pageHeaders(ctx, step.redirectOrigin),
      'Sign in or paste an API key first: the organization it acts for is shown before anything is granted.',
      { fields: signInFields({}) },
    );
    return;
  }
  const request = await takeRequest(pg, step.nonce);
  const identity = request?.keyId ? await identityByKeyId(pg, request.keyId) : null;
  if (!request || !identity?.organizationId) {
    return showError(ctx, 400, 'Nothing was granted', 'The form expired, or the key was revoked meanwhile.');
  }
  const code = await createGrant(pg, request, identity);
  pageHeaders(ctx, step.redirectOrigin);
  redirectBack(ctx, request.redirectUri, { code, state: request.state, iss: step.base }, 303);
}

/** The signed-in person's grant (no key: it acts as them, on the organization they chose). */
async function grantAndReturn(
  ctx: Koa.Context,
  pg: Postgres,
  step: Step & { base: string },
  person: Identity,
): Promise<void> {
  const request = await takeRequest(pg, step.nonce);
  if (!request) return showError(ctx, 400, 'This page has expired', 'Nothing was granted.');
  const code = await createGrant(pg, request, { ...person, keyId: null });
  pageHeaders(ctx, step.redirectOrigin);
  redirectBack(ctx, request.redirectUri, { code, state: request.state, iss: step.base }, 303);
}
