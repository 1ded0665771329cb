// The app (docs/api.md sections 17 and 18, docs/app.md), served under /app by the same process:
// the sign-in and invitation pages (server-rendered forms that work without script), the bundle,
// the JSON routes of api.ts, and for every other /app path the shell the script draws the page in.
// A request for a page without a live session is sent to sign in first. `/` leads to /app.
import Router from '@koa/router';
import type Koa from 'koa';
import type { AppDeps } from '../../operations/context.ts';
import type { Operation } from '../../operations/registry.ts';
import { createMailer } from '../../runtime/mail.ts';
import { createLimiter, rateLimit } from '../../runtime/rate-limit.ts';
import { ApiError } from '../../errors.ts';
import { createSession, endSession } from '../../tenancy/sessions.ts';
import { acceptInvitation, INVITATION_GONE, invitationByToken } from '../../tenancy/invitations.ts';
import { readForm } from '../oauth-form.ts';
import { appApi } from './api.ts';
import { ASSETS_PREFIX, appAssets, type AppAssets } from './assets.ts';
import { authCard, escapeHtml, field, htmlPage, shellPage } from './html.ts';
import { appHeaders, checkChange, CROSS_SITE, csrfToken, fromAnotherSite } from './security.ts';
import { clearSessionCookie, currentSession, setSessionCookie, sessionToken } from './session-cookie.ts';
import { signIn, signInPage } from './sign-in.ts';
import { setupRoutes } from './setup.ts';

/** Where to go after signing in: an app path of this site only (never `//host` or another scheme). */
export function safeNext(next: string | undefined): string {
  return next && /^\/app(\/[A-Za-z0-9._~%/?&=-]*)?$/.test(next) ? next : '/app';
}

async function fields(ctx: Koa.Context): Promise<Map<string, string>> {
  try {
    return await readForm(ctx);
  } catch (err) {
    throw new ApiError(400, (err as Error).message);
  }
}

