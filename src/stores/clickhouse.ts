// The ClickHouse store the application uses: a real server when CLICKHOUSE_URL is set
// (clickhouse-server.ts), else chDB in this process with its files in DATA_DIR
// (clickhouse-embedded.ts). Both are an Engine (clickhouse-engine.ts); what is the same for both is
// here: the scoped reads, their line per organization and time budget, and the inserts' forms.
import type { Readable } from 'node:stream';
import type { ClickHouseClient } from '@clickhouse/client';
import { isScoped, type ScopedQuery } from './scoped-query.ts';
import { ApiError } from '../errors.ts';
import { FairQueue } from '../runtime/fair-queue.ts';
import type { Engine } from './clickhouse-engine.ts';
import { openEmbedded } from './clickhouse-embedded.ts';
import { openServer } from './clickhouse-server.ts';
import { parsedRows, type RowStream } from './parsed-rows.ts';
import type { BinaryColumn } from './row-binary.ts';
import { insertFailure } from './insert-error.ts';

/** Reads running at once when CLICKHOUSE_READ_SLOTS is not set. */
const DEFAULT_READ_SLOTS = { embedded: 2, server: 8 };

export interface ClickHouse {
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
  /** Set on a caller's view: its lane and `gone`, for work done for it beside ClickHouse (the bootstrap's threads). */
  caller?: { lane: string; gone?: () => boolean };
  /**
   * Runs any SELECT with bound parameters: NOT for tenant data. For the store's own bookkeeping
   * (migrations, the readiness probe), operator tools, benches and tests inspecting the store; a
   * figure served to a tenant goes through `rows`. Grep for `.system(` to review every use.
   */
  system<T = Record<string, unknown>>(sql: string, params?: Record<string, unknown>): Promise<T[]>;
  /**
   * Runs a statement that returns no rows (DDL, OPTIMIZE, INSERT ... SELECT): NOT for tenant data.
   * For migrations and the store's own bookkeeping; the files that may call it are listed in
   * test/architecture/scoped-query.test.ts.
   */
  command(statement: {
    query: string;
    query_params?: Record<string, unknown>;
    clickhouse_settings?: Record<string, string | number>;
  }): Promise<void>;
  /** Inserts rows (objects with the same keys) in one block. */
  insert(table: string, values: readonly object[]): Promise<void>;
  /** Inserts JSONCompactEachRow lines (UTF-8 or text) filling these columns, in one block. */
  insertLines(table: string, columns: readonly string[], body: string | Uint8Array): Promise<void>;
  /** Inserts RowBinary rows (row-binary.ts) of these columns, in this order, in one block. */
  insertRowBinary(table: string, columns: readonly BinaryColumn[], body: Uint8Array): Promise<void>;
  /**
   * A JSONEachRow file of rows of `structure` (ClickHouse column types), written as Parquet by the
   * engine itself and streamed, so neither side holds the whole file (exports, stores/parquet.ts).
   */
  parquet(structure: string, jsonl: string): Promise<Readable>;
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
  /**
   * Reads running at once (default 2 embedded, 8 on a server); the rest wait in turns per organization
   * (0: no line).
   */
  readSlots?: number;
  /** How long one tenant read may run (ms) before ClickHouse stops it. */
  queryBudgetMs?: number;
}

/** ClickHouse's TIMEOUT_EXCEEDED: a read ran past max_execution_time. */
const TIMEOUT_EXCEEDED = /TIMEOUT_EXCEEDED|Timeout exceeded: elapsed/;

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

export async function openClickHouse(opts: ClickHouseOptions): Promise<ClickHouse> {
  const slots = opts.readSlots ?? (opts.url ? DEFAULT_READ_SLOTS.server : DEFAULT_READ_SLOTS.embedded);
  const engine: Engine = opts.url
    ? await openServer({ ...opts, url: opts.url })
    : await openEmbedded({ dataDir: opts.dataDir, readSlots: slots });
  const { client } = engine;
  /** Runs an insert; the engine's error comes out without the rows it quotes (insert-error.ts). */
  const inserting = async (table: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (err) {
      throw insertFailure(table, err);
    }
  };
  const insertLines = (table: string, columns: readonly string[], body: string | Uint8Array) =>
    inserting(table, () => writeLines(table, columns, body));
  const insertRowBinary = (table: string, columns: readonly BinaryColumn[], body: Uint8Array) =>
    inserting(table, () => writeRowBinary(table, columns, body));
  const writeLines = async (table: string, columns: readonly string[], body: string | Uint8Array) => {
    if (body.length === 0) return;
    await engine.insertLines(table, columns, body);
  };
  const writeRowBinary = async (table: string, columns: readonly BinaryColumn[], body: Uint8Array) => {
    if (body.length === 0) return;
    await engine.insertRowBinary(table, columns, body);
  };
  /** Runs a query; its rows are parsed by `.json()` on the result, apart from the engine's work. */
  const select = async <T>(sql: string, params?: Readonly<Record<string, unknown>>) =>
    parsedRows<T>(
      await client.query({
        query: sql,
        query_params: params as Record<string, unknown> | undefined,
        format: 'JSONEachRow',
      }),
    );
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
          engine.startRead(
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
          503,
          `The analytics store stopped this request's query after its ${budgetS} s budget: narrow the date ` +
            `range or filters`,
        );
      }
      throw err;
    }
  }
  const store: ClickHouse = {
    embedded: engine.embedded,
    cluster: opts.cluster,
    rows: <T>(query: ScopedQuery) => read<T>(query, 'service', false),
    rowLines: (query) => read(query, 'service', false, undefined, true),
    // A view of the same engine and line: the service's writes and the caller's reads share both.
    // Spread when asked, so it carries whatever the store's calls are then (observed, in a server).
    forCaller: (lane, gone) => ({
      ...store,
      caller: { lane, gone },
      rows: <T>(query: ScopedQuery) => read<T>(query, lane, true, gone),
      rowLines: (query) => read(query, lane, true, gone, true),
    }),
    system: select,
    command: async (statement) => {
      await client.command(statement);
    },
    async insert(table, values) {
      if (values.length === 0) return;
      const { columns, body } = compactRows(values);
      await insertLines(table, columns, body);
    },
    insertLines,
    insertRowBinary,
    parquet: (structure, jsonl) => engine.parquet(structure, jsonl),
    close: () => engine.close(),
  };
  ENGINES.set(store, engine);
  return store;
}

// The engine behind each store, reachable from this file and from engineClientsForTests only: the
// raw clients would run any query, outside every scope.
const ENGINES = new WeakMap<ClickHouse, Engine>();

/**
 * The raw clients of a store's engine, for tests that break them on purpose (a ClickHouse outage).
 * Nothing under src/ or jobs/ may call it (test/architecture/scoped-query.test.ts).
 */
export function engineClientsForTests(ch: ClickHouse): ClickHouseClient[] {
  const engine = ENGINES.get(ch);
  if (!engine) throw new Error('not a store opened by openClickHouse');
  return [engine.client, ...engine.readClients];
}
