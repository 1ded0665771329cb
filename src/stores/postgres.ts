// Postgres through `pg`: a real server when DATABASE_URL is set, else PGlite in DATA_DIR, reached in
// memory through pglite-socket's protocol handler (pglite-link.ts), so the same `pg` code runs
// against both.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { PGliteLink } from './pglite-link.ts';

// Dates and timestamps stay strings/Date as pg gives them; bigint counts come back as numbers
// (they are quota counters and row counts, far below 2^53).
pg.types.setTypeParser(20, (v) => Number(v));

const statementNames = new Map<string, string>();
/** A prepared statement's name: the same for the same text, in every connection. */
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) {
    name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    statementNames.set(sql, name);
  }
  return name;
}

/** The pool wrapper (`stores.pg`) or a transaction's client: whatever runs one statement. */
export interface Queryable {
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<T>>;
}

export interface QueryOptions {
  /**
   * Parse and plan once per connection, then reuse (a named prepared statement): for the few
   * queries every request runs. In PGlite this took the cached mixed load from 642 to 940 req/s
   * (docs/performance.md). Not for SQL built from values: each text is kept per connection.
   */
  prepared?: boolean;
}

export interface Postgres {
  pool: pg.Pool;
  embedded: boolean;
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params?: unknown[],
    opts?: QueryOptions,
  ): Promise<pg.QueryResult<T>>;
  /** Runs fn in one transaction on one connection; rolls back when it throws. */
  tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function openPostgres(opts: {
  url?: string;
  dataDir: string;
  queryTimeoutMs?: number;
}): Promise<Postgres> {
  let link: PGliteLink | undefined;
  if (!opts.url) {
    const { PGlite } = await import('@electric-sql/pglite');
    const { pgliteLink } = await import('./pglite-link.ts');
    const dir = path.join(opts.dataDir, 'postgres');
    fs.mkdirSync(dir, { recursive: true });
    link = pgliteLink(await PGlite.create(dir));
  }
  const embedded = Boolean(link);
  // PGlite is ONE Postgres session behind pglite-socket's multiplexer: whatever one connection
  // leaves in the session (named statements, an open transaction, SET, temp tables, session locks)
  // every other connection sees, and concurrent connections' protocol messages interleave. So:
  // - one connection at a time (max 1): statements of concurrent transactions interleaving lost
  //   writes, and a BEGIN..COMMIT must see no other client's statement. The price: code inside
  //   tx() must use the transaction's client only, never pg.query (it would wait for itself);
  // - a replaced connection (pg-pool drops a client on any query error) starts by forgetting the
  //   named statements of the one before it, which the session still holds and the new client
  //   does not know of: its first use would fail with `prepared statement "s..." already exists`;
  // - no idle or wait deadline, and no query_timeout: the pool's line is the session's queue, the
  //   engine runs in this process and cannot hang apart from it, and a query dropped halfway
  //   would leave its remaining protocol messages behind in the shared session.
  // Nothing else may set per-session state: the code sets no search_path, no SET, no temp table.
  const pool = new pg.Pool({
    ...(link ? { stream: link.stream, user: 'postgres', database: 'postgres' } : { connectionString: opts.url }),
    max: embedded ? 1 : 10,
    connectionTimeoutMillis: embedded ? 0 : 5_000,
    idleTimeoutMillis: embedded ? 0 : 30_000,
    ...(embedded ? { onConnect: (client: pg.PoolClient) => client.query('DEALLOCATE ALL') } : {}),
  } as pg.PoolConfig);
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const queryTimeout = embedded ? undefined : opts.queryTimeoutMs;
  return {
    pool,
    embedded,
    // A query past its deadline fails and its connection is dropped (pg's query_timeout), so a hung
    // server cannot hold requests. Only here: transactions and session locks wait as long as they must.
    query: (sql, params, q) =>
      pool.query({
        text: sql,
        values: params,
        query_timeout: queryTimeout,
        ...(q?.prepared ? { name: statementName(sql) } : {}),
      } as pg.QueryConfig),
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(client);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
      await link?.close();
    },
  };
}
