// visibility-change: six figures of a period against the period before it, with the 95% interval of
// each change and a verdict (docs/api.md section 21; docs/metrics.md "Change you can trust").
// One round of ClickHouse reads counts the answers of both periods by the patterns each figure
// depends on (the brand's named, cited, position and polarity; brand and competitor mentions); the
// values come from the patterns' sums,
// the rates' intervals from Newcombe's hybrid score method, the others' from a bootstrap of the
// difference run on a worker thread (resample.ts, resample-pool.ts).
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { chTime, select } from '../stores/scoped-query.ts';
import { readTogether } from './read-together.ts';
import { answerPatterns, voicePatterns } from './answer-patterns.ts';
import { round, visibilityScore } from './formulas.ts';
import { newcombe } from './intervals.ts';
import { intervalsFor } from './resample-pool.ts';
import type { FigureName, Options, Patterns } from './resample.ts';

export const CHANGE_METRICS = [
  'ai_visibility_score',
  'mention_rate',
  'citation_rate',
  'share_of_voice',
  'average_position',
  'net_sentiment',
] as const;
export type ChangeMetric = (typeof CHANGE_METRICS)[number];

/** Answers each period must hold for a verdict other than not_enough_data (as alert rules' gate). */
export const MIN_ANSWERS = 20;

export type Verdict = 'up' | 'down' | 'within_noise' | 'not_enough_data';

export interface Period {
  from: Date;
  to: Date;
}

/** The pattern sets of one period, by figure; each set's answers sum to the period's n. */
type PeriodPatterns = Record<FigureName, Patterns>;

interface BrandRow {
  period: number;
  named: number;
  cited: number;
  position: number;
  polarity: number;
  answers: number;
}

interface VoiceRow {
  period: number;
  brand_mentions: number;
  competitor_mentions: number;
  answers: number;
}

/**
 * The patterns of both periods in one round over answer_entities from the previous period's start
 * to the current one's end (rows between the two, when date_from is not a day's start, are left
 * out): the brand's rows by (named, cited, position, polarity), each pattern's answers its rows
 * summed by `sign` (a re-imported answer's old row and cancel row add up to nothing), and the answers
 * by brand and competitor mentions (answer-patterns.ts).
 */
async function periodPatterns(ch: ClickHouse, f: Filters, current: Period, previous: Period) {
  const scope: Filters = { ...f, from: previous.from, to: current.to };
  const period = {
    expression:
      "multiIf(collected_at >= {currentFrom:DateTime64(3, 'UTC')}, 1, collected_at <= " +
      "{previousTo:DateTime64(3, 'UTC')}, 0, 2)",
    params: { currentFrom: chTime(current.from.toISOString()), previousTo: chTime(previous.to.toISOString()) },
  };
  const read = (await readTogether(ch, {
    brand: {
      query: select(
        { table: 'answer_entities', scope },
        {
          select: `${period.expression} AS period, mentions > 0 AS named, citations > 0 AS cited, position,
            if(mentions > 0, sentiment, 0) AS polarity, sum(sign) AS answers`,
          where: 'is_brand = 1',
          groupBy: 'period, named, cited, position, polarity',
          having: 'answers > 0 AND period < 2',
          params: period.params,
        },
      ),
      columns: ['period', 'named', 'cited', 'position', 'polarity', 'answers'],
    },
    voice: {
      query: voicePatterns(scope, undefined, period),
      columns: ['period', 'brand_mentions', 'competitor_mentions', 'answers'],
    },
  })) as unknown as { brand: BrandRow[]; voice: VoiceRow[] };
  const of = (p: number): PeriodPatterns => {
    const rows = read.brand
      .filter((r) => Number(r.period) === p)
      .map((r) => {
        const [named, position, polarity] = [Number(r.named), Number(r.position), Number(r.polarity)];
        return {
          answers: Number(r.answers),
          named,
          cited: Number(r.cited),
          inv: position > 0 ? 1 / position : 0,
          position: named ? position : 0,
          positive: named && polarity === 1 ? 1 : 0,
          negative: named && polarity === -1 ? 1 : 0,
        };
      });
    const n = rows.reduce((acc, r) => acc + r.answers, 0);
    return {
      score: answerPatterns('score', rows, ['named', 'cited', 'inv'], n),
      position: answerPatterns('position', rows, ['named', 'position'], n),
      sentiment: answerPatterns('sentiment', rows, ['named', 'positive', 'negative'], n),
      voice: answerPatterns(
        'voice',
        read.voice.filter((r) => Number(r.period) === p),
        ['brand_mentions', 'competitor_mentions'],
        n,
      ),
    };
  };
  return { current: of(1), previous: of(0) };
}

