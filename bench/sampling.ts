// bench/sampling: fixed against adaptive sampling (src/analytics/adaptive-sampling.ts), simulated.
// Not a timing bench: every answer is drawn from a seeded generator, so a run prints the same
// figures on any machine. 90 days over CELLS (prompt, platform, region) cells whose true mention
// rates are known; some cells' rates move by 10 points part-way. Each day, each way of sampling
// decides its cells' answers from what it has seen (adaptive: the cell's last 28 days), and draws
// that many answers, each naming the brand with the cell's true rate of the day.
// The comparison: fixed at N a day first; then adaptive with min_samples 1, target_half_width set to
// the mean half-width fixed achieved, and each max_samples of --max (a list). Two mixes of true
// rates, both stated before the run: `spread` (a third of the cells at 0-5%, a sixth at 90-100%,
// half at 10-90%) and `extremes` (most cells near 0% or 100%: 60% at 0-5%, 15% at 95-100%, a
// quarter at 5-95%). Printed, per way and mix:
// - captures: answers drawn over the 90 days;
// - mean half-width: the 95% Wilson interval's half-width of the brand's mention rate over a
//   cell's last 28 days, averaged over the cells and the days 28-90 (points);
// - changes detected: of the cells whose true rate moved by 10 points, the share whose verdict
//   (the 28 days after the move against the 28 before, Newcombe's interval and the verdict rule of
//   visibility-change, docs/metrics.md) is `up` or `down` in the true direction; and, for scale,
//   the share of unchanged cells given `up` or `down` over the same days (false alarms).
// The target: adaptive reaches fixed sampling's mean half-width with at most 60% of its captures.
//   node --import tsx bench/sampling.ts [--seed N] [--fixed S] [--max S,S,...] [--cells N]   (npm run bench:sampling)
import { parseArgs } from 'node:util';
import {
  planDay,
  halfWidth,
  SAMPLING_DEFAULTS,
  SAMPLING_WINDOW_DAYS,
  type SamplingSettings,
} from '../src/analytics/adaptive-sampling.ts';
import { newcombe } from '../src/analytics/intervals.ts';
import { round } from '../src/analytics/formulas.ts';
import { verdict } from '../src/analytics/visibility-change.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '57' },
    fixed: { type: 'string', default: '3' },
    max: { type: 'string', default: '3,6,9' },
    cells: { type: 'string', default: '200' },
  },
});
const SEED = Number(values.seed);
const FIXED = Number(values.fixed);
const CELLS = Number(values.cells);
const MAXES = values.max.split(',').map(Number);
const DAYS = 90;
const TARGET_SHARE = 0.6;

/** mulberry32: a small seeded generator, uniform in [0, 1). */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Cell {
  /** True mention rate before and after `changeDay` (the same when it does not change). */
  before: number;
  after: number;
  /** The day the rate moves (never, for an unchanged cell). */
  changeDay: number;
}

type Mix = 'spread' | 'extremes';

/** A true rate from the mix: where brands stand in answers, before any change. */
function rateOf(mix: Mix, random: () => number): number {
  const kind = random();
  if (mix === 'spread')
    return kind < 1 / 3 ? 0.05 * random() : kind < 0.5 ? 0.9 + 0.1 * random() : 0.1 + 0.8 * random();
  return kind < 0.6 ? 0.05 * random() : kind < 0.75 ? 0.95 + 0.05 * random() : 0.05 + 0.9 * random();
}

/**
 * The cells, from the seed. A quarter of the cells move by 10 points (up or down, staying within
 * 0-100%) on a day between 35 and 62, so 28 days before and after fit in the 90.
 */
function makeCells(mix: Mix, random: () => number): Cell[] {
  return Array.from({ length: CELLS }, () => {
    const before = rateOf(mix, random);
    if (random() >= 0.25) return { before, after: before, changeDay: Number.POSITIVE_INFINITY };
    const up = before + 0.1 <= 1 && (before - 0.1 < 0 || random() < 0.5);
    return { before, after: before + (up ? 0.1 : -0.1), changeDay: 35 + Math.floor(random() * 28) };
  });
}

/** The answers a way of sampling drew: per cell, per day, [answers, named]. */
type Drawn = [number, number][][];

