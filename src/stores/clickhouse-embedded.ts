// chDB, ClickHouse in this process, with its files in DATA_DIR, plugged in as the client's
// connection. Writes go on one connection (text through chDB's raw insert, which hands it to the
// engine's parser without copying; RowBinary through a spool file); reads run on connections of
// their own, one read each at a time, their values written in (inline-params.ts): a read on one
// connection does not wait for a query on another, nor for a write on the first.
import fs from 'node:fs';
import path from 'node:path';
import { type ClickHouseClient, createClient } from '@clickhouse/client';
import {
  CLICKHOUSE_SETTINGS,
  type Engine,
  INSERT_SETTINGS,
  PARQUET_SETTINGS,
  settingsClause,
  sqlString,
  startOn,
} from './clickhouse-engine.ts';
import { ClientPool } from './client-pool.ts';
import { inlineParams } from './inline-params.ts';
import { Spool, spoolLists } from './spool.ts';

// A read's values are written into its text on the read connections, so the text is as long as
// its values: ingestion asks about 20,000 answer ids at once (about 900 KB written in), past the
// engine's default 256 KiB. Bound, values never counted against it; written in, they may take 64 MiB.
const READER_SETTINGS = { max_query_size: 64 * 1024 * 1024 } as const;

export interface EmbeddedOptions {
  dataDir: string;
  /** Read connections. */
  readSlots: number;
}

export async function openEmbedded(opts: EmbeddedOptions): Promise<Engine> {
  const { createChdbConnection } = await import('chdb/connection');
  const folder = path.join(opts.dataDir, 'clickhouse');
  fs.mkdirSync(folder, { recursive: true });
  // chDB binds its one engine to a path: the real one, so a folder reached through a link is the
  // same engine (a shared test process links its servers' folders to one).
  const dir = fs.realpathSync(folder);
  // chDB has one engine per process and ignores the client's database option: our tables live in
  // its `default` database, which belongs to this DATA_DIR alone. Each connection to it is a
  // session of its own, and sessions run their queries side by side (chdb-node 3.4).
  const connect = async (settings: Record<string, string | number>) => {
    const connection = createChdbConnection({ path: dir });
    // chDB's adapter sends a client's settings as SET statements before every query, and a SET
    // stays on its session: set once here, they cost no statement per read (a parameterised read
    // of a small table 3.2 -> 3.0 ms, `SELECT 1` 1.06 -> 0.80 ms, measured with an uncommitted
    // script).
    for (const [name, value] of Object.entries(settings)) {
      await connection.command({ query: `SET ${name} = ${typeof value === 'string' ? `'${value}'` : value}` });
    }
    return connection;
  };
  const connection = await connect(CLICKHOUSE_SETTINGS);
  // biome-ignore lint/suspicious/noExplicitAny: chdb types it with @clickhouse/client-common, not the client's copy
  const client = createClient({ connection: connection as any });
  const spool = new Spool();
  const readers: ClickHouseClient[] = [];
  for (let i = 0; i < Math.max(1, opts.readSlots); i++) {
    const reader = await connect({ ...CLICKHOUSE_SETTINGS, ...READER_SETTINGS });
    // biome-ignore lint/suspicious/noExplicitAny: as above
    readers.push(createClient({ connection: reader as any }));
  }
  const readPool = new ClientPool(readers);
  const insertSettings = settingsClause(INSERT_SETTINGS);
  return {
    embedded: true,
    client,
    readClients: readPool.clients,
    insertLines: async (table, columns, body) => {
      await connection.chdb.rawInsert({
        table,
        columns,
        values: body,
        format: 'JSONCompactEachRow',
        settings: INSERT_SETTINGS,
      });
    },
    insertRowBinary: async (table, columns, body) => {
      const file = await spool.file(body);
      try {
        const names = columns.map(([name]) => name).join(', ');
        const structure = columns.map(([name, type]) => `${name} ${type}`).join(', ');
        await client.command({
          query:
            `INSERT INTO ${table} (${names}) SELECT ${names} FROM file(${sqlString(file)}, ` +
            `'RowBinary', ${sqlString(structure)}) SETTINGS ${insertSettings}`,
        });
      } finally {
        await fs.promises.rm(file, { force: true });
      }
    },
    startRead: (sql, params, lines) =>
      readPool.use(async (reader) => {
        const { written, files } = await spoolLists(sql, params, spool);
        try {
          return await startOn(reader, inlineParams(sql, params, written), undefined, lines);
        } finally {
          // The engine has read the files once the query has answered: chDB hands over a whole result.
          await Promise.all(files.map((file) => fs.promises.rm(file, { force: true })));
        }
      }),
    // The engine reads the lines from their file and writes the Parquet beside it, group by group;
    // the file is removed once its reader closes.
    parquet: async (structure, jsonl) => {
      const out = `${jsonl}.parquet`;
      await client.command({
        query:
          `INSERT INTO FUNCTION file(${sqlString(out)}, 'Parquet', ${sqlString(structure)}) ` +
          `SELECT * FROM file(${sqlString(jsonl)}, 'JSONEachRow', ${sqlString(structure)}) ` +
          `SETTINGS ${settingsClause(PARQUET_SETTINGS)}`,
      });
      const stream = fs.createReadStream(out);
      stream.once('close', () => fs.rm(out, { force: true }, () => {}));
      return stream;
    },
    close: async () => {
      await readPool.close();
      await client.close();
      spool.close();
    },
  };
}
