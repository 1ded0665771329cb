// Opens both stores from the configuration; the rest of the code only sees `Stores`.
import type { Config } from '../config.ts';
import { openPostgres, type Postgres } from './postgres.ts';
import { openClickHouse, type ClickHouse } from './clickhouse.ts';

export type { Postgres } from './postgres.ts';
export type { ClickHouse } from './clickhouse.ts';

export interface Stores {
  pg: Postgres;
  ch: ClickHouse;
  close(): Promise<void>;
}

export async function openStores(config: Config): Promise<Stores> {
  const pg = await openPostgres({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    queryTimeoutMs: config.databaseQueryTimeoutMs,
  });
  let ch: ClickHouse;
  try {
    ch = await openClickHouse({ ...config.clickhouse, dataDir: config.dataDir });
  } catch (err) {
    await pg.close();
    throw err;
  }
  return {
    pg,
    ch,
    async close() {
      await Promise.allSettled([ch.close(), pg.close()]);
    },
  };
}