const sum = (a: Float64Array, weights: Float64Array) => a.reduce((acc, x, j) => acc + x * weights[j], 0);

/** A period's figures, unrounded, from its patterns (null where undefined), and its n. */
function figures(p: PeriodPatterns) {
  const n = p.score.counts.reduce((a, b) => a + b, 0);
  const col = (figure: FigureName, c: number) => sum(p[figure].columns[c], p[figure].counts);
  const named = col('score', 0);
  const [brand, competitors] = [col('voice', 0), col('voice', 1)];
  const values: Record<ChangeMetric, number | null> = {
    ai_visibility_score: visibilityScore(
      { named, cited: col('score', 1), invPosition: col('score', 2), mentions: 0, citations: 0 },
      n,
    ),
    mention_rate: n > 0 ? 100 * (named / n) : null,
    citation_rate: n > 0 ? 100 * (col('score', 1) / n) : null,
    share_of_voice: n > 0 ? (brand + competitors === 0 ? 0 : (100 * brand) / (brand + competitors)) : null,
    average_position: named > 0 ? col('position', 1) / named : null,
    net_sentiment: named > 0 ? (100 * (col('sentiment', 1) - col('sentiment', 2))) / named : null,
  };
  return {
    n,
    named,
    cited: col('score', 1),
    positive: col('sentiment', 1),
    negative: col('sentiment', 2),
    values,
  };
}

/** Decimals of each metric, as the endpoints that serve it round it. */
const DIGITS: Record<ChangeMetric, number> = {
  ai_visibility_score: 1,
  mention_rate: 1,
  citation_rate: 1,
  share_of_voice: 1,
  average_position: 2,
  net_sentiment: 1,
};

/** The bootstrapped metrics and the figure each resamples. */
const BOOTSTRAPPED: [ChangeMetric, FigureName][] = [
  ['ai_visibility_score', 'score'],
  ['share_of_voice', 'voice'],
  ['average_position', 'position'],
  ['net_sentiment', 'sentiment'],
];

/** `+ 0` turns a rounded -0 into 0. */
const rounded = (x: number | null, digits: number) => (x === null ? null : round(x, digits) + 0);

/** up / down when the whole interval (as shown, rounded) is above / below 0; too few answers decide nothing. */
export function verdict(nCurrent: number, nPrevious: number, ci95: [number, number] | null): Verdict {
  if (nCurrent < MIN_ANSWERS || nPrevious < MIN_ANSWERS || ci95 === null) return 'not_enough_data';
  if (ci95[0] > 0) return 'up';
  if (ci95[1] < 0) return 'down';
  return 'within_noise';
}

/**
 * Each competitor's mention rate in both periods, with the change's Newcombe interval and verdict
 * as the brand's mention rate has them: the answers naming it (its rows summed by `sign`) over the
 * period's answers (`n`, the brand's rows).
 */
