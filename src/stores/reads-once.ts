// A view of the ClickHouse store for one job's unit of work (a brand's digest, a brand's alert
// evaluation) in which each distinct scoped read runs once: the analytics functions it calls each
// read their own raw material (the visibility summary, the competitor comparison and the confidence
// figures all start from the same per-entity sums), and here those identical reads share one answer.
// Only for short-lived work over data that does not change meanwhile; callers must not mutate rows.
import type { ClickHouse } from './clickhouse.ts';
import type { ScopedQuery } from './scoped-query.ts';

export function readsOnce(ch: ClickHouse): ClickHouse {
  const reads = new Map<string, Promise<unknown[]>>();
  return {
    ...ch,
    rows: <T>(query: ScopedQuery): Promise<T[]> => {
      const key = `${query.sql}\n${JSON.stringify(query.params)}`;
      if (!reads.has(key)) reads.set(key, ch.rows<T>(query));
      return reads.get(key) as Promise<T[]>;
    },
  };
}
