// visibility-trend: one bucket per UTC day (or ISO week, dated by its Monday) with at least one
// answer. The daily score damps the position factor by m/(m+20), m = the day's naming answers.
import type { ClickHouse } from '../stores/clickhouse.ts';
import { where, type Filters } from './filters.ts';
import { meanScore, round, roundOrNull, visibilityScore } from './formulas.ts';

export async function visibilityTrend(ch: ClickHouse, f: Filters, granularity: 'day' | 'week') {
  const w = where(f);
  const bucket = granularity === 'week' ? 'toMonday(day)' : 'day';
  const rows = await ch.rows<Record<string, number> & { bucket: string }>(
    `SELECT ${bucket} AS bucket,
       sumIf(sign, is_brand = 1) AS n,
       sumIf(sign, is_brand = 1 AND mentions > 0) AS named,
       sumIf(sign, is_brand = 1 AND citations > 0) AS cited,
       sumIf(mentions * sign, is_brand = 1) AS mention_sum,
       sumIf(citations * sign, is_brand = 1) AS citation_sum,
       sumIf(sign / position, is_brand = 1 AND position > 0) AS inv_position,
       sumIf(sign, is_brand = 0) AS c_pairs,
       sumIf(sign, is_brand = 0 AND mentions > 0) AS c_named,
       sumIf(sign, is_brand = 0 AND citations > 0) AS c_cited,
       sumIf(sign / position, is_brand = 0 AND position > 0) AS c_inv_position
     FROM answer_entities WHERE ${w.sql}
     GROUP BY bucket HAVING n > 0 ORDER BY bucket`,
    w.params,
  );
  return {
    granularity,
    buckets: rows.map((r) => {
      const brand = { named: r.named, cited: r.cited, mentions: r.mention_sum, citations: r.citation_sum, invPosition: r.inv_position };
      const comp = { named: r.c_named, cited: r.c_cited, mentions: 0, citations: 0, invPosition: r.c_inv_position };
      return {
        date: r.bucket,
        result_count: r.n,
        avg_visibility_score: round(meanScore(brand, r.n)!, 0),
        ai_visibility_score: granularity === 'day' ? roundOrNull(visibilityScore(brand, r.n, { damped: true }), 1) : null,
        total_mentions: r.mention_sum,
        total_citations: r.citation_sum,
        // Mean over (answer, competitor) pairs where the competitor is named or cited.
        avg_competitor_score: r.c_pairs > 0 ? round(meanScore(comp, r.c_pairs)!, 0) : null,
      };
    }),
  };
}
