// A ClickHouse server (CLICKHOUSE_URL): one HTTP client for everything, reads with their values
// bound, rows sent over HTTP as they are.
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { createClient, type ClickHouseClient, type ClickHouseSettings } from '@clickhouse/client';
import { CLICKHOUSE_SETTINGS, type Engine, INSERT_SETTINGS, PARQUET_SETTINGS, startOn } from './clickhouse-engine.ts';

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
    // A server cannot read this machine's files: the lines go to a table of their own (a Log table
    // reads its rows back in the order written), the Parquet comes back as the response streams,
    // and the table is dropped once it has been read or the read failed.
    parquet: async (structure, jsonl) => {
      const table = `parquet_export_${randomUUID().replace(/-/g, '')}`;
      const drop = () => client.command({ query: `DROP TABLE IF EXISTS ${table}` }).catch(() => {});
      await client.command({ query: `CREATE TABLE ${table} (${structure}) ENGINE = Log` });
      try {
        const { stream: inserted } = await client.exec({
          query: `INSERT INTO ${table} FORMAT JSONEachRow`,
          values: fs.createReadStream(jsonl),
        });
        for await (const _ of inserted);
        const { stream } = await client.exec({
          query: `SELECT * FROM ${table} FORMAT Parquet`,
          // The client types 64-bit settings as strings; the server takes the numbers as they are.
          clickhouse_settings: PARQUET_SETTINGS as unknown as ClickHouseSettings,
        });
        stream.once('close', drop);
        return stream;
      } catch (err) {
        await drop();
        throw err;
      }
    },
    close: () => client.close(),
  };
}
