// Per-entity sums over answer_entities, the raw material of the visibility, competitor, trend and
// prompt figures. Rows are sign-weighted (a replaced answer's cancel rows subtract it again).
import type { ClickHouse } from '../stores/clickhouse.ts';
import { where, type Filters } from './filters.ts';
import type { EntitySums } from './formulas.ts';

/** Aliases never reuse a column name: ClickHouse would read the alias inside the aggregate. */
/** Select list producing EntitySums columns plus `rows` (answers for the brand, pairs for a competitor). */
export const SUMS_SQL = `sum(sign) AS rows,
  sumIf(sign, mentions > 0) AS named,
  sumIf(sign, citations > 0) AS cited,
  sum(mentions * sign) AS mention_sum,
  sum(citations * sign) AS citation_sum,
  sumIf(sign / position, position > 0) AS inv_position`;

export interface SumsRow { rows: number; named: number; cited: number; mention_sum: number; citation_sum: number; inv_position: number }

export const toSums = (r: SumsRow | undefined): EntitySums => ({
  named: Number(r?.named ?? 0),
  cited: Number(r?.cited ?? 0),
  mentions: Number(r?.mention_sum ?? 0),
  citations: Number(r?.citation_sum ?? 0),
  invPosition: Number(r?.inv_position ?? 0),
});

/** Sums per entity over the filtered answers; the brand's row count is the answer count n. */
export async function entitySums(ch: ClickHouse, f: Filters): Promise<{ n: number; brand: EntitySums; competitors: Map<string, EntitySums & { rows: number }> }> {
  const w = where(f);
  const rows = await ch.rows<SumsRow & { entity_id: string; is_brand: number }>(
    `SELECT entity_id, is_brand, ${SUMS_SQL} FROM answer_entities WHERE ${w.sql} GROUP BY entity_id, is_brand`,
    w.params,
  );
  const brandRow = rows.find((r) => r.is_brand === 1);
  const competitors = new Map<string, EntitySums & { rows: number }>();
  for (const r of rows) if (r.is_brand === 0 && Number(r.rows) > 0) competitors.set(r.entity_id, { ...toSums(r), rows: Number(r.rows) });
  return { n: Number(brandRow?.rows ?? 0), brand: toSums(brandRow), competitors };
}
