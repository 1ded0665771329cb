// Where prompt performance reads its sums: a query that groups by prompt and never by day reads
// the whole months of its range from prompt_monthly (clickhouse/018) and its other days from
// prompt_daily. Both hold the signed sums of answer_entities, so the figures are those of the
// daily rollup alone; a year is 12 monthly rows per prompt instead of 365.
import type { Filters } from './filters.ts';
import type { EntitySource } from './entity-source.ts';
import { wholeMonths } from './citation-source.ts';
import { select, unionAll, type ScopedQuery } from '../stores/scoped-query.ts';

const SUMS = 'row_count, named_count, cited_count, mention_sum, citation_sum, inv_position_sum';
const COLUMNS = `prompt_id, is_brand, ${SUMS}`;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The prompt sums of `src` (entitySource's choice for a query by prompt and brand or competitor)
 * with its whole months read from prompt_monthly; `src` itself when it reads another table or the
 * range holds no whole month. The result has prompt_id, is_brand and the rollup's sum columns, so
 * `src.m()` names them in it.
 */
export function promptSums(f: Filters, src: EntitySource): EntitySource | ScopedQuery {
  const months = src.table === 'prompt_daily' ? wholeMonths(f) : undefined;
  if (!months) return src;
  const parts = [
    select(
      {
        table: 'prompt_monthly',
        scope: {
          ...f,
          from: months.from ? new Date(`${months.from}T00:00:00.000Z`) : undefined,
          to: months.end ? new Date(`${months.end}T23:59:59.999Z`) : undefined,
        },
      },
      { select: COLUMNS },
    ),
  ];
  // The days outside the whole months (none when the range is exactly those months).
  const outside: string[] = [];
  const params: Record<string, unknown> = {};
  if (f.from && dayOf(f.from) !== months.from) {
    outside.push('day < {monthFrom:Date}');
    params.monthFrom = months.from;
  }
  if (f.to && dayOf(f.to) !== months.end) {
    outside.push('day > {monthEnd:Date}');
    params.monthEnd = months.end;
  }
  if (outside.length) {
    parts.push(select({ table: 'prompt_daily', scope: f }, { select: COLUMNS, where: outside.join(' OR '), params }));
  }
  return unionAll(parts);
}