export async function appMount(deps: AppDeps, operations: Operation[]): Promise<(app: Koa) => void> {
  const { config } = deps;
  const pg = deps.stores.pg;
  const assets = await appAssets();
  const router = new Router({ sensitive: true });
  // The forms that hash a password pass the API's per-address limit (counters of their own) first:
  // the throttle counts per email, and this bounds the scrypt work one address can ask for.
  const formLimit = rateLimit(await createLimiter({ ...config.rateLimit, keyPrefix: 'app-forms' }, pg));
  const page = (ctx: Koa.Context, status: number, title: string, body: string) => {
    ctx.status = status;
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = htmlPage(assets, title, body);
  };
  const refused = (ctx: Koa.Context) =>
    page(
      ctx,
      403,
      'Refused',
      authCard('Refused', `<p class="form-error" role="alert">${CROSS_SITE}: nothing was changed.</p>`),
    );

  router.get('/', (ctx) => {
    ctx.redirect('/app');
  });
  setupRoutes(router, deps, { page, refused, formLimit });

  router.get('/app/sign-in', async (ctx) => {
    if (await currentSession(ctx, pg)) return ctx.redirect(safeNext(String(ctx.query.next ?? '')));
    const next = typeof ctx.query.next === 'string' ? safeNext(ctx.query.next) : undefined;
    const notice = ctx.query.signed_out === '1' ? 'You are signed out.' : undefined;
    page(ctx, 200, 'Sign in', signInPage({ next, notice }));
  });

  router.post('/app/sign-in', formLimit, async (ctx) => {
    // A sign-in posted from another site opens no session (login CSRF).
    if (fromAnotherSite(ctx, config)) return refused(ctx);
    const form = await fields(ctx);
    const email = form.get('email') ?? '';
    const next = safeNext(form.get('next'));
    const outcome = await signIn(ctx, deps, email, form.get('password') ?? '');
    if (outcome.ok) {
      ctx.status = 303;
      return ctx.redirect(next);
    }
    page(ctx, outcome.status, 'Sign in', signInPage({ next, email, error: outcome.message }));
  });

  router.post('/app/sign-out', async (ctx) => {
    // From another site, not even the cookie is touched (SameSite=Lax keeps it out of such a post).
    if (fromAnotherSite(ctx, config)) return refused(ctx);
    const token = sessionToken(ctx);
    if (token) {
      const form = await fields(ctx);
      try {
        checkChange(ctx, config, token, form.get('csrf'));
      } catch {
        return refused(ctx);
      }
      await endSession(pg, token);
    }
    clearSessionCookie(ctx, config);
    ctx.status = 303;
    ctx.redirect('/app/sign-in?signed_out=1');
  });

  const invitationGone = (ctx: Koa.Context) =>
    page(
      ctx,
      404,
      'Invitation',
      authCard(
        'Invitation',
        `<p class="form-error" role="alert">${INVITATION_GONE}.</p><p>Ask an admin for a new one.</p>`,
      ),
    );
  const invitationForm = async (ctx: Koa.Context, status: number, error?: string) => {
    const invitation = await invitationByToken(pg, ctx.params.token);
    if (!invitation) return invitationGone(ctx);
    page(
      ctx,
      status,
      'Join',
      authCard(
        `Join ${invitation.organization}`,
        `<p>You are invited as <strong>${escapeHtml(invitation.role)}</strong>. ${
          invitation.hasPassword
            ? 'You already have an Answerscope account: enter its password to join.'
            : 'Choose a password to sign in with.'
        }</p>
<form method="post" action="/app/invitations/${escapeHtml(ctx.params.token)}">
${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: invitation.email, readonly: true })}
${field({
  id: 'password',
  label: 'Password',
  type: 'password',
  autocomplete: invitation.hasPassword ? 'current-password' : 'new-password',
  error,
  hint: invitation.hasPassword ? undefined : 'At least 10 characters.',
})}
<button type="submit" class="primary wide">${invitation.hasPassword ? 'Join' : 'Set password and join'}</button>
</form>`,
      ),
    );
  };
  router.get('/app/invitations/:token', (ctx) => invitationForm(ctx, 200));
  router.post('/app/invitations/:token', formLimit, async (ctx) => {
    if (fromAnotherSite(ctx, config)) return refused(ctx);
    const form = await fields(ctx);
    let userId: string;
    try {
      userId = await acceptInvitation(pg, ctx.params.token, form.get('password') ?? '', ctx.ip || 'unknown');
    } catch (err) {
      if (err instanceof ApiError && err.field === 'password') return invitationForm(ctx, err.status, err.message);
      if (err instanceof ApiError && err.status === 404) return invitationGone(ctx);
      throw err;
    }
    setSessionCookie(ctx, config, await createSession(pg, userId));
    ctx.status = 303;
    ctx.redirect('/app');
  });

  const api = appApi(deps, operations, createMailer(config.mail));

  // Every other /app path is a page the script draws: the shell, for a signed-in person.
  const shell: Koa.Middleware = async (ctx) => {
    const session = await currentSession(ctx, pg);
    if (!session) {
      const next = ctx.path === '/app' ? '' : `?next=${encodeURIComponent(ctx.url)}`;
      return ctx.redirect(`/app/sign-in${next}`);
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = shellPage(assets, csrfToken(session.token));
  };

  return (app) => {
    app.use(async (ctx, next) => {
      const underApp = ctx.path === '/app' || ctx.path.startsWith('/app/');
      if (!underApp && ctx.path !== '/') return next();
      appHeaders(ctx);
      if (ctx.path.startsWith(ASSETS_PREFIX)) return serveAsset(ctx, assets);
      await next();
      // A path nothing answered (a 404 without a body) is a page the script draws.
      if (
        ctx.status === 404 &&
        ctx.body == null &&
        underApp &&
        !ctx.path.startsWith('/app/api/') &&
        ctx.method === 'GET'
      ) {
        await shell(ctx, async () => {});
      }
    });
    app.use(api.routes());
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: false }));
  };
}

function serveAsset(ctx: Koa.Context, assets: AppAssets): void {
  const asset = assets.byPath.get(ctx.path);
  if (!asset || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
    ctx.status = 404;
    ctx.body = { error: 'Not found' };
    return;
  }
  // Named by their content's hash: a new build has new names, so these never change.
  ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.type = asset.type;
  ctx.body = asset.body;
}