function simulate(cells: Cell[], seed: number, samplesOf: (history: { answers: number; named: number }[]) => number[]) {
  const random = generator(seed);
  const drawn: Drawn = cells.map(() => []);
  let captures = 0;
  const widths: number[] = [];
  for (let day = 0; day < DAYS; day++) {
    const histories = drawn.map((days) => windowOf(days, day));
    const samples = samplesOf(histories);
    cells.forEach((cell, i) => {
      const rate = day >= cell.changeDay ? cell.after : cell.before;
      let named = 0;
      for (let s = 0; s < samples[i]; s++) if (random() < rate) named++;
      drawn[i][day] = [samples[i], named];
      captures += samples[i];
    });
    if (day + 1 >= SAMPLING_WINDOW_DAYS) {
      for (const days of drawn) widths.push(halfWidth(windowOf(days, day + 1)) ?? 50);
    }
  }
  return { captures, drawn, meanHalfWidth: widths.reduce((a, b) => a + b, 0) / widths.length };
}

/** A cell's answers and named answers over the SAMPLING_WINDOW_DAYS days before `day`. */
function windowOf(days: [number, number][], day: number, length = SAMPLING_WINDOW_DAYS) {
  let answers = 0;
  let named = 0;
  for (let d = Math.max(0, day - length); d < day; d++) {
    answers += days[d]?.[0] ?? 0;
    named += days[d]?.[1] ?? 0;
  }
  return { answers, named };
}

/** The verdict of a cell's mention rate, the 28 days from `day` against the 28 before. */
function cellVerdict(days: [number, number][], day: number) {
  const cur = windowOf(days, day + SAMPLING_WINDOW_DAYS);
  const prev = windowOf(days, day);
  const ci = newcombe(cur.named, cur.answers, prev.named, prev.answers);
  const shown = ci ? ([round(100 * ci[0], 1), round(100 * ci[1], 1)] as [number, number]) : null;
  return verdict(cur.answers, prev.answers, shown);
}

function detection(cells: Cell[], drawn: Drawn) {
  let changed = 0;
  let detected = 0;
  let steady = 0;
  let alarms = 0;
  const steadyDay = 49; // unchanged cells are judged over the middle of the changes' days
  cells.forEach((cell, i) => {
    if (Number.isFinite(cell.changeDay)) {
      changed++;
      const v = cellVerdict(drawn[i], cell.changeDay);
      if (v === (cell.after > cell.before ? 'up' : 'down')) detected++;
    } else {
      steady++;
      const v = cellVerdict(drawn[i], steadyDay);
      if (v === 'up' || v === 'down') alarms++;
    }
  });
  return { changed, detected: detected / changed, steady, false_alarms: alarms / steady };
}

/** log(k!) for k up to n. */
function logFactorials(n: number): number[] {
  const table = [0];
  for (let k = 1; k <= n; k++) table.push(table[k - 1] + Math.log(k));
  return table;
}
const MAX_ORACLE_SAMPLES = 30;
const LOG_FACTORIAL = logFactorials(SAMPLING_WINDOW_DAYS * MAX_ORACLE_SAMPLES);

/** The expected half-width (points) of a cell's window of `n` answers at true rate `p`; 50 without answers, as above. */
function expectedHalfWidth(n: number, p: number): number {
  if (n === 0) return 50;
  let sum = 0;
  for (let k = 0; k <= n; k++) {
    const logChoose = LOG_FACTORIAL[n] - LOG_FACTORIAL[k] - LOG_FACTORIAL[n - k];
    const logP = (k === 0 ? 0 : k * Math.log(p)) + (k === n ? 0 : (n - k) * Math.log(1 - p));
    const probability = p <= 0 ? Number(k === 0) : p >= 1 ? Number(k === n) : Math.exp(logChoose + logP);
    if (probability > 0) sum += probability * (halfWidth({ answers: n, named: k }) ?? 50);
  }
  return sum;
}

/**
 * The bound no sampling rule passes: an oracle that knows every cell's true rate (its mean over the
 * days measured) and gives each cell the answers a day that minimise the expected mean half-width,
 * one answer a day at a time to the cell whose expected half-width falls most (the half-width falls
 * less with each answer, so this order is optimal). Returns the fewest captures with which its
 * expected mean half-width reaches that of fixed sampling, as a share of fixed's captures.
 */
