// ClickHouse through @clickhouse/client: a real server when CLICKHOUSE_URL is set, else chDB
// (in-process ClickHouse) with its files in DATA_DIR, plugged in as the client's connection.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createClient, type ClickHouseClient, type ResultSet } from '@clickhouse/client';
import { isScoped, type ScopedQuery } from './scoped-query.ts';
import { ApiError } from '../errors.ts';
import { FairQueue } from '../runtime/fair-queue.ts';
import { ClientPool } from './client-pool.ts';
import { inlineParams, placeholders } from './inline-params.ts';
import { parsedRows, type RowStream } from './parsed-rows.ts';
import { RowBinaryWriter, type BinaryColumn } from './row-binary.ts';

// Counts come back as JSON numbers (they stay far below 2^53); timestamps as ISO strings.
const CLICKHOUSE_SETTINGS = {
  date_time_output_format: 'iso',
  output_format_json_quote_64bit_integers: 0,
} as const;

// An answer_rows_in block feeds three views, and those feed five rollups: pushed to all at once
// instead of one after the other, a re-analysis page of 4,647 answers went in 84-97 ms instead of
// 119-151 ms (chDB; commit 9199c99).
// optimize_on_insert = 0: a block is written sorted but not collapsed or summed first. Every read
// sums with sign or sums the rollups' columns anyway, since rows of separate inserts meet only in
// merges; the pass it skips cost 14-20% of an ingest insert's CPU (commit e14c943).
// input_format_parallel_parsing = 0: a batch's lines are parsed on one thread instead of being cut
// into pieces for several: 5-10% less CPU an insert in two such A/B runs (10,000-line batches).
const INSERT_SETTINGS = {
  parallel_view_processing: 1,
  optimize_on_insert: 0,
  input_format_parallel_parsing: 0,
} as const;

// A read's values are written into its text on chDB's read connections, so the text is as long as
// its values: ingestion asks about 20,000 answer ids at once (about 900 KB written in), past the
// engine's default 256 KiB. Bound, values never counted against it; written in, they may take 64 MiB.
const READER_SETTINGS = { max_query_size: 64 * 1024 * 1024 } as const;

/** Reads running at once on the embedded engine when CLICKHOUSE_READ_SLOTS is not set. */
const EMBEDDED_READ_SLOTS = 2;

export interface ClickHouse {
  client: ClickHouseClient;
  /** The clients tenant reads run on: embedded, chDB connections of their own; on a server, `client`. */
  readClients: readonly ClickHouseClient[];
  embedded: boolean;
  /** `ON CLUSTER x` when migrations target a cluster, else empty. */
  cluster?: string;
  /**
   * Runs a read of tenant facts, made by scoped-query.ts (brand-scoped, values bound), and returns
   * its rows. On this object it is one of the service's own reads (ingestion, re-analysis, jobs);
   * a read for a caller goes through forCaller().
   */
  rows<T = Record<string, unknown>>(query: ScopedQuery): Promise<T[]>;
  /**
   * The same read, its rows left as the engine wrote them: JSONEachRow, one object per line, UTF-8.
   * For rows another thread parses (re-analysis hands whole pages to its worker thread), so this
   * thread does not spend its time on them.
   */
  rowLines(query: ScopedQuery): Promise<Uint8Array>;
  /**
   * The same store for reads made for one caller: they wait in the organization's line (`lane`,
   * src/runtime/fair-queue.ts), run within the query budget, and are dropped if `gone()` says the
   * client left before their turn.
   */
  forCaller(lane: string, gone?: () => boolean): ClickHouse;
  /**
   * Runs any SELECT with bound parameters: NOT for tenant data. For the store's own bookkeeping
   * (migrations, the readiness probe), operator tools, benches and tests inspecting the store; a
   * figure served to a tenant goes through `rows`. Grep for `.system(` to review every use.
   */
  system<T = Record<string, unknown>>(sql: string, params?: Record<string, unknown>): Promise<T[]>;
  /** Inserts rows (objects with the same keys) in one block. */
  insert(table: string, values: readonly object[]): Promise<void>;
  /** Inserts JSONCompactEachRow lines (UTF-8 or text) filling these columns, in one block. */
  insertLines(table: string, columns: readonly string[], body: string | Uint8Array): Promise<void>;
  /** Inserts RowBinary rows (row-binary.ts) of these columns, in this order, in one block. */
  insertRowBinary(table: string, columns: readonly BinaryColumn[], body: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export interface ClickHouseOptions {
  url?: string;
  user?: string;
  password?: string;
  database: string;
  cluster?: string;
  dataDir: string;
  /** Deadline of one HTTP request to a ClickHouse server (ms). */
  requestTimeoutMs?: number;
  /** Reads running at once (default 2 embedded, 8 on a server); the rest wait in turns per organization (0: no line). */
  readSlots?: number;
  /** How long one tenant read may run (ms) before ClickHouse stops it. */
  queryBudgetMs?: number;
}

/** ClickHouse's TIMEOUT_EXCEEDED: a read ran past max_execution_time. */
const TIMEOUT_EXCEEDED = /TIMEOUT_EXCEEDED|Timeout exceeded: elapsed/;

/** A ClickHouse string literal. */
const sqlString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * Rows travel as JSONCompactEachRow (one array per row, named columns): far less to write and
 * parse than JSONEachRow. In embedded mode the text goes to chDB's raw insert, which hands it to
 * the engine's parser without copying (the client's generic path re-parses it as SQL); to a
 * server, as it is, through the client's exec. Ingestion's bulk (answer_rows_in) goes as RowBinary
 * instead (insertRowBinary), which the engine reads for about half the CPU.
 */
function compactRows(values: readonly object[]): { columns: string[]; body: string } {
  const columns = Object.keys(values[0]);
  let body = '';
  for (const v of values) {
    const row = v as Record<string, unknown>;
    body += `${JSON.stringify(columns.map((c) => row[c] ?? null))}\n`;
  }
  return { columns, body };
}

/** A spool directory's name, with the id of the process that made it (answerscope-insert-: before 2026-11-26). */
const SPOOL_DIR = /^answerscope-(?:spool|insert)-(\d+)-/;

/** A spool directory untouched for this long, of a process that seems gone, is removed. */
const ORPHAN_SPOOL_AGE_MS = 60 * 60 * 1000;

/**
 * Removes the spool directories of processes that are gone: one killed before it closed its stores
 * left its directory (and maybe a file it was inserting) behind. A process that is still running,
 * or that this user may not signal (another user's), keeps its own; so does a directory used in
 * the last hour, in case its process runs where this one cannot see it (another PID namespace
 * sharing TMPDIR). Best effort: what cannot be removed stays.
 */
export function removeOrphanSpools(dir: string, now = Date.now()): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(SPOOL_DIR.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0); // signal 0: only asks whether the process exists
      continue;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') continue;
    }
    const at = path.join(dir, name);
    try {
      if (now - fs.statSync(at).mtimeMs < ORPHAN_SPOOL_AGE_MS) continue;
      fs.rmSync(at, { recursive: true, force: true });
    } catch {
      /* gone meanwhile, or not ours to remove */
    }
  }
}

