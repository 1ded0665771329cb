// The per-address request limit of docs/api.md section 29 (250 per 15 minutes by default) on every API surface.
// In memory by default; RATE_LIMIT_STORE=postgres shares the counters between instances. The API
// and the tracking beacon (src/traffic) both use it, so it lives below them.
import type Koa from 'koa';
import type { Pool } from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

export interface RateLimitOptions {
  max: number;
  windowS: number;
  store: 'memory' | 'postgres';
  keyPrefix: string;
}

/** `pg`: the Postgres store (its pool holds the shared counters); only a pool is needed of it. */
export async function createLimiter(opts: RateLimitOptions, pg?: { pool: Pool }): Promise<RateLimiterAbstract> {
  const base = { points: opts.max, duration: opts.windowS, keyPrefix: opts.keyPrefix };
  if (opts.store === 'postgres' && pg) {
    const limiter = await new Promise<RateLimiterPostgres>((resolve, reject) => {
      const l: RateLimiterPostgres = new RateLimiterPostgres(
        { ...base, storeClient: pg.pool, storeType: 'pool', tableName: 'rate_limits' },
        (err?: Error) => (err ? reject(err) : resolve(l)),
      );
    });
    return limiter;
  }
  return new RateLimiterMemory(base);
}

/**
 * Answers 429 with Retry-After (whole seconds) once an address (or what `keyOf` names: a session)
 * has used up its window. A request `keyOf` names nothing for passes uncounted.
 */
export function rateLimit(
  limiter: RateLimiterAbstract,
  keyOf: (ctx: Koa.Context) => string | undefined = (ctx) => ctx.ip || 'unknown',
): Koa.Middleware {
  return async (ctx, next) => {
    const key = keyOf(ctx);
    if (key === undefined) return next();
    try {
      const res = await limiter.consume(key);
      ctx.set('RateLimit-Limit', String(limiter.points));
      ctx.set('RateLimit-Remaining', String(res.remainingPoints));
    } catch (rej) {
      if (!(rej instanceof RateLimiterRes)) throw rej;
      const seconds = Math.max(1, Math.ceil(rej.msBeforeNext / 1000));
      ctx.set('Retry-After', String(seconds));
      ctx.status = 429;
      const limit = `${limiter.points} per ${limiter.duration} seconds`;
      ctx.body = { error: `Too many requests: the limit is ${limit}; retry in ${seconds} seconds` };
      return;
    }
    await next();
  };
}
