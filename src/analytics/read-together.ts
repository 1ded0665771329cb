// Several independent reads of one figure sent as one query. On the embedded engine (chDB) one
// organization's reads run one query at a time (it holds one read connection: stores/clickhouse.ts),
// so reads sent side by side wait for each other, each paying a query's fixed cost; the branches of
// one UNION ALL run in one pipeline, side by side on the engine's threads.
// Measured on the citations figure of bench/analytics.ts (a year of 1.27 M answers): its first
// three reads took 48 ms as one query against 60 ms one after the other (docs/performance.md).
//
// The branches' rows differ in shape, so each becomes its kind and a JSON array of its columns
// (toJSONString of a tuple, written with the client's own output settings: 64-bit integers as
// numbers, dates as ISO text); a column that may exceed 2^53 must be text already.
import type { ClickHouse } from '../stores/clickhouse.ts';
import { select, unionAll, type ScopedQuery } from '../stores/scoped-query.ts';

export interface Read {
  query: ScopedQuery;
  /** The query's output columns to keep, in the order they are read back. */
  columns: readonly string[];
}

/** Runs the reads as one query; each read's rows come back under its name, as objects. */
export async function readTogether<K extends string>(
  ch: ClickHouse,
  reads: Record<K, Read | null>,
): Promise<Record<K, Record<string, unknown>[]>> {
  const names = (Object.keys(reads) as K[]).filter((k) => reads[k] !== null);
  const out = Object.fromEntries((Object.keys(reads) as K[]).map((k) => [k, []])) as unknown as Record<
    K,
    Record<string, unknown>[]
  >;
  if (!names.length) return out;
  // Kinds are numbered, so a name is never spliced into the SQL.
  const branches = names.map((k, i) =>
    select(reads[k]!.query, { select: `${i} AS kind, toJSONString(tuple(${reads[k]!.columns.join(', ')})) AS row` }),
  );
  for (const { kind, row } of await ch.rows<{ kind: number; row: string }>(unionAll(branches))) {
    const name = names[kind];
    const values = JSON.parse(row) as unknown[];
    out[name].push(Object.fromEntries(reads[name]!.columns.map((c, i) => [c, values[i]])));
  }
  return out;
}
