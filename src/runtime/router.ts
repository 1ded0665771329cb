// Every HTTP route of the service sits on a @koa/router Router made here (src/http/pipeline.ts
// composes them; docs/architecture.md, "The request path"): paths are matched case-sensitively
// and as sent, percent-encodings included (`/t%2Ejs` is not `/t.js`). The one option that differs
// is the trailing slash, kept as each surface has always answered it.
import Router from '@koa/router';
import type Koa from 'koa';

/**
 * `refused`: `/a/` is not `/a` (the raw endpoints, OAuth, MCP, probes, docs). `ignored`: `/a/`
 * reaches `/a` too (the operations and the app, whose routes @koa/router has always served so).
 * `prefix` is put before every route's path (the app's JSON routes: /app/api).
 */
export function pathRouter(trailingSlash: 'refused' | 'ignored', prefix?: string): Router {
  return new Router({ sensitive: true, strict: trailingSlash === 'refused', ...(prefix ? { prefix } : {}) });
}

/**
 * `router`'s routes for `methods` alone: a request of another method passes on untouched, as for a
 * path nobody answers (a 404), and leaves no match behind that @koa/router's `allowedMethods`
 * further on would answer with a 405.
 */
export function forMethods(methods: readonly string[], router: Router): Koa.Middleware {
  const routes = router.routes() as Koa.Middleware;
  return (ctx, next) => (methods.includes(ctx.method) ? routes(ctx, next) : next());
}

/**
 * The 405 of a route that takes every method and answers the ones it lacks itself (the raw
 * endpoints, OAuth, MCP): `Allow` names the methods it takes, the message the method and path.
 */
export function methodNotAllowed(ctx: Koa.Context, allowed: readonly string[], detail = ''): void {
  ctx.status = 405;
  ctx.set('Allow', allowed.join(', '));
  ctx.body = { error: `Method ${ctx.method} not allowed on ${ctx.path}${detail}` };
}
