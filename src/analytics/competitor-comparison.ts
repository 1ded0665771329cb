// competitor-comparison: the brand and each tracked competitor on the same five figures over the
// same answers, and share of voice overall and by (model_used, platform).
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { entitySums } from './entity-sums.ts';
import { entitySource } from './entity-source.ts';
import {
  emptySums,
  meanScore,
  round,
  roundOrNull,
  shareOfVoice,
  visibilityScore,
  type EntitySums,
} from './formulas.ts';
import { select } from '../stores/scoped-query.ts';
import { humanOrder } from '../text-order.ts';

const figures = (s: EntitySums, n: number) => ({
  avg_visibility_score: roundOrNull(meanScore(s, n), 1),
  ai_visibility_score: roundOrNull(visibilityScore(s, n), 1),
  total_mentions: s.mentions,
  total_citations: s.citations,
  appearance_count: s.named,
});

export async function competitorComparison(
  ch: ClickHouse,
  f: Filters,
  brand: { id: string; name: string },
  competitors: { id: string; name: string }[],
) {
  const src = entitySource(f, ['model', 'platform', 'is_brand']);
  const bySrc = entitySource(f, ['platform', 'entity_id', 'is_brand']);
  const [sums, voice, platformRows] = await Promise.all([
    entitySums(ch, f),
    ch.rows<{ model: string; platform: string; brand_mentions: number; competitor_mentions: number }>(
      select(src, {
        select: `model, platform,
         ${src.m('mentions', 'is_brand = 1')} AS brand_mentions,
         ${src.m('mentions', 'is_brand = 0')} AS competitor_mentions`,
        groupBy: 'model, platform',
        having: `${src.m('rows', 'is_brand = 1')} > 0`,
        orderBy: 'platform, model',
      }),
    ),
    // Per platform and entity: the answers naming it, and (the brand's rows) the platform's answers.
    ch.rows<{ platform: string; eid: string; is_brand: number; rows: number; named: number }>(
      select(bySrc, {
        select: `platform, toString(entity_id) AS eid, is_brand, ${bySrc.m('rows')} AS rows,
          ${bySrc.m('named')} AS named`,
        groupBy: 'platform, eid, is_brand',
      }),
    ),
  ]);
  const { n } = sums;
  const rows = competitors
    .map((c) => ({ competitor_id: c.id, name: c.name, ...figures(sums.competitors.get(c.id) ?? emptySums(), n) }))
    .sort((a, b) => b.total_mentions - a.total_mentions || humanOrder(a.name, b.name));
  const totalBrand = sums.brand.mentions;
  const totalCompetitors = rows.reduce((acc, r) => acc + r.total_mentions, 0);
  // by_platform sums every stored competitor row; they are all of tracked competitors (nothing
  // deletes a competitor but its brand), so its figures add up to the overall ones.
  const platforms = [...new Set(platformRows.map((r) => r.platform))].sort().flatMap((platform) => {
    const rows = platformRows.filter((r) => r.platform === platform);
    const answers = rows.filter((r) => Number(r.is_brand) === 1).reduce((acc, r) => acc + Number(r.rows), 0);
    if (answers <= 0) return [];
    const named = (id: string) => Number(rows.find((r) => r.eid === id)?.named ?? 0);
    const rate = (id: string) => round((100 * Math.max(0, named(id))) / answers, 1);
    return [
      {
        platform,
        answers,
        mention_rates: Object.fromEntries([brand.id, ...competitors.map((c) => c.id)].map((id) => [id, rate(id)])),
      },
    ];
  });
  return {
    brand: { id: brand.id, name: brand.name, ...figures(sums.brand, n) },
    platforms,
    competitors: rows,
    share_of_voice: {
      overall_sov_pct: shareOfVoice(totalBrand, totalCompetitors),
      total_brand_mentions: totalBrand,
      total_competitor_mentions: totalCompetitors,
      by_platform: voice.map((v) => ({
        model_used: v.model,
        platform: v.platform,
        brand_mentions: v.brand_mentions,
        competitor_mentions: v.competitor_mentions,
        sov_pct: shareOfVoice(v.brand_mentions, v.competitor_mentions),
      })),
    },
  };
}
