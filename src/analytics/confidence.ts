// visibility-confidence: how sure the visibility figures are (docs/api.md section 12). The values
// are the summary's own (entitySums, the same read and formulas); Wilson intervals for the mention
// and citation rates; a seeded bootstrap over answers, from per-answer rows, for the AI visibility
// score of every entity and the brand's share of voice; and the answers per capture slot.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { entitySums } from './entity-sums.ts';
import { emptySums, round, roundOrNull, shareOfVoice, visibilityScore, type EntitySums } from './formulas.ts';
import { bootstrap, wilson, type Estimate, type Statistic } from './intervals.ts';
import { select } from '../stores/scoped-query.ts';
import { humanOrder } from '../text-order.ts';

interface AnswerRow {
  answer_id: string;
  entity_id: string;
  is_brand: number;
  named: number;
  cited: number;
  mention_sum: number;
  inv_position: number;
}

/**
 * One row per (answer, entity) of the answers in range: only the columns the figures need, summed
 * with `sign` so a re-imported answer counts once (a cancelled row sums to nothing and is dropped).
 */
function answerRows(ch: ClickHouse, f: Filters) {
  return ch.rows<AnswerRow>(
    select(
      { table: 'answer_entities', scope: f },
      {
        select: `answer_id, entity_id, is_brand,
          sum(sign * (mentions > 0)) AS named, sum(sign * (citations > 0)) AS cited,
          sum(sign * mentions) AS mention_sum, sum(if(position > 0, sign / position, 0)) AS inv_position`,
        groupBy: 'answer_id, entity_id, is_brand',
        having: 'sum(sign) > 0',
      },
    ),
  );
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

/** Growable per-entity columns of the answers where the entity is named or cited. */
class Sparse {
  answers: number[] = [];
  named: number[] = [];
  cited: number[] = [];
  inv: number[] = [];
  add(answer: number, r: AnswerRow) {
    if (!Number(r.named) && !Number(r.cited)) return;
    this.answers.push(answer);
    this.named.push(Number(r.named));
    this.cited.push(Number(r.cited));
    this.inv.push(Number(r.inv_position));
  }
  /** The AI visibility score, recomputed from a resample's sums exactly as formulas.ts defines it. */
  score(): Statistic {
    return {
      answers: Int32Array.from(this.answers),
      columns: [Float64Array.from(this.named), Float64Array.from(this.cited), Float64Array.from(this.inv)],
      figure: (s, n) => visibilityScore({ named: s[0], cited: s[1], invPosition: s[2], mentions: 0, citations: 0 }, n),
    };
  }
}

/**
 * Per answer: each entity's columns, and the brand's and the tracked competitors' mentions (share
 * of voice). Answers are numbered by the brand's row, which every analysed answer has.
 */
function perAnswer(rows: AnswerRow[], tracked: Set<string>) {
  const index = new Map<string, number>();
  for (const r of rows) if (Number(r.is_brand) === 1) index.set(r.answer_id, index.size);
  const entities = new Map<string, Sparse>();
  const brandMentions = new Float64Array(index.size);
  const competitorMentions = new Float64Array(index.size);
  for (const r of rows) {
    const i = index.get(r.answer_id);
    const brand = Number(r.is_brand) === 1;
    if (i === undefined || (!brand && !tracked.has(r.entity_id))) continue;
    const key = brand ? 'brand' : r.entity_id;
    if (!entities.has(key)) entities.set(key, new Sparse());
    entities.get(key)!.add(i, r);
    (brand ? brandMentions : competitorMentions)[i] += Number(r.mention_sum);
  }
  const voiced: number[] = [];
  for (let i = 0; i < index.size; i++) if (brandMentions[i] || competitorMentions[i]) voiced.push(i);
  const voice: Statistic = {
    answers: Int32Array.from(voiced),
    columns: [
      Float64Array.from(voiced, (i) => brandMentions[i]),
      Float64Array.from(voiced, (i) => competitorMentions[i]),
    ],
    // Rounded per resample: rounding is monotone, so the percentiles are those of the unrounded values, rounded.
    figure: (s) => shareOfVoice(s[0], s[1]),
  };
  return { n: index.size, entities, voice };
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
  const tracked = new Set(competitors.map((c) => c.id));
  const [sums, rows, slots] = await Promise.all([entitySums(ch, f), answerRows(ch, f), slotCount(ch, f)]);
  const { n } = sums;
  const answers = perAnswer(rows, tracked);
  const ordered = competitors
    .map((c) => ({ ...c, sums: sums.competitors.get(c.id) ?? emptySums() }))
    .sort((a, b) => b.sums.mentions - a.sums.mentions || humanOrder(a.name, b.name));
  const sparse = (key: string) => (answers.entities.get(key) ?? new Sparse()).score();
  // One bootstrap for all figures: every figure is recomputed over the same resamples of answers.
  const [brandCi, voiceCi, ...competitorCi] = bootstrap(
    answers.n,
    [sparse('brand'), answers.voice, ...ordered.map((c) => sparse(c.id))],
    opts,
  );
  const estimate = (value: number | null, ci95: [number, number] | null): Estimate => ({
    value: n > 0 ? value : null,
    ci95: n > 0 ? ci95 : null,
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
