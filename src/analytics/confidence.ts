// visibility-confidence: how sure the visibility figures are (docs/api.md section 12). The values
// are the summary's own (entitySums, the same read and formulas); Wilson intervals for the mention
// and citation rates; a seeded bootstrap over answers for the AI visibility score of every entity
// and the brand's share of voice, from the answers ClickHouse groups into patterns and resampled on
// a worker thread (resample.ts, resample-pool.ts); and the answers per capture slot.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { entitySums } from './entity-sums.ts';
import { emptySums, round, roundOrNull, shareOfVoice, visibilityScore, type EntitySums } from './formulas.ts';
import { percent, wilson, type Estimate } from './intervals.ts';
import { answerPatterns, voicePatterns } from './answer-patterns.ts';
import { intervalsFor } from './resample-pool.ts';
import { readTogether } from './read-together.ts';
import { select } from '../stores/scoped-query.ts';
import { humanOrder } from '../text-order.ts';

/**
 * The patterns of the bootstrap (resample.ts), in one round: each entity's answers by (named, cited,
 * position), and the answers by (brand mentions, tracked competitors' mentions) for share of voice.
 * A pattern's answers are its rows summed by `sign`: a re-imported answer's old row and its cancel
 * row add up to nothing, so no per-answer grouping is needed for an entity's own columns. Share of
 * voice sums over entities per answer, from the rows that mention someone; answers without a
 * mention are the rest of n (answerPatterns adds them).
 */
async function patternRows(ch: ClickHouse, f: Filters, tracked: string[]) {
  const read = await readTogether(ch, {
    scores: {
      query: select(
        { table: 'answer_entities', scope: f },
        {
          select: `toString(entity_id) AS entity, is_brand, mentions > 0 AS named, citations > 0 AS cited,
            if(position > 0, 1 / position, 0) AS inv, sum(sign) AS answers`,
          groupBy: 'entity_id, is_brand, named, cited, position',
          having: 'answers > 0',
        },
      ),
      columns: ['entity', 'is_brand', 'named', 'cited', 'inv', 'answers'],
    },
    voice: { query: voicePatterns(f, tracked), columns: ['brand_mentions', 'competitor_mentions', 'answers'] },
  });
  return read as {
    scores: { entity: string; is_brand: number; named: number; cited: number; inv: number; answers: number }[];
    voice: { brand_mentions: number; competitor_mentions: number; answers: number }[];
  };
}

/** Capture slots (prompt, platform, region, day) holding at least one answer in range. */
async function slotCount(ch: ClickHouse, f: Filters): Promise<number> {
  const slots = select(
    { table: 'answer_entities', scope: f },
    {
      select: 'prompt_id',
      where: 'is_brand = 1',
      groupBy: 'prompt_id, platform, region, day',
      having: 'sum(sign) > 0',
    },
  );
  const [row] = await ch.rows<{ slots: number }>(select(slots, { select: 'count() AS slots' }));
  return Number(row?.slots ?? 0);
}

const rates = (s: EntitySums, n: number) => ({ mention_rate: wilson(s.named, n), citation_rate: wilson(s.cited, n) });

/** The figures and intervals of the brand and each tracked competitor over the answers of `f`. */
export async function visibilityConfidence(
  ch: ClickHouse,
  f: Filters,
  brand: { id: string; name: string },
  competitors: { id: string; name: string }[],
  opts: { seed?: number } = {},
) {
  const tracked = competitors.map((c) => c.id);
  const [sums, rows, slots] = await Promise.all([entitySums(ch, f), patternRows(ch, f, tracked), slotCount(ch, f)]);
  const { n } = sums;
  const ordered = competitors
    .map((c) => ({ ...c, sums: sums.competitors.get(c.id) ?? emptySums() }))
    .sort((a, b) => b.sums.mentions - a.sums.mentions || humanOrder(a.name, b.name));
  // An entity's score patterns; answers without a row of it (none, once analysed) count as not named nor cited.
  const score = (brand: boolean, id?: string) => {
    const own = rows.scores.filter((r) => (brand ? Number(r.is_brand) === 1 : r.entity === id));
    return { of: answerPatterns('score', own, ['named', 'cited', 'inv'], n) };
  };
  const [brandCi, voiceCi, ...competitorCi] = await intervalsFor(
    ch,
    [
      score(true),
      { of: answerPatterns('voice', rows.voice, ['brand_mentions', 'competitor_mentions'], n) },
      ...ordered.map((c) => score(false, c.id)),
    ],
    opts,
  );
  const estimate = (value: number | null, ci95: [number, number] | null): Estimate => ({
    value: n > 0 ? value : null,
    ci95: n > 0 && ci95 ? [percent(ci95[0]), percent(ci95[1])] : null,
  });
  const competitorMentions = ordered.reduce((acc, c) => acc + c.sums.mentions, 0);
  return {
    n,
    samples_per_slot: slots > 0 ? round(n / slots, 2) : null,
    entities: [
      {
        entity_id: brand.id,
        name: brand.name,
        is_brand: true,
        ...rates(sums.brand, n),
        ai_visibility_score: estimate(roundOrNull(visibilityScore(sums.brand, n), 1), brandCi),
        share_of_voice: estimate(shareOfVoice(sums.brand.mentions, competitorMentions), voiceCi),
      },
      ...ordered.map((c, i) => ({
        entity_id: c.id,
        name: c.name,
        is_brand: false,
        ...rates(c.sums, n),
        ai_visibility_score: estimate(roundOrNull(visibilityScore(c.sums, n), 1), competitorCi[i]),
      })),
    ],
  };
}
