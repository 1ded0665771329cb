// What the store (clickhouse.ts) needs of a ClickHouse engine, which is either a server
// (clickhouse-server.ts, CLICKHOUSE_URL) or chDB in this process (clickhouse-embedded.ts): where
// writes and bookkeeping go, how a batch of rows goes in, and how a tenant read starts. Everything
// the two share (the read line, the time budget, the scoped reads) is the store's, written once.
import type { Readable } from 'node:stream';
import type { ClickHouseClient, ResultSet } from '@clickhouse/client';
import type { BinaryColumn } from './row-binary.ts';

// Counts come back as JSON numbers (they stay far below 2^53); timestamps as ISO strings.
export const CLICKHOUSE_SETTINGS = {
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
export const INSERT_SETTINGS = {
  parallel_view_processing: 1,
  optimize_on_insert: 0,
  input_format_parallel_parsing: 0,
} as const;

// Parquet as the engine writes it (stores/parquet.ts): Snappy, which every reader decodes (DuckDB,
// pyarrow, JavaScript readers that have no ZSTD); row groups of 10,000 rows, so the writer holds
// one group at a time, not the default million; strings as UTF-8 strings, not bare bytes. One
// thread reading one file in order keeps the rows in the order they were written.
export const PARQUET_SETTINGS = {
  output_format_parquet_compression_method: 'snappy',
  output_format_parquet_row_group_size: 10_000,
  output_format_parquet_row_group_size_bytes: 64 * 1024 * 1024,
  output_format_parquet_string_as_string: 1,
  max_threads: 1,
  input_format_parallel_parsing: 0,
} as const;

/** Settings as a SETTINGS clause's text. */
export const settingsClause = (settings: Readonly<Record<string, string | number>>) =>
  Object.entries(settings)
    .map(([k, v]) => `${k} = ${typeof v === 'string' ? sqlString(v) : v}`)
    .join(', ');

/** A tenant read, started: its rows as the engine's JSONEachRow bytes, or as a result set to parse. */
export type StartedRead = { bytes: Readable } | { rows: ResultSet<'JSONEachRow'> };

export interface Engine {
  readonly embedded: boolean;
  /** Where writes, migrations and the store's own reads go. */
  readonly client: ClickHouseClient;
  /** The clients tenant reads run on. */
  readonly readClients: readonly ClickHouseClient[];
  /** Inserts JSONCompactEachRow lines (non-empty) filling these columns, in one block. */
  insertLines(table: string, columns: readonly string[], body: string | Uint8Array): Promise<void>;
  /** Inserts RowBinary rows (non-empty) of these columns, in this order, in one block. */
  insertRowBinary(table: string, columns: readonly BinaryColumn[], body: Uint8Array): Promise<void>;
  /** Starts a tenant read (`{name:Type}` placeholders, their values in `params`); `lines`: as bytes. */
  startRead(sql: string, params: Readonly<Record<string, unknown>>, lines: boolean): Promise<StartedRead>;
  /**
   * The JSONEachRow file `jsonl` (rows of `structure`, in their order) written as Parquet by the
   * engine: its bytes as a stream, read from a file or a response, never held whole.
   */
  parquet(structure: string, jsonl: string): Promise<Readable>;
  close(): Promise<void>;
}

/** Starts a read on a client: exec for the engine's bytes, query for a result set. */
export const startOn = (
  client: ClickHouseClient,
  sql: string,
  params: Record<string, unknown> | undefined,
  lines: boolean,
): Promise<StartedRead> =>
  lines
    ? client.exec({ query: `${sql} FORMAT JSONEachRow`, query_params: params }).then((r) => ({ bytes: r.stream }))
    : client.query({ query: sql, query_params: params, format: 'JSONEachRow' }).then((r) => ({ rows: r }));

/** A ClickHouse string literal. */
export const sqlString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