/**
 * Lists of more elements than this go to the embedded engine as a file rather than written into
 * the query's text: ClickHouse's SQL parser took about 50 ms of CPU for a literal of 20,000 UUIDs
 * (the ids ingestion checks per batch), against about 10 ms for the same list read from a file.
 */
const SPOOLED_LIST_MIN = 1000;
/** The list types spooled, and how each element is written in RowBinary. */
const SPOOLED_ELEMENT = new Map<string, (w: RowBinaryWriter, v: unknown) => void>([
  ['Array(UUID)', (w, v) => w.uuid(v as string)],
  ['Array(String)', (w, v) => w.string(v as string)],
]);

/**
 * Writes each long list parameter of a query (a UUID or String array of SPOOLED_LIST_MIN elements
 * or more) to a spool file, and gives, by parameter name, the expression that reads it back (a
 * scalar subquery: an array, usable wherever the parameter was), and the files to remove after.
 */
async function spoolLists(
  sql: string,
  params: Readonly<Record<string, unknown>>,
  spoolFile: (body: Uint8Array) => Promise<string>,
): Promise<{ written: Map<string, string>; files: string[] }> {
  const written = new Map<string, string>();
  const files: string[] = [];
  for (const { name, type } of placeholders(sql)) {
    const value = params[name];
    const write = SPOOLED_ELEMENT.get(type);
    if (!write || written.has(name) || !Array.isArray(value) || value.length < SPOOLED_LIST_MIN) continue;
    const w = new RowBinaryWriter(value.length * 20);
    try {
      for (const v of value) write(w, v);
    } catch {
      continue; // not a UUID, or not a string: written in, the engine (or inlineParams) names it
    }
    const file = await spoolFile(w.bytes());
    files.push(file);
    const element = type.slice('Array('.length, -1);
    written.set(
      name,
      `_CAST((SELECT groupArray(v) FROM file(${sqlString(file)}, 'RowBinary', 'v ${element}')), ${sqlString(type)})`,
    );
  }
  return { written, files };
}

