// The app (docs/app.md), served under /app by the same process: the sign-in and invitation pages
// (server-rendered forms that work without script), the bundle, the JSON routes of api.ts, and for
// every other /app path the shell the script draws the page in. A request for a page without a live
// session is sent to sign in first. `/` leads to /app. A link to a brand of another of the person's
// organizations switches the session to that organization.
import type Koa from 'koa';
import compress from 'koa-compress';
import type { AppDeps } from '../../operations/context.ts';
import type { Operation } from '../../operations/registry.ts';
import { createMailer } from '../../runtime/mail.ts';
import { endSession, switchOrganization } from '../../tenancy/sessions.ts';
import { brandOrganization } from '../../tenancy/brands.ts';
import { printable } from '../../tenancy/emails.ts';
import { readFields } from './form.ts';
import { invitationRoutes } from './invitation-pages.ts';
import { appLimits } from './limits.ts';
import { appApi } from './api.ts';
import { ASSETS_PREFIX, appAssets, type AppAssets } from './assets.ts';
import { authCard, htmlPage, shellPage } from './html.ts';
import { appHeaders, checkChange, CROSS_SITE, csrfToken, fromAnotherSite } from './security.ts';
import { clearSessionCookie, currentSession, sessionToken } from './session-cookie.ts';
import { signIn, signInPage } from './sign-in.ts';
import { setupRoutes } from './setup.ts';
import { pathRouter } from '../../runtime/router.ts';
import { unsubscribeRoutes } from './reports.ts';

const NEXT_BASE = 'http://answerscope.invalid';

/** `path` with its percent-encodings and then its dot segments resolved, or null when it leaves the site. */
function resolvedPath(path: string): string | null {
  let decoded = path;
  for (let i = 0; i < 3; i++) {
    let once: string;
    try {
      once = decodeURIComponent(decoded);
    } catch {
      return null;
    }
    if (once === decoded) break;
    decoded = once;
  }
  const url = new URL(decoded, NEXT_BASE);
  return url.origin === NEXT_BASE ? url.pathname : null;
}

/**
 * Where to go after signing in: `next` when, with dot segments and encodings resolved, it is a path
 * of this site under /app/ or /oauth/authorize (the consent page sends people to sign in and back);
 * otherwise /app. Never `//host`, another scheme, or a path that decodes to somewhere else.
 */
export function safeNext(next: string | undefined): string {
  if (!next || next.length > 4096 || /[\\\p{Cc}]/u.test(next)) return '/app';
  let url: URL;
  try {
    url = new URL(next, NEXT_BASE);
  } catch {
    return '/app';
  }
  if (url.origin !== NEXT_BASE) return '/app';
  const path = resolvedPath(url.pathname);
  const allowed = (p: string) => p === '/app' || p.startsWith('/app/') || p === '/oauth/authorize';
  return path !== null && allowed(path) && allowed(url.pathname) ? url.pathname + url.search : '/app';
}

export async function appMount(deps: AppDeps, operations: Operation[]): Promise<(app: Koa) => void> {
  const { config } = deps;
  const pg = deps.stores.pg;
  const assets = await appAssets();
  const router = pathRouter('ignored');
  const limits = await appLimits(config, pg);
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
  setupRoutes(router, deps, { page, refused, formLimit: limits.forms });

  router.get('/app/sign-in', async (ctx) => {
    if (await currentSession(ctx, pg, config)) return ctx.redirect(safeNext(String(ctx.query.next ?? '')));
    const next = typeof ctx.query.next === 'string' ? safeNext(ctx.query.next) : undefined;
    const notice = ctx.query.signed_out === '1' ? 'You are signed out.' : undefined;
    page(ctx, 200, 'Sign in', signInPage({ next, notice }));
  });

  router.post('/app/sign-in', limits.forms, async (ctx) => {
    // A sign-in posted from another site opens no session (login CSRF).
    if (fromAnotherSite(ctx, config)) return refused(ctx);
    const form = await readFields(ctx);
    const email = form.get('email') ?? '';
    const next = safeNext(form.get('next'));
    const outcome = await signIn(ctx, deps, email, form.get('password') ?? '');
    if (outcome.ok) {
      ctx.status = 303;
      return ctx.redirect(next);
    }
    const shown = outcome.field === 'email' ? printable(email) : email;
    page(
      ctx,
      outcome.status,
      'Sign in',
      signInPage({ next, email: shown, error: outcome.message, errorField: outcome.field }),
    );
  });

  router.post('/app/sign-out', async (ctx) => {
    // From another site, not even the cookie is touched (SameSite=Lax keeps it out of such a post).
    if (fromAnotherSite(ctx, config)) return refused(ctx);
    const token = sessionToken(ctx, config);
    if (token) {
      const form = await readFields(ctx);
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

  invitationRoutes(router, { deps, page, refused, forms: limits.forms });

  unsubscribeRoutes(router, deps, page);

  const api = appApi(deps, operations, createMailer(config.mail), limits.routes);

  // Every other /app path is a page the script draws: the shell, for a signed-in person.
  const shell: Koa.Middleware = async (ctx) => {
    const session = await currentSession(ctx, pg, config);
    if (!session) {
      const next = ctx.path === '/app' ? '' : `?next=${encodeURIComponent(ctx.url)}`;
      return ctx.redirect(`/app/sign-in${next}`);
    }
    // A link to a brand of another of the person's organizations opens that organization.
    const brandId = /^\/app\/brands\/([0-9a-f-]{36})(?:\/|$)/i.exec(ctx.path)?.[1]?.toLowerCase();
    if (brandId) {
      const owner = await brandOrganization(pg, brandId);
      if (owner && owner !== session.identity.organizationId) {
        await switchOrganization(pg, session.token, session.identity.userId, owner);
      }
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = shellPage(assets, csrfToken(session.token));
  };

  // The app's scripts, styles, pages and JSON go gzip- or brotli-encoded to a browser that accepts
  // it (koa-compress negotiates Accept-Encoding, skips bodies under 1 KB and sets Vary).
  const compressed = compress();
  return (app) => {
    // The app's prefix, tested here rather than on a router: this wraps every answer under /app,
    // the 404s and the shell drawn for them included, while @koa/router runs a router's `use`
    // middleware only for a request one of its routes matches. The routes inside are the routers'.
    app.use(async (ctx, next) => {
      const underApp = ctx.path === '/app' || ctx.path.startsWith('/app/');
      if (!underApp && ctx.path !== '/') return next();
      return compressed(ctx, () => served(ctx, next, underApp));
    });
    app.use(api.routes());
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: false }));
  };

  async function served(ctx: Koa.Context, next: Koa.Next, underApp: boolean) {
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
  }
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
