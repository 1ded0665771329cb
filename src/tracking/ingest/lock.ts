// Ingestion reads what is stored to decide what to write (reconcile.ts), so two ingests of the
// same answers must not interleave. In-process they queue on a promise chain; across processes on a
// real Postgres server they also take an advisory lock. (Embedded stores belong to one process.)
import type { Stores } from '../../stores/index.ts';
import { INGEST_LOCK } from '../../stores/locks.ts';

let chain: Promise<unknown> = Promise.resolve();

export function withIngestLock<T>(stores: Stores, fn: () => Promise<T>): Promise<T> {
  const run = chain.then(async () => {
    if (stores.pg.embedded) return fn();
    const client = await stores.pg.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [INGEST_LOCK]);
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [INGEST_LOCK]);
      }
    } finally {
      client.release();
    }
  });
  chain = run.catch(() => {});
  return run;
}
