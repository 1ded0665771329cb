// The answers of a range as the bootstrap's patterns (resample.ts): the distinct tuples of the
// numbers a figure depends on, with the answers holding each, counted by ClickHouse. Shared by
// visibility-confidence and visibility-change.
import type { Filters } from './filters.ts';
import type { Patterns } from './resample.ts';
import { select } from '../stores/scoped-query.ts';

/**
 * Answers by (brand mentions, competitor mentions), among those mentioning anyone; `tracked`: the
 * competitors counted (all when absent); `by`: a grouping column before the mentions (a period).
 */
export function voicePatterns(
  f: Filters,
  tracked?: string[],
  by?: { expression: string; params: Record<string, unknown> },
) {
  const competitor = tracked ? 'is_brand = 0 AND entity_id IN {tracked:Array(UUID)}' : 'is_brand = 0';
  const perAnswer = select(
    { table: 'answer_entities', scope: f },
    {
      select:
        `answer_id, ${by ? `${by.expression} AS period, ` : ''}sumIf(sign * mentions, is_brand = 1) AS ` +
        `brand_mentions,
        sumIf(sign * mentions, ${competitor}) AS competitor_mentions`,
      where: 'mentions > 0',
      groupBy: by ? 'answer_id, period' : 'answer_id',
      having: 'brand_mentions != 0 OR competitor_mentions != 0',
      params: { ...(tracked ? { tracked } : {}), ...by?.params },
    },
  );
  const keys = `${by ? 'period, ' : ''}brand_mentions, competitor_mentions`;
  return select(perAnswer, { select: `${keys}, count() AS answers`, groupBy: keys });
}

/** Pattern rows of n answers: rows' answers short of n are added as one pattern of zeros. */
export function answerPatterns<R extends { answers: number }>(
  figure: Patterns['figure'],
  rows: R[],
  fields: (keyof R)[],
  n: number,
): Patterns {
  const counts = rows.map((r) => Number(r.answers));
  const columns = fields.map((k) => rows.map((r) => Number(r[k])));
  const rest = n - counts.reduce((a, b) => a + b, 0);
  if (rest > 0) {
    counts.push(rest);
    for (const c of columns) c.push(0);
  }
  return { figure, counts: Float64Array.from(counts), columns: columns.map((c) => Float64Array.from(c)) };
}
