// Per-entity sums over the answers in range, the raw material of the visibility, competitor, trend
// and prompt figures (read from the rollup or the raw rows, see entity-source.ts).
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import type { EntitySums } from './formulas.ts';
import { entitySource, type EntitySource } from './entity-source.ts';
import { select } from '../stores/scoped-query.ts';

/**
 * Select list of the EntitySums columns plus `rows` (answers for the brand, pairs for a
 * competitor), restricted by `condition` when given. Aliases never reuse a column name:
 * ClickHouse would read the alias inside the aggregate.
 */
export function sumsSql(src: EntitySource, prefix = '', condition?: string): string {
  return [
    `${src.m('rows', condition)} AS ${prefix}rows`,
    `${src.m('named', condition)} AS ${prefix}named`,
    `${src.m('cited', condition)} AS ${prefix}cited`,
    `${src.m('mentions', condition)} AS ${prefix}mention_sum`,
    `${src.m('citations', condition)} AS ${prefix}citation_sum`,
    `${src.m('inv_position', condition)} AS ${prefix}inv_position`,
  ].join(',\n  ');
}

/** Reads the columns sumsSql wrote (with the same prefix) into EntitySums. */
export function toSums(r: object | undefined, prefix = ''): EntitySums & { rows: number } {
  const n = (k: string) => Number((r as Record<string, unknown> | undefined)?.[`${prefix}${k}`] ?? 0);
  return {
    rows: n('rows'),
    named: n('named'),
    cited: n('cited'),
    mentions: n('mention_sum'),
    citations: n('citation_sum'),
    invPosition: n('inv_position'),
  };
}

/** Sums per entity over the filtered answers; the brand's row count is the answer count n. */
export async function entitySums(
  ch: ClickHouse,
  f: Filters,
): Promise<{ n: number; brand: EntitySums; competitors: Map<string, EntitySums & { rows: number }> }> {
  const src = entitySource(f, ['entity_id', 'is_brand']);
  const rows = await ch.rows<Record<string, unknown> & { entity_id: string; is_brand: number }>(
    select(src, { select: `entity_id, is_brand, ${sumsSql(src)}`, groupBy: 'entity_id, is_brand' }),
  );
  const brand = toSums(rows.find((r) => Number(r.is_brand) === 1));
  const competitors = new Map<string, EntitySums & { rows: number }>();
  for (const r of rows) {
    const s = toSums(r);
    if (Number(r.is_brand) === 0 && s.rows > 0) competitors.set(r.entity_id, s);
  }
  return { n: brand.rows, brand, competitors };
}