function oracleShare(cells: Cell[]): { share: number; fixedExpected: number } {
  const measured = DAYS - SAMPLING_WINDOW_DAYS;
  const rates = cells.map((c) => {
    const after = Math.max(0, Math.min(DAYS, DAYS - c.changeDay));
    return (c.before * (measured - Math.min(measured, after)) + c.after * Math.min(measured, after)) / measured;
  });
  const widthAt = rates.map((p) =>
    Array.from({ length: MAX_ORACLE_SAMPLES + 1 }, (_, s) => expectedHalfWidth(SAMPLING_WINDOW_DAYS * s, p)),
  );
  const fixedExpected = widthAt.reduce((sum, w) => sum + w[FIXED], 0) / cells.length;
  const samples = cells.map(() => 0);
  let total = widthAt.reduce((sum, w) => sum + w[0], 0);
  while (total / cells.length > fixedExpected) {
    let best = -1;
    let bestGain = 0;
    for (let i = 0; i < cells.length; i++) {
      if (samples[i] >= MAX_ORACLE_SAMPLES) continue;
      const gain = widthAt[i][samples[i]] - widthAt[i][samples[i] + 1];
      if (best < 0 || gain > bestGain) [best, bestGain] = [i, gain];
    }
    if (best < 0) break;
    total -= bestGain;
    samples[best]++;
  }
  return { share: samples.reduce((a, b) => a + b, 0) / (FIXED * cells.length), fixedExpected };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const simSeed = SEED * 7919;
let met = false;
const mixes = (['spread', 'extremes'] as const).map((mix) => {
  const cells = makeCells(mix, generator(SEED));
  const report = (name: string, r: ReturnType<typeof simulate>) => {
    const d = detection(cells, r.drawn);
    return {
      sampling: name,
      captures: r.captures,
      captures_per_cell_day: round(r.captures / (CELLS * DAYS), 2),
      mean_half_width_points: round(r.meanHalfWidth, 2),
      changes_detected: `${pct(d.detected)} of ${d.changed}`,
      false_alarms: `${pct(d.false_alarms)} of ${d.steady}`,
    };
  };
  const fixed = simulate(cells, simSeed, (h) => h.map(() => FIXED));
  // The target half-width is what fixed sampling achieves, as the rule compares it (2 decimals).
  const target = round(fixed.meanHalfWidth, 2);
  const results = [report(`fixed ${FIXED} a day`, fixed)];
  const verdicts: string[] = [];
  for (const max of MAXES) {
    const settings: SamplingSettings = { ...SAMPLING_DEFAULTS, max_samples: max, target_half_width: target };
    const adaptive = simulate(cells, simSeed, (h) => planDay(h, settings).map((p) => p.samples));
    const share = adaptive.captures / fixed.captures;
    const reached = round(adaptive.meanHalfWidth, 2) <= target;
    const ok = reached && share <= TARGET_SHARE;
    met ||= ok;
    results.push(report(`adaptive 1-${max} a day, target ${target}`, adaptive));
    verdicts.push(
      `${mix}, adaptive max ${max}: half-width ${round(adaptive.meanHalfWidth, 2)} ${reached ? '<=' : '>'} ${target}, ` +
        `captures ${pct(share)} of fixed's: ${ok ? 'met' : 'NOT met'}`,
    );
  }
  const oracle = oracleShare(cells);
  verdicts.push(
    `${mix}, the oracle (true rates known, answers a day per cell chosen to narrow the mean most): ` +
      `fixed's expected mean half-width ${round(oracle.fixedExpected, 2)} with ${pct(oracle.share)} of fixed's captures`,
  );
  return { mix, results, verdicts };
});
console.log(
  JSON.stringify(
    {
      seed: SEED,
      cells: CELLS,
      days: DAYS,
      fixed: { samples: FIXED },
      adaptive: { min_samples: SAMPLING_DEFAULTS.min_samples, max_samples: MAXES, target_half_width: "fixed's" },
      mixes: mixes.map(({ mix, results }) => ({ mix, results })),
    },
    null,
    2,
  ),
);
for (const m of mixes) for (const v of m.verdicts) console.log(v);
console.log(
  `target (adaptive reaches fixed's mean half-width with <= ${TARGET_SHARE * 100}% of its captures): ` +
    (met ? 'met by at least one setting above' : 'NOT met by any setting above'),
);
