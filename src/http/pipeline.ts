// The service's one Koa pipeline, every surface behind it (the app for people is one of them,
// http/app/): request id and logging, JSON errors, then the rate limit and API-key check
// in front of every path under /api/ in any case (docs/api.md section 9), then the routes: OAuth,
// the `extra` surfaces in their order, the operations, each on a router of runtime/router.ts
// (docs/architecture.md, "The request path").
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import type { Operation } from '../operations/registry.ts';
import type { AppDeps } from '../operations/context.ts';
import { errorHandler } from './errors.ts';
import { rateLimit, createLimiter } from '../runtime/rate-limit.ts';
import { requireKey } from './auth.ts';
import { mountOperations } from './mount.ts';
import { recordRequest } from './metrics.ts';
import { oauthRouter } from './oauth/mount.ts';
import { rawEndpoints } from '../operations/raw-endpoints.ts';
import { clientAddress } from './client-address.ts';

export interface PipelineOptions extends AppDeps {
  operations: Operation[];
  /** Extra routes mounted before the operations (health, tracking script, MCP...), behind the guard. */
  extra?: ((app: Koa) => void)[];
  /** A check between the rate limit and the key (the MCP origin check: a hostile page learns nothing about keys). */
  beforeKey?: Koa.Middleware;
}

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
/**
 * Paths under /api/ that take no key, exactly as written: the API document and the keyless raw
 * endpoints (the beacon).
 */
const KEYLESS_API_PATHS = new Set(['/api/openapi.json', ...rawEndpoints.filter((e) => !e.key).map((e) => e.path)]);
/**
 * Keyless raw endpoints with a rate limit of their own skip the guard and apply that limit
 * themselves: the beacon's (src/traffic/index.ts), which browsers of every visitor share.
 */
const OWN_RATE_LIMIT_PATHS = new Set(rawEndpoints.filter((e) => !e.key && e.rateLimit).map((e) => e.path));

/**
 * Whether the guard applies: /api/ in any case and any percent-encoding, so no spelling of a path
 * that some later matcher might accept can pass around the rate limit and the key check.
 */
export function underApi(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    /* malformed escapes: judged as written */
  }
  // Decoding never removes a plain `/api/` prefix, so the decoded form decides alone.
  const p = decoded.toLowerCase();
  return p === '/api' || p.startsWith('/api/');
}

export async function createPipeline(opts: PipelineOptions): Promise<Koa> {
  const app = new Koa();
  // X-Forwarded-Proto and -Host are believed only behind trusted proxies; the client address is ours.
  app.proxy = opts.config.trustProxy > 0;
  const hsts = opts.config.publicUrl?.startsWith('https:') ?? false;
  // What fails after the answer has begun (a streamed body): a client that went away mid-answer (a
  // read the app aborted, a closed tab) is no fault of ours; anything else goes to the log, not to
  // Koa's default print on stderr.
  app.on('error', (err: NodeJS.ErrnoException, ctx?: Koa.Context) => {
    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'ECONNRESET' || err.code === 'EPIPE') return;
    if ((err as { status?: number }).status === 404 || (err as { expose?: boolean }).expose) return;
    (ctx?.state.log ?? opts.log).error({ err }, 'response failed');
  });
  const limiter = await createLimiter({ ...opts.config.rateLimit, keyPrefix: 'api' }, opts.stores.pg);
  // Key-protected raw endpoints whose own rate limit stands in for the API's: the crawler-log batch,
  // which log forwarders post far more often than people call the API (docs/api.md section 14).
  // Their counters live where the API's do.
  const ownLimits = new Map<string, Koa.Middleware>();
  for (const e of rawEndpoints) {
    if (!e.key || !e.rateLimit) continue;
    const own = await createLimiter(
      { ...opts.config[e.rateLimit], store: opts.config.rateLimit.store, keyPrefix: e.name },
      opts.stores.pg,
    );
    ownLimits.set(e.path, rateLimit(own));
  }

  app.use(async (ctx, next) => {
    ctx.request.ip = clientAddress(ctx.get('x-forwarded-for'), ctx.socket.remoteAddress ?? '', opts.config.trustProxy);
    // Served over https, browsers are told to come back only so (a year, as is usual).
    if (hsts) ctx.set('Strict-Transport-Security', 'max-age=31536000');
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
      ctx.state.log[level](
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round(ms * 10) / 10,
          operation: ctx.state.operation,
          organizationId: ctx.state.identity?.organizationId,
        },
        'request',
      );
    }
  });
  app.use(errorHandler());
  // Two Host headers: the proxy in front and this service could each believe a different one.
  app.use(async (ctx, next) => {
    let hosts = 0;
    for (let i = 0; i < ctx.req.rawHeaders.length; i += 2) if (ctx.req.rawHeaders[i].toLowerCase() === 'host') hosts++;
    if (hosts > 1) {
      ctx.status = 400;
      ctx.body = { error: 'A request carries one Host header; this one has several' };
      return;
    }
    await next();
  });

  // Rate limit first (it also shields the key look-up from guessing), then the key, before any
  // routing: an unknown path under /api/ is a 404 only for a caller who got past both.
  const limit = rateLimit(limiter);
  const key = requireKey(opts.stores.pg, opts.config);
  app.use(async (ctx, next) => {
    if (!underApi(ctx.path) || OWN_RATE_LIMIT_PATHS.has(ctx.path)) return next();
    if (KEYLESS_API_PATHS.has(ctx.path)) return limit(ctx, next);
    const { beforeKey } = opts;
    const limited = ownLimits.get(ctx.path) ?? limit;
    return limited(ctx, () => (beforeKey ? beforeKey(ctx, () => key(ctx, next)) : key(ctx, next)));
  });
  // The OAuth authorization server of the MCP endpoint (docs/oauth.md): outside /api/, its own rate limit.
  app.use((await oauthRouter(opts)).routes());
  // What answers a GET or HEAD from here on is not to be stored unless it says otherwise (a probe,
  // an answer of the API or the app; /t.js, the docs and the app's bundle set their own).
  app.use((ctx, next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') ctx.set('Cache-Control', 'no-store');
    return next();
  });
  for (const mount of opts.extra ?? []) mount(app);

  const router = mountOperations(opts, opts.operations);
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: false }));
  return app;
}
