// Turns anything thrown below into {"error": message}. ApiErrors carry their own status and
// message; anything else is a 500 whose cause is logged with the request id and never sent.
import type Koa from 'koa';
import { ApiError } from '../errors.ts';
import { errorStore } from '../stores/observe.ts';

// Connection failures and deadlines (pg's query_timeout, the ClickHouse client's request_timeout,
// Postgres' statement_timeout 57014 and shutdown codes 57P01-3): the store is down or too slow.
const OUTAGE = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE|socket hang up|Connection terminated|not queryable|timeout exceeded when trying to connect|Query read timeout|Timeout error|57P0[1-3]|57014/;

/** Connection failures of either store, recognised so the 500 can say which store is down. */
export function storeOutage(err: unknown): string | undefined {
  const e = err as { code?: string; message?: string; name?: string; cause?: unknown };
  const text = `${e?.code ?? ''} ${e?.message ?? ''}`;
  if (OUTAGE.test(text)) {
    // The observed store calls name their store (src/stores/observe.ts); other paths are guessed.
    const store = errorStore(err);
    if (store) return store === 'clickhouse' ? 'Analytics store unavailable' : 'Database unavailable';
    return /clickhouse|8123|chdb/i.test(text + String(e?.cause ?? '')) ? 'Analytics store unavailable' : 'Database unavailable';
  }
  return undefined;
}

export function errorHandler(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && !ctx.body) {
        ctx.status = 404;
        ctx.body = { error: 'Not found' };
      } else if (ctx.status === 405 && !ctx.body) {
        ctx.status = 405;
        ctx.body = { error: `Method ${ctx.method} not allowed on ${ctx.path}` };
      }
    } catch (err) {
      if (err instanceof ApiError) {
        ctx.status = err.status;
        ctx.body = { error: err.message };
        return;
      }
      const outage = storeOutage(err);
      ctx.state.log?.error({ err, requestId: ctx.state.requestId }, 'request failed');
      ctx.status = 500;
      ctx.body = { error: outage ?? `Internal server error (request ${ctx.state.requestId})` };
    }
  };
}
