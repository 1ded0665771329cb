// A hook around the store calls the application makes (pg.query, pg.tx, ch.rows, ch.rowLines, ch.system,
// ch.insert, ch.insertLines, ch.insertRowBinary): it times each one for the metrics and marks a
// failure with the store it came from, so the HTTP error handler can say which store is unavailable
// (`Database unavailable`, `Analytics store unavailable`).
import type { Stores } from './index.ts';

export type StoreName = 'postgres' | 'clickhouse';
export type StoreCall = 'query' | 'tx' | 'rows' | 'insert';

/** Called once per store call with its duration in seconds and whether it failed. */
export type StoreObserver = (store: StoreName, call: StoreCall, seconds: number, failed: boolean) => void;

/** The store an error came from, when it passed through an observed call. */
export function errorStore(err: unknown): StoreName | undefined {
  return (err as { store?: StoreName } | null)?.store;
}

function wrap<A extends unknown[], R>(
  store: StoreName,
  call: StoreCall,
  fn: (...args: A) => Promise<R>,
  observe: StoreObserver,
) {
  return async (...args: A): Promise<R> => {
    const started = performance.now();
    try {
      const result = await fn(...args);
      observe(store, call, (performance.now() - started) / 1000, false);
      return result;
    } catch (err) {
      observe(store, call, (performance.now() - started) / 1000, true);
      // The innermost store names it: a ClickHouse failure inside a Postgres transaction stays ClickHouse's.
      if (err && typeof err === 'object' && !errorStore(err))
        Object.defineProperty(err, 'store', { value: store, enumerable: false });
      throw err;
    }
  };
}

/** Replaces the stores' call functions in place with observed ones; returns the same object. */
export function observeStores(stores: Stores, observe: StoreObserver): Stores {
  const { pg, ch } = stores;
  pg.query = wrap('postgres', 'query', pg.query.bind(pg), observe) as typeof pg.query;
  pg.tx = wrap('postgres', 'tx', pg.tx.bind(pg), observe) as typeof pg.tx;
  ch.rows = wrap('clickhouse', 'rows', ch.rows.bind(ch), observe) as typeof ch.rows;
  // Absent from a test's fake store that never reads lines.
  if (ch.rowLines) ch.rowLines = wrap('clickhouse', 'rows', ch.rowLines.bind(ch), observe);
  // Reads outside the tenant scope are counted as reads too. Called, not bound, here: a partial
  // store (a test's fake with only the calls it makes) can still be wrapped.
  const system = ch.system;
  const observed = (sql: string, params?: Record<string, unknown>) => system.call(ch, sql, params);
  ch.system = wrap('clickhouse', 'rows', observed, observe) as typeof ch.system;
  ch.insert = wrap('clickhouse', 'insert', ch.insert.bind(ch), observe);
  // Ingestion's bulk goes through these two, not insert(). Absent from a test's partial fake.
  if (ch.insertLines) ch.insertLines = wrap('clickhouse', 'insert', ch.insertLines.bind(ch), observe);
  if (ch.insertRowBinary) ch.insertRowBinary = wrap('clickhouse', 'insert', ch.insertRowBinary.bind(ch), observe);
  // A caller's view reads through its own rows: observed like the store's.
  const forCaller = ch.forCaller;
  if (forCaller) {
    ch.forCaller = (lane, gone) => {
      const view = forCaller.call(ch, lane, gone);
      return {
        ...view,
        rows: wrap('clickhouse', 'rows', view.rows.bind(view), observe) as typeof view.rows,
        rowLines: view.rowLines && wrap('clickhouse', 'rows', view.rowLines.bind(view), observe),
      };
    };
  }
  return stores;
}
