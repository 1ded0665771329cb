// The Koa application: request id and logging, JSON errors, then the rate limit and API-key check
// in front of every API surface, then the operations.
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import type { Operation } from '../operations/registry.ts';
import type { AppDeps } from '../operations/context.ts';
import { errorHandler } from './errors.ts';
import { rateLimit, createLimiter } from './rate-limit.ts';
import { requireKey } from './auth.ts';
import { mountOperations } from './mount.ts';
import { recordRequest } from './metrics.ts';

export interface AppOptions extends AppDeps {
  operations: Operation[];
  /** Extra routes mounted before the API (health, tracking script, MCP...). */
  extra?: ((app: Koa, guard: Koa.Middleware) => void)[];
}

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;
const API_PREFIXES = ['/api/mcp', '/api/v1'];
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const isApiPath = (path: string) => API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));

export async function createApp(opts: AppOptions): Promise<Koa> {
  const app = new Koa();
  app.proxy = opts.config.trustProxy;
  const limiter = await createLimiter({ ...opts.config.rateLimit, keyPrefix: 'api' }, opts.stores.pg);

  app.use(async (ctx, next) => {
    const given = ctx.get('x-request-id');
    ctx.state.requestId = REQUEST_ID_RE.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.state.log = opts.log.child({ requestId: ctx.state.requestId });
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // res.statusCode: also right where a transport wrote the response itself (MCP, ctx.respond = false).
      recordRequest(ctx.method, ctx.path, ctx.state.operation, ctx.res.statusCode, ms / 1000);
      // Probes and scrapes arrive every few seconds: logged at debug, so they do not drown the rest.
      const level = PROBE_PATHS.has(ctx.path) ? 'debug' : 'info';
      ctx.state.log[level]({
        method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10,
        operation: ctx.state.operation, organizationId: ctx.state.identity?.organizationId,
      }, 'request');
    }
  });
  app.use(errorHandler());

  // Rate limit first (it also shields the key look-up from guessing), then the key.
  const limit = rateLimit(limiter);
  const key = requireKey(opts.stores.pg);
  const guard: Koa.Middleware = (ctx, next) => limit(ctx, () => key(ctx, next));
  for (const mount of opts.extra ?? []) mount(app, guard);
  app.use(async (ctx, next) => (isApiPath(ctx.path) ? guard(ctx, next) : next()));

  const router = mountOperations(opts, opts.operations);
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: false }));
  return app;
}