export async function competitorMentionChanges(
  ch: ClickHouse,
  f: Filters,
  periods: { current: Period; previous: Period },
  competitors: { id: string; name: string }[],
) {
  const { current, previous } = periods;
  const scope: Filters = { ...f, from: previous.from, to: current.to };
  const rows = await ch.rows<{ period: number; entity: string; is_brand: number; answers: number }>(
    select(
      { table: 'answer_entities', scope },
      {
        select:
          "multiIf(collected_at >= {currentFrom:DateTime64(3, 'UTC')}, 1, collected_at <= " +
          `{previousTo:DateTime64(3, 'UTC')}, 0, 2) AS period,
          toString(entity_id) AS entity, is_brand, sumIf(sign, is_brand = 1 OR mentions > 0) AS answers`,
        groupBy: 'period, entity, is_brand',
        having: 'period < 2',
        params: { currentFrom: chTime(current.from.toISOString()), previousTo: chTime(previous.to.toISOString()) },
      },
    ),
  );
  const count = (p: number, brand: boolean, entity?: string) =>
    rows
      .filter((r) => Number(r.period) === p && Number(r.is_brand) === (brand ? 1 : 0) && (brand || r.entity === entity))
      .reduce((acc, r) => acc + Number(r.answers), 0);
  const [nCur, nPrev] = [count(1, true), count(0, true)];
  const rate = (k: number, n: number) => (n > 0 ? (100 * k) / n : null);
  return competitors.map((c) => {
    const [k1, k2] = [count(1, false, c.id), count(0, false, c.id)];
    const [cur, prev] = [rate(k1, nCur), rate(k2, nPrev)];
    const raw = cur !== null && prev !== null ? newcombe(k1, nCur, k2, nPrev) : null;
    const ci95 = raw ? ([rounded(100 * raw[0], 1), rounded(100 * raw[1], 1)] as [number, number]) : null;
    return {
      competitor_id: c.id,
      name: c.name,
      metric: 'mention_rate' as const,
      current: rounded(cur, 1),
      previous: rounded(prev, 1),
      change: cur !== null && prev !== null ? rounded(cur - prev, 1) : null,
      ci95,
      verdict: verdict(nCur, nPrev, ci95),
    };
  });
}

export async function visibilityChange(
  ch: ClickHouse,
  f: Filters,
  periods: { current: Period; previous: Period },
  opts: Options = {},
) {
  const patterns = await periodPatterns(ch, f, periods.current, periods.previous);
  const cur = figures(patterns.current);
  const prev = figures(patterns.previous);
  const defined = (m: ChangeMetric) => cur.values[m] !== null && prev.values[m] !== null;
  const wanted = BOOTSTRAPPED.filter(([m]) => defined(m));
  const boot = await intervalsFor(
    ch,
    wanted.map(([, figure]) => ({ current: patterns.current[figure], previous: patterns.previous[figure] })),
    opts,
  );
  const intervals = new Map<ChangeMetric, [number, number] | null>(wanted.map(([m], i) => [m, boot[i]]));
  const newcombePercent = (k1: number, k2: number) => {
    const ci = newcombe(k1, cur.n, k2, prev.n);
    return ci && ([100 * ci[0], 100 * ci[1]] as [number, number]);
  };
  intervals.set('mention_rate', newcombePercent(cur.named, prev.named));
  intervals.set('citation_rate', newcombePercent(cur.cited, prev.cited));
  return {
    current: { n: cur.n },
    previous: { n: prev.n },
    // The current period's answers behind each figure: what the app's cards link to.
    counts: {
      answers: cur.n,
      mention_answers: cur.named,
      citation_answers: cur.cited,
      positive_answers: cur.positive,
      negative_answers: cur.negative,
    },
    metrics: CHANGE_METRICS.map((metric) => {
      const digits = DIGITS[metric];
      const [c, p] = [cur.values[metric], prev.values[metric]];
      const raw = defined(metric) ? intervals.get(metric) : null;
      const ci95 = raw ? ([rounded(raw[0], digits), rounded(raw[1], digits)] as [number, number]) : null;
      return {
        metric,
        current: rounded(c, digits),
        previous: rounded(p, digits),
        change: c !== null && p !== null ? rounded(c - p, digits) : null,
        ci95,
        verdict: verdict(cur.n, prev.n, ci95),
      };
    }),
  };
}
