// A ClickHouse server (CLICKHOUSE_URL): one HTTP client for everything, reads with their values
// bound, rows sent over HTTP as they are.
import { Readable } from 'node:stream';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { CLICKHOUSE_SETTINGS, type Engine, INSERT_SETTINGS, startOn } from './clickhouse-engine.ts';

export interface ServerOptions {
  url: string;
  user?: string;
  password?: string;
  database: string;
  cluster?: string;
  /** Deadline of one HTTP request (ms). */
  requestTimeoutMs?: number;
}

/** Sends a body to an INSERT ... FORMAT x as it is (the client would re-encode JSON formats row by row). */
async function insertBody(client: ClickHouseClient, query: string, body: string | Uint8Array): Promise<void> {
  const { stream } = await client.exec({
    query,
    clickhouse_settings: INSERT_SETTINGS,
    values: Readable.from([typeof body === 'string' ? Buffer.from(body) : body], { objectMode: false }),
  });
  for await (const _ of stream); // an INSERT answers with nothing; reading it frees the connection
}

export async function openServer(opts: ServerOptions): Promise<Engine> {
  // The database may not exist yet on a fresh server; create it before binding the client to it.
  const bootstrap = createClient({ url: opts.url, username: opts.user, password: opts.password });
  const onCluster = opts.cluster ? ` ON CLUSTER \`${opts.cluster}\`` : '';
  await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS \`${opts.database}\`${onCluster}` });
  await bootstrap.close();
  const client = createClient({
    url: opts.url,
    username: opts.user,
    password: opts.password,
    database: opts.database,
    request_timeout: opts.requestTimeoutMs ?? 30_000,
    clickhouse_settings: CLICKHOUSE_SETTINGS,
  });
  return {
    embedded: false,
    client,
    readClients: [client],
    insertLines: (table, columns, body) =>
      insertBody(client, `INSERT INTO ${table} (${columns.join(', ')}) FORMAT JSONCompactEachRow`, body),
    insertRowBinary: (table, columns, body) =>
      insertBody(client, `INSERT INTO ${table} (${columns.map(([name]) => name).join(', ')}) FORMAT RowBinary`, body),
    startRead: (sql, params, lines) => startOn(client, sql, params as Record<string, unknown>, lines),
    close: () => client.close(),
  };
}
