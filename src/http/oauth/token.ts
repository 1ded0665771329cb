// POST /oauth/token (RFC 6749 with OAuth 2.1's rules) and POST /oauth/revoke (RFC 7009).
// - authorization_code: the code is good for one attempt; a code presented again revokes the grant
//   and every token issued from it (OAuth 2.1 section 4.1.3). PKCE S256 is required: the verifier's
//   SHA-256, base64url, must equal the challenge of the authorization request.
// - refresh_token: rotation; each refresh token is good once and answered with a new pair; one
//   presented again revokes its grant (RFC 9700 section 4.14.2).
// Errors are RFC 6749 section 5.2 JSON: 401 invalid_client for a client that fails to
// authenticate, 400 for the rest.
import { createHash, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import {
  InvalidClientError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  OAuthError,
  UnsupportedGrantTypeError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Config } from '../../config.ts';
import type { Postgres } from '../../stores/postgres.ts';
import { clientById, secretMatches, type OAuthClient } from '../../tenancy/oauth-clients.ts';
import {
  issueTokens,
  redeemCode,
  redeemRefreshToken,
  revokeGrant,
  revokeToken,
  type IssuedTokens,
} from '../../tenancy/oauth-grants.ts';
import { baseUrl, isOurResource } from './metadata.ts';
import { oauthError, readForm } from './form.ts';

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
const VERIFIER_RE = /^[A-Za-z0-9._~-]{43,128}$/;
const KEY_GONE = 'the API key that granted access was revoked, or its owner left the organization';

/** Whether the verifier's S256 transform is the challenge (RFC 7636 section 4.6). */
export function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** Client credentials from Basic (RFC 6749 section 2.3.1: form-encoded, then base64) or the form. */
function credentials(ctx: Koa.Context, fields: Map<string, string>): { id?: string; secret?: string; basic: boolean } {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(ctx.get('authorization'));
  if (!basic) return { id: fields.get('client_id'), secret: fields.get('client_secret'), basic: false };
  if (fields.has('client_secret')) throw new InvalidRequestError('use one client authentication method, not two');
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const part = (s: string) => decodeURIComponent(s.replaceAll('+', ' '));
  try {
    const id = part(colon < 0 ? decoded : decoded.slice(0, colon));
    if (fields.has('client_id') && fields.get('client_id') !== id) {
      throw new InvalidRequestError('client_id differs from the one in the Authorization header');
    }
    return { id, secret: colon < 0 ? undefined : part(decoded.slice(colon + 1)), basic: true };
  } catch (err) {
    if (err instanceof OAuthError) throw err;
    throw new InvalidRequestError('the Authorization header is not valid Basic credentials');
  }
}

class ClientAuthFailed extends Error {
  constructor(
    readonly error: InvalidClientError,
    readonly basic: boolean,
  ) {
    super(error.message);
  }
}

async function authenticateClient(ctx: Koa.Context, pg: Postgres, fields: Map<string, string>): Promise<OAuthClient> {
  const given = credentials(ctx, fields);
  if (!given.id) throw new ClientAuthFailed(new InvalidClientError('client_id is required'), given.basic);
  const client = await clientById(pg, given.id);
  if (!client) throw new ClientAuthFailed(new InvalidClientError('client_id is not registered'), given.basic);
  if (client.secretHash && !(given.secret && secretMatches(client, given.secret))) {
    throw new ClientAuthFailed(new InvalidClientError('the client secret is missing or wrong'), given.basic);
  }
  return client;
}

function answerTokens(ctx: Koa.Context, tokens: IssuedTokens): void {
  ctx.status = 200;
  ctx.body = {
    access_token: tokens.accessToken,
    token_type: 'Bearer',
    expires_in: tokens.expiresIn,
    refresh_token: tokens.refreshToken,
    scope: tokens.scope,
  };
}

function required(fields: Map<string, string>, name: string): string {
  const value = fields.get(name);
  if (!value) throw new InvalidRequestError(`${name} is required`);
  return value;
}

function checkResource(fields: Map<string, string>, base: string): void {
  const resource = fields.get('resource');
  if (resource !== undefined && !isOurResource(resource, base)) {
    throw new InvalidTargetError(`resource must be ${base}/api/mcp`);
  }
}

async function codeGrant(
  ctx: Koa.Context,
  pg: Postgres,
  client: OAuthClient,
  fields: Map<string, string>,
  base: string,
) {
  const code = required(fields, 'code');
  const verifier = required(fields, 'code_verifier');
  const redirectUri = required(fields, 'redirect_uri');
  if (!VERIFIER_RE.test(verifier))
    throw new InvalidRequestError('code_verifier must be 43 to 128 unreserved characters');
  checkResource(fields, base);
  const grant = await redeemCode(pg, code);
  if (!grant || grant.clientId !== client.id) throw new InvalidGrantError('the code is not valid for this client');
  if (grant.replayed) {
    await revokeGrant(pg, grant.grantId);
    throw new InvalidGrantError('the code was already used; the tokens issued from it are revoked');
  }
  if (grant.expired) throw new InvalidGrantError('the code has expired');
  if (grant.redirectUri !== redirectUri)
    throw new InvalidGrantError('redirect_uri differs from the authorization request');
  if (!pkceMatches(verifier, grant.codeChallenge))
    throw new InvalidGrantError('code_verifier does not match the challenge');
  const tokens = await issueTokens(pg, grant.grantId);
  if (!tokens) throw new InvalidGrantError(KEY_GONE);
  answerTokens(ctx, tokens);
}

async function refreshGrant(
  ctx: Koa.Context,
  pg: Postgres,
  client: OAuthClient,
  fields: Map<string, string>,
  base: string,
) {
  const token = required(fields, 'refresh_token');
  checkResource(fields, base);
  const grant = await redeemRefreshToken(pg, token);
  if (!grant || grant.clientId !== client.id)
    throw new InvalidGrantError('the refresh token is not valid for this client');
  if (grant.replayed) {
    await revokeGrant(pg, grant.grantId);
    throw new InvalidGrantError('the refresh token was already used; its grant is revoked');
  }
  if (grant.dead) throw new InvalidGrantError('the refresh token has expired or was revoked');
  const granted = grant.scope.split(' ');
  const asked = fields.get('scope')?.split(' ').filter(Boolean) ?? [];
  const wider = asked.find((s) => !granted.includes(s));
  if (wider) throw new InvalidScopeError(`scope ${wider} was not granted`);
  const tokens = await issueTokens(pg, grant.grantId);
  if (!tokens) throw new InvalidGrantError(KEY_GONE);
  answerTokens(ctx, tokens);
}

/** Runs an endpoint that answers OAuth errors as JSON, with no caching of anything it says. */
async function oauthEndpoint(ctx: Koa.Context, run: (fields: Map<string, string>) => Promise<void>): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
  try {
    await run(await readForm(ctx));
  } catch (err) {
    if (err instanceof ClientAuthFailed) {
      if (err.basic) ctx.set('WWW-Authenticate', 'Basic realm="answerscope"');
      return oauthError(ctx, err.error, 401);
    }
    if (err instanceof OAuthError) return oauthError(ctx, err);
    throw err;
  }
}

export function token(ctx: Koa.Context, pg: Postgres, config: Config): Promise<void> {
  return oauthEndpoint(ctx, async (fields) => {
    const client = await authenticateClient(ctx, pg, fields);
    const grantType = fields.get('grant_type');
    const base = baseUrl(ctx, config);
    if (grantType === 'authorization_code') return codeGrant(ctx, pg, client, fields, base);
    if (grantType === 'refresh_token') return refreshGrant(ctx, pg, client, fields, base);
    if (!grantType) throw new InvalidRequestError('grant_type is required');
    throw new UnsupportedGrantTypeError('grant_type must be authorization_code or refresh_token');
  });
}

export function revoke(ctx: Koa.Context, pg: Postgres): Promise<void> {
  return oauthEndpoint(ctx, async (fields) => {
    const client = await authenticateClient(ctx, pg, fields);
    await revokeToken(pg, required(fields, 'token'), client.id);
    // RFC 7009 section 2.2: 200 whether or not the token was known.
    ctx.status = 200;
    ctx.body = {};
  });
}
