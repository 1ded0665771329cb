// visibility-summary: the brand's totals and score components, and its top five competitors by
// mentions over the same answers (docs/api.md section 3).
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { entitySums } from './entity-sums.ts';
import { meanScore, positionFactor, roundOrNull, visibilityScore } from './formulas.ts';
import { humanOrder } from '../text-order.ts';

export async function visibilitySummary(
  ch: ClickHouse,
  f: Filters,
  brand: { id: string; name: string },
  competitorNames: Map<string, string>,
) {
  const { n, brand: b, competitors } = await entitySums(ch, f);
  const topCompetitors = [...competitors.entries()]
    .filter(([id]) => competitorNames.has(id))
    .map(([id, s]) => ({
      name: competitorNames.get(id)!,
      mentions: s.mentions,
      avgVisibility: roundOrNull(meanScore(s, n), 1),
      score: roundOrNull(visibilityScore(s, n), 1),
    }))
    .sort((x, y) => y.mentions - x.mentions || humanOrder(x.name, y.name))
    .slice(0, 5);
  return {
    brand: { id: brand.id, name: brand.name },
    totals: {
      resultCount: n,
      avgVisibility: roundOrNull(meanScore(b, n), 1),
      totalMentions: b.mentions,
      totalCitations: b.citations,
      aiVisibilityScore: roundOrNull(visibilityScore(b, n), 1),
      mentionAnswers: b.named,
      citationAnswers: b.cited,
      positionFactor: roundOrNull(positionFactor(b), 3),
    },
    topCompetitors,
  };
}
