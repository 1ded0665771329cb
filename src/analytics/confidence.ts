// visibility-confidence: how sure the visibility figures are (CONTRACT.md section 12). The values
// are the summary's own (entitySums, the same read and formulas); Wilson intervals for the mention
// and citation rates; a seeded bootstrap over answers for the AI visibility score of every entity
// and the brand's share of voice, from the answers ClickHouse groups into patterns and resampled on
// a worker thread (resample.ts, resample-pool.ts); and the answers per capture slot.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { entitySums } from './entity-sums.ts';
import { emptySums, round, roundOrNull, shareOfVoice, visibilityScore, type EntitySums } from './formulas.ts';
import { percent, wilson, type Estimate } from './intervals.ts';
import type { Patterns } from './resample.ts';
import { intervalsFor } from './resample-pool.ts';
import { readTogether } from './read-together.ts';
import { select } from '../stores/scoped-query.ts';
import { humanOrder } from '../text-order.ts';

/**
 * The patterns of the bootstrap (resample.ts), in one query: for each entity, its answers grouped by
 * (named, cited, 1/position); and the answers grouped by (brand mentions, tracked competitors'
 * mentions) for share of voice. Each (answer, entity) is first summed with `sign`, so a re-imported
 * answer counts once (a cancelled row sums to nothing and is dropped).
 */
async function patternRows(ch: ClickHouse, f: Filters, tracked: string[]) {
  const pairs = select(
    { table: 'answer_entities', scope: f },
    {
      select: `answer_id, entity_id, is_brand, sum(sign * (mentions > 0)) AS named, sum(sign * (citations > 0)) AS cited,
        sum(if(position > 0, sign / position, 0)) AS inv`,
      groupBy: 'answer_id, entity_id, is_brand',
      having: 'sum(sign) > 0',
    },
  );
  const answers = select(
    { table: 'answer_entities', scope: f },
    {
      select: `answer_id, sumIf(sign * mentions, is_brand = 1) AS brand_mentions,
        sumIf(sign * mentions, is_brand = 0 AND entity_id IN {tracked:Array(UUID)}) AS competitor_mentions`,
      groupBy: 'answer_id',
      having: 'sumIf(sign, is_brand = 1) > 0',
      params: { tracked },
    },
  );
  const read = await readTogether(ch, {
    scores: {
      query: select(pairs, {
        select: 'toString(entity_id) AS entity, is_brand, named, cited, inv, count() AS answers',
        groupBy: 'entity_id, is_brand, named, cited, inv',
      }),
      columns: ['entity', 'is_brand', 'named', 'cited', 'inv', 'answers'],
    },
    voice: {
      query: select(answers, {
        select: 'brand_mentions, competitor_mentions, count() AS answers',
        groupBy: 'brand_mentions, competitor_mentions',
      }),
      columns: ['brand_mentions', 'competitor_mentions', 'answers'],
    },
  });
  return read as {
    scores: { entity: string; is_brand: number; named: number; cited: number; inv: number; answers: number }[];
    voice: { brand_mentions: number; competitor_mentions: number; answers: number }[];
  };
}

/** Pattern rows as resample.ts takes them: the answers of each row, and one column per field. */
export function patterns<R extends { answers: number }>(
  figure: Patterns['figure'],
  rows: R[],
  fields: (keyof R)[],
): Patterns {
  return {
    figure,
    counts: Float64Array.from(rows, (r) => Number(r.answers)),
    columns: fields.map((k) => Float64Array.from(rows, (r) => Number(r[k]))),
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
    const missing = n - own.reduce((acc, r) => acc + Number(r.answers), 0);
    if (missing > 0) own.push({ entity: id ?? '', is_brand: 0, named: 0, cited: 0, inv: 0, answers: missing });
    return { of: patterns('score', own, ['named', 'cited', 'inv']) };
  };
  const [brandCi, voiceCi, ...competitorCi] = await intervalsFor(
    ch,
    [
      score(true),
      { of: patterns('voice', rows.voice, ['brand_mentions', 'competitor_mentions']) },
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