export async function openClickHouse(opts: ClickHouseOptions): Promise<ClickHouse> {
  let client: ClickHouseClient;
  let rawInsert:
    | ((table: string, columns: readonly string[], body: string | Uint8Array) => Promise<unknown>)
    | undefined;
  let binaryInsert:
    | ((table: string, columns: readonly BinaryColumn[], body: Uint8Array) => Promise<unknown>)
    | undefined;
  /** Embedded only: where RowBinary bodies wait for the engine to read them. */
  let spool: string | undefined;
  /** Embedded only: writes a body into the spool, and gives the file's path. */
  let spoolFile: ((body: Uint8Array) => Promise<string>) | undefined;
  /** Embedded only: the connections reads run on. */
  let readPool: ClientPool | undefined;
  const slots = opts.readSlots ?? (opts.url ? 8 : EMBEDDED_READ_SLOTS);
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
      request_timeout: opts.requestTimeoutMs ?? 30_000,
      clickhouse_settings: CLICKHOUSE_SETTINGS,
    });
  } else {
    const { createChdbConnection } = await import('chdb/connection');
    const dir = path.join(opts.dataDir, 'clickhouse');
    fs.mkdirSync(dir, { recursive: true });
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
    client = createClient({ connection: connection as any });
    rawInsert = (table, columns, body) =>
      connection.chdb.rawInsert({
        table,
        columns,
        values: body,
        format: 'JSONCompactEachRow',
        settings: INSERT_SETTINGS,
      });
    // chDB's raw insert takes text formats only, so a RowBinary body goes through a file that the
    // insert reads with file(). TMPDIR says where (a tmpfs keeps it off the disk); it lives for
    // one insert.
    removeOrphanSpools(os.tmpdir());
    spool = fs.mkdtempSync(path.join(os.tmpdir(), `answerscope-spool-${process.pid}-`));
    let spooled = 0;
    spoolFile = async (body) => {
      const file = path.join(spool!, `${++spooled}.rowbinary`);
      await fs.promises.mkdir(spool!, { recursive: true }); // in case another process took it for an orphan
      await fs.promises.writeFile(file, body);
      return file;
    };
    binaryInsert = async (table, columns, body) => {
      const file = await spoolFile!(body);
      try {
        const names = columns.map(([name]) => name).join(', ');
        const structure = columns.map(([name, type]) => `${name} ${type}`).join(', ');
        const settings = Object.entries(INSERT_SETTINGS)
          .map(([k, v]) => `${k} = ${v}`)
          .join(', ');
        await client.command({
          query: `INSERT INTO ${table} (${names}) SELECT ${names} FROM file(${sqlString(file)}, 'RowBinary', ${sqlString(structure)}) SETTINGS ${settings}`,
        });
      } finally {
        await fs.promises.rm(file, { force: true });
      }
    };
    // Reads run on connections of their own, one read each at a time, their values written in
    // (inline-params.ts): a read on one connection does not wait for a query on another, nor for a
    // write on the first.
    const readers: ClickHouseClient[] = [];
    for (let i = 0; i < Math.max(1, slots); i++) {
      const reader = await connect({ ...CLICKHOUSE_SETTINGS, ...READER_SETTINGS });
      // biome-ignore lint/suspicious/noExplicitAny: as above
      readers.push(createClient({ connection: reader as any }));
    }
    readPool = new ClientPool(readers);
  }
  const insertLines = async (table: string, columns: readonly string[], body: string | Uint8Array) => {
    if (body.length === 0) return;
    if (rawInsert) {
      await rawInsert(table, columns, body);
      return;
    }
    // The client re-encodes JSON formats row by row; exec sends the lines as they are.
    const { stream } = await client.exec({
      query: `INSERT INTO ${table} (${columns.join(', ')}) FORMAT JSONCompactEachRow`,
      clickhouse_settings: INSERT_SETTINGS,
      values: Readable.from([typeof body === 'string' ? Buffer.from(body) : body], { objectMode: false }),
    });
    for await (const _ of stream); // an INSERT answers with nothing; reading it frees the connection
  };
  const insertRowBinary = async (table: string, columns: readonly BinaryColumn[], body: Uint8Array) => {
    if (body.length === 0) return;
    if (binaryInsert) {
      await binaryInsert(table, columns, body);
      return;
    }
    const { stream } = await client.exec({
      query: `INSERT INTO ${table} (${columns.map(([name]) => name).join(', ')}) FORMAT RowBinary`,
      clickhouse_settings: INSERT_SETTINGS,
      values: Readable.from([body], { objectMode: false }),
    });
    for await (const _ of stream); // as in insertLines
  };
  /** Runs a query; its rows are parsed by `.json()` on the result, apart from the engine's work. */
  const query = (sql: string, params?: Readonly<Record<string, unknown>>) =>
    client.query({ query: sql, query_params: params as Record<string, unknown> | undefined, format: 'JSONEachRow' });
  const select = async <T>(sql: string, params?: Readonly<Record<string, unknown>>) =>
    parsedRows<T>(await query(sql, params));
  /**
   * A tenant read started: on a server, bound as any query; embedded, on a read connection of its
   * own. `lines`: the result as the engine's bytes (exec) instead of a result set to parse.
   */
  const startRead = (sql: string, params: Readonly<Record<string, unknown>>, lines: boolean) => {
    const start = (
      c: ClickHouseClient,
      text: string,
      bound?: Record<string, unknown>,
    ): Promise<{ bytes: Readable } | { rows: ResultSet<'JSONEachRow'> }> =>
      lines
        ? c.exec({ query: `${text} FORMAT JSONEachRow`, query_params: bound }).then((r) => ({ bytes: r.stream }))
        : c.query({ query: text, query_params: bound, format: 'JSONEachRow' }).then((r) => ({ rows: r }));
    if (!readPool) return start(client, sql, params as Record<string, unknown>);
    return readPool.use(async (reader) => {
      const { written, files } = await spoolLists(sql, params, spoolFile!);
      try {
        return await start(reader, inlineParams(sql, params, written));
      } finally {
        // The engine has read the files once the query has answered: chDB hands over a whole result.
        await Promise.all(files.map((file) => fs.promises.rm(file, { force: true })));
      }
    });
  };
  // With more than one slot, one lane holds at most all but one: another organization's read
  // always finds a connection free.
  const reads = new FairQueue(slots, slots > 1 ? slots - 1 : slots);
  const budgetS = (opts.queryBudgetMs ?? 10_000) / 1000;
  /**
   * A read in its lane's turn; `caller`: made for a caller, so it has the time budget. `lines`: its
   * rows as JSONEachRow bytes (rowLines), else parsed.
   */
  async function read<T>(q: ScopedQuery, lane: string, caller: boolean, gone?: () => boolean): Promise<T[]>;
  async function read(
    q: ScopedQuery,
    lane: string,
    caller: boolean,
    gone: (() => boolean) | undefined,
    lines: true,
  ): Promise<Uint8Array>;
  async function read<T>(
    q: ScopedQuery,
    lane: string,
    caller: boolean,
    gone?: () => boolean,
    lines = false,
  ): Promise<T[] | Uint8Array> {
    // The type already refuses anything else; this stops callers the type system does not see.
    if (!isScoped(q)) throw new TypeError('ch.rows takes a ScopedQuery (src/stores/scoped-query.ts)');
    try {
      // The slot is held while the engine works, not while the rows are parsed here: chDB can run
      // the next read meanwhile.
      const result = await reads.run(
        lane,
        // The budget bounds what a caller asks for; the service's own reads are sized by their code.
        // ClickHouse pauses a query while one of a higher priority (a lower number) runs: the read of
        // a lane with nothing else in hand goes first, so a busy lane's backlog yields to it.
        // SETTINGS clauses of the query, not the client's clickhouse_settings: chDB's adapter turns
        // those into SET statements that stay on its session, for every query after.
        ({ others }) =>
          startRead(
            `${q.sql} SETTINGS priority = ${others ? 2 : 1}${caller ? `, max_execution_time = ${budgetS}` : ''}`,
            q.params,
            lines,
          ),
        gone,
      );
      if ('rows' in result) return await parsedRows<T>(result.rows as RowStream<T>);
      const chunks: Buffer[] = [];
      for await (const chunk of result.bytes) chunks.push(chunk as Buffer);
      // chDB hands over its whole result as one buffer of its own: taken as it is, not copied (a
      // re-analysis step's 25 MB copy held the event loop for tens of milliseconds).
      return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    } catch (err) {
      if (TIMEOUT_EXCEEDED.test(String((err as Error)?.message))) {
        throw new ApiError(
          500,
          `The analytics store stopped this request's query after its ${budgetS} s budget: narrow the date range or filters`,
        );
      }
      throw err;
    }
  }
  const store: ClickHouse = {
    client,
    readClients: readPool?.clients ?? [client],
    embedded: !opts.url,
    cluster: opts.cluster,
    rows: <T>(query: ScopedQuery) => read<T>(query, 'service', false),
    rowLines: (query) => read(query, 'service', false, undefined, true),
    // A view of the same engine and line: the service's writes and the caller's reads share both.
    // Spread when asked, so it carries whatever the store's calls are then (observed, in a server).
    forCaller: (lane, gone) => ({
      ...store,
      rows: <T>(query: ScopedQuery) => read<T>(query, lane, true, gone),
      rowLines: (query) => read(query, lane, true, gone, true),
    }),
    system: select,
    async insert(table, values) {
      if (values.length === 0) return;
      const { columns, body } = compactRows(values);
      await insertLines(table, columns, body);
    },
    insertLines,
    insertRowBinary,
    close: async () => {
      await readPool?.close();
      await client.close();
      if (spool) fs.rmSync(spool, { recursive: true, force: true });
    },
  };
  return store;
}
