// Recognises a store outage in an error, so a 500 can say which store is down (`Database
// unavailable`, `Analytics store unavailable`) instead of a bare internal error. REST's error
// handler and MCP's tool calls both ask it, so it lives with the stores rather than in one surface.
import { errorStore } from './observe.ts';

// Connection failures and deadlines (pg's query_timeout, the ClickHouse client's request_timeout,
// Postgres' statement_timeout 57014 and shutdown codes 57P01-3): the store is down or too slow.
const OUTAGE = new RegExp(
  [
    'ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE|socket hang up',
    'Connection terminated|not queryable|timeout exceeded when trying to connect|Query read timeout',
    'Timeout error|57P0[1-3]|57014',
  ].join('|'),
);

/** Connection failures of either store, recognised so the 500 can say which store is down. */
export function storeOutage(err: unknown): string | undefined {
  const e = err as { code?: string; message?: string; name?: string; cause?: unknown };
  const text = `${e?.code ?? ''} ${e?.message ?? ''}`;
  if (!OUTAGE.test(text)) return undefined;
  // The observed store calls name their store (src/stores/observe.ts); other paths are guessed.
  const store = errorStore(err);
  if (store) return store === 'clickhouse' ? 'Analytics store unavailable' : 'Database unavailable';
  const guessed = /clickhouse|8123|chdb/i.test(text + String(e?.cause ?? ''));
  return guessed ? 'Analytics store unavailable' : 'Database unavailable';
}
