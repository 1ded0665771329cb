// Where prompt performance reads its sums: a query that groups by prompt and never by day reads
// the whole months of its range from prompt_monthly (clickhouse/018) and its other days from
// prompt_daily. Both hold the signed sums of answer_entities, so the figures are those of the
// daily rollup alone; a year is 12 monthly rows per prompt instead of 365.
import type { Filters } from './filters.ts';
import type { EntitySource } from './entity-source.ts';
import { edgeDays, spanScope, wholeMonths } from './month-span.ts';
import { select, unionAll, type ScopedQuery } from '../stores/scoped-query.ts';

const SUMS = 'row_count, named_count, cited_count, mention_sum, citation_sum, inv_position_sum';
const COLUMNS = `prompt_id, is_brand, ${SUMS}`;

/**
 * The prompt sums of `src` (entitySource's choice for a query by prompt and brand or competitor)
 * with its whole months read from prompt_monthly; `src` itself when it reads another table or the
 * range holds no whole month. The result has prompt_id, is_brand and the rollup's sum columns, so
 * `src.m()` names them in it.
 */
export function promptSums(f: Filters, src: EntitySource): EntitySource | ScopedQuery {
  const months = src.table === 'prompt_daily' ? wholeMonths(f) : undefined;
  if (!months) return src;
  const parts = [select({ table: 'prompt_monthly', scope: { ...f, ...spanScope(months) } }, { select: COLUMNS })];
  const edges = edgeDays(f, months);
  if (edges) {
    parts.push(
      select({ table: 'prompt_daily', scope: f }, { select: COLUMNS, where: edges.where, params: edges.params }),
    );
  }
  return unionAll(parts);
}
