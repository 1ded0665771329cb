// ClickHouse through @clickhouse/client: a real server when CLICKHOUSE_URL is set, else chDB
// (in-process ClickHouse) with its files in DATA_DIR, plugged in as the client's connection.
import fs from 'node:fs';
import path from 'node:path';
import { createClient, type ClickHouseClient } from '@clickhouse/client';

// Counts come back as JSON numbers (they stay far below 2^53); timestamps as ISO strings.
const CLICKHOUSE_SETTINGS = {
  date_time_output_format: 'iso',
  output_format_json_quote_64bit_integers: 0,
} as const;

export interface ClickHouse {
  client: ClickHouseClient;
  embedded: boolean;
  /** `ON CLUSTER x` when migrations target a cluster, else empty. */
  cluster?: string;
  /** Runs a SELECT with bound parameters and returns its rows. */
  rows<T = Record<string, unknown>>(query: string, params?: Record<string, unknown>): Promise<T[]>;
  /** Inserts rows as JSONEachRow. */
  insert(table: string, values: readonly object[]): Promise<void>;
  close(): Promise<void>;
}

export interface ClickHouseOptions {
  url?: string;
  user?: string;
  password?: string;
  database: string;
  cluster?: string;
  dataDir: string;
}

export async function openClickHouse(opts: ClickHouseOptions): Promise<ClickHouse> {
  let client: ClickHouseClient;
  if (opts.url) {
    // The database may not exist yet on a fresh server; create it before binding the client to it.
    const bootstrap = createClient({ url: opts.url, username: opts.user, password: opts.password });
    const onCluster = opts.cluster ? ` ON CLUSTER \`${opts.cluster}\`` : '';
    await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS \`${opts.database}\`${onCluster}` });
    await bootstrap.close();
    client = createClient({
      url: opts.url,
      username: opts.user,
      password: opts.password,
      database: opts.database,
      request_timeout: 30_000,
      clickhouse_settings: CLICKHOUSE_SETTINGS,
    });
  } else {
    const { createChdbConnection } = await import('chdb/connection');
    const dir = path.join(opts.dataDir, 'clickhouse');
    fs.mkdirSync(dir, { recursive: true });
    // chDB has one engine per process and ignores the client's database option: our tables live in
    // its `default` database, which belongs to this DATA_DIR alone.
    client = createClient({
      connection: createChdbConnection({ path: dir }) as any,
      clickhouse_settings: CLICKHOUSE_SETTINGS,
    });
  }
  return {
    client,
    embedded: !opts.url,
    cluster: opts.cluster,
    async rows<T>(query: string, params?: Record<string, unknown>) {
      const result = await client.query({ query, query_params: params, format: 'JSONEachRow' });
      return (await result.json()) as T[];
    },
    async insert(table, values) {
      if (values.length === 0) return;
      await client.insert({ table, values: values as object[], format: 'JSONEachRow' });
    },
    close: () => client.close(),
  };
}
