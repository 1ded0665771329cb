// visibility-trend: one bucket per UTC day (or ISO week, dated by its Monday) with at least one
// answer. The daily score damps the position factor by m/(m+20), m = the day's naming answers.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { entitySource } from './entity-source.ts';
import { sumsSql, toSums } from './entity-sums.ts';
import { meanScore, round, roundOrNull, visibilityScore } from './formulas.ts';
import { select } from '../stores/scoped-query.ts';

export async function visibilityTrend(ch: ClickHouse, f: Filters, granularity: 'day' | 'week') {
  const src = entitySource(f, ['is_brand']);
  const bucket = granularity === 'week' ? 'toMonday(day)' : 'day';
  const rows = await ch.rows<Record<string, unknown> & { bucket: string }>(
    select(src, {
      select: `${bucket} AS bucket, ${sumsSql(src, 'b_', 'is_brand = 1')}, ${sumsSql(src, 'c_', 'is_brand = 0')}`,
      groupBy: 'bucket',
      having: 'b_rows > 0',
      orderBy: 'bucket',
    }),
  );
  return {
    granularity,
    buckets: rows.map((r) => {
      const brand = toSums(r, 'b_');
      const comp = toSums(r, 'c_');
      return {
        date: r.bucket,
        result_count: brand.rows,
        avg_visibility_score: round(meanScore(brand, brand.rows)!, 0),
        ai_visibility_score:
          granularity === 'day' ? roundOrNull(visibilityScore(brand, brand.rows, { damped: true }), 1) : null,
        total_mentions: brand.mentions,
        total_citations: brand.citations,
        // Mean over (answer, competitor) pairs where the competitor is named or cited.
        avg_competitor_score: comp.rows > 0 ? round(meanScore(comp, comp.rows)!, 0) : null,
      };
    }),
  };
}
