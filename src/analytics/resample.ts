// The seeded percentile bootstrap over answers (docs/api.md sections 12 and 21), at a cost that does
// not grow with the answers in range. A figure here depends on an answer only through a few small
// numbers (named, cited, 1/position, mentions, polarity), so ClickHouse groups the answers of a range
// into their distinct tuples, the patterns, with the answers of each (confidence.ts,
// change-patterns.ts). A resample of the n answers drawn with replacement is then a multinomial
// draw of n over the patterns, made as one binomial per pattern of what is left (each exact, below),
// and the figure follows from the weighted sums. Per resample: k binomials for k patterns, each
// O(1 + sqrt(its variance)) steps, never n draws. Pure functions, no I/O: run on a worker thread
// (resample-pool.ts).
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { visibilityScore } from './formulas.ts';

/** Resamples per bootstrap, and the seed every bootstrap starts from (so the same data gives the same interval). */
export const RESAMPLES = 1000;
export const SEED = 20;

/** How a figure follows from the column sums over a resample of n answers (unrounded; null when undefined). */
const FIGURES = {
  /** [named, cited, 1/position]: the AI visibility score (formulas.ts). */
  score: (s: Float64Array, n: number) =>
    visibilityScore({ named: s[0], cited: s[1], invPosition: s[2], mentions: 0, citations: 0 }, n),
  /** [brand mentions, competitor mentions]: share of voice in percent, 0 without mentions. */
  voice: (s: Float64Array) => (s[0] + s[1] === 0 ? 0 : (100 * s[0]) / (s[0] + s[1])),
  /** [named, position]: the mean position over answers naming the entity. */
  position: (s: Float64Array) => (s[0] > 0 ? s[1] / s[0] : null),
  /** [named, positive, negative]: net sentiment, -100 to 100. */
  sentiment: (s: Float64Array) => (s[0] > 0 ? (100 * (s[1] - s[2])) / s[0] : null),
} satisfies Record<string, (sums: Float64Array, n: number) => number | null>;

export type FigureName = keyof typeof FIGURES;

/** The answers of a range as patterns: `counts[j]` answers hold the values `columns[c][j]`. */
export interface Patterns {
  figure: FigureName;
  counts: Float64Array;
  columns: Float64Array[];
}

/** One interval to compute: of a figure, or of the difference of a figure between two periods. */
export type Job = { of: Patterns } | { current: Patterns; previous: Patterns };

export interface Options {
  resamples?: number;
  seed?: number;
}

/** A uniform double in [0, 1) from two 32-bit outputs (53 random bits). */
function uniform(rng: ReturnType<typeof xoroshiro128plus>): number {
  const high = (rng.next() >>> 0) >>> 5;
  const low = (rng.next() >>> 0) >>> 6;
  return (high * 67108864 + low) / 9007199254740992;
}

// ln k!: summed exactly below TABLE, Stirling's series above it (error below 1e-17 relative there).
const TABLE = 1024;
const LN_FACTORIAL = new Float64Array(TABLE);
for (let k = 1; k < TABLE; k++) LN_FACTORIAL[k] = LN_FACTORIAL[k - 1] + Math.log(k);

function lnFactorial(k: number): number {
  if (k < TABLE) return LN_FACTORIAL[k];
  const inv = 1 / k;
  const inv2 = inv * inv;
  return k * Math.log(k) - k + 0.5 * Math.log(2 * Math.PI * k) + inv * (1 / 12 - inv2 * (1 / 360 - inv2 / 1260));
}

/** Below this mean (np or n(1-p)) a binomial is drawn by inversion from the end, else from the mode. */
const SMALL_MEAN = 10;

/**
 * A Binomial(n, p) draw by inversion from the mode: one uniform u, then the probabilities of m,
 * m+1, m-1, m+2, ... (each from its neighbour by the ratio of successive terms) are taken from u
 * until it is used up. Any fixed order of the outcomes gives an exact inversion; starting at the
 * mode makes the expected number of steps about 1.6 standard deviations (Kemp's modal search,
 * "A modal method for generating binomial variables", 1986).
 */
export function binomial(n: number, p: number, next: () => number): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  const ratio = p / (1 - p);
  // Few expected successes (or failures): inversion from 0 costs an exp and about np steps, less
  // than the mode's probability (three log-factorials) when np is small, as for rare patterns.
  if (n * p < SMALL_MEAN) {
    let f = Math.exp(n * Math.log1p(-p));
    let u = next();
    let x = 0;
    while (u >= f && x < n) {
      u -= f;
      f *= ((n - x) / (x + 1)) * ratio;
      x++;
    }
    return x;
  }
  if (n * (1 - p) < SMALL_MEAN) return n - binomial(n, 1 - p, next);
  const m = Math.min(n, Math.floor((n + 1) * p));
  const fm = Math.exp(
    lnFactorial(n) - lnFactorial(m) - lnFactorial(n - m) + m * Math.log(p) + (n - m) * Math.log1p(-p),
  );
  let u = next();
  if (u < fm) return m;
  u -= fm;
  let [lo, hi, flo, fhi] = [m, m, fm, fm];
  for (;;) {
    if (hi < n) {
      fhi *= ((n - hi) / (hi + 1)) * ratio;
      hi++;
      if (u < fhi) return hi;
      u -= fhi;
    }
    if (lo > 0) {
      flo *= lo / (n - lo + 1) / ratio;
      lo--;
      if (u < flo) return lo;
      u -= flo;
    }
    // What is left of u is rounding (the terms summed to 1 - 1e-13 or so): the mode takes it.
    if ((hi === n || fhi < 1e-300) && (lo === 0 || flo < 1e-300)) return m;
  }
}

/** A resampler of one pattern set: each call draws a multinomial of n over the patterns and sums. */
function resampler(p: Patterns) {
  const k = p.counts.length;
  let n = 0;
  for (let j = 0; j < k; j++) n += p.counts[j];
  const sums = new Float64Array(p.columns.length);
  const figure = FIGURES[p.figure];
  return {
    n,
    draw(next: () => number): number | null {
      sums.fill(0);
      let left = n;
      let mass = n;
      for (let j = 0; j < k && left > 0; j++) {
        const count = p.counts[j];
        // The last pattern with answers takes what is left (its conditional share is 1).
        const w = count >= mass ? left : binomial(left, count / mass, next);
        left -= w;
        mass -= count;
        if (w) for (let c = 0; c < sums.length; c++) sums[c] += w * p.columns[c][j];
      }
      return figure(sums, n);
    },
  };
}

/**
 * The 2.5th and 97.5th percentiles (nearest rank) of the job's figure, or of the current minus
 * the previous figure with each period resampled on its own, over `resamples` resamples; unrounded.
 * A resample whose figure is undefined (no answer naming the brand, for a mean position) is left
 * out; null when every resample is, or a period has no answers.
 */
export function interval(job: Job, opts: Options = {}): [number, number] | null {
  const resamples = opts.resamples ?? RESAMPLES;
  const rng = xoroshiro128plus(opts.seed ?? SEED);
  const next = () => uniform(rng);
  const [a, b] = 'of' in job ? [resampler(job.of), null] : [resampler(job.current), resampler(job.previous)];
  if (a.n <= 0 || (b && b.n <= 0)) return null;
  const values = new Float64Array(resamples);
  let defined = 0;
  for (let r = 0; r < resamples; r++) {
    const x = a.draw(next);
    const y = b ? b.draw(next) : 0;
    if (x !== null && y !== null) values[defined++] = x - y;
  }
  if (!defined) return null;
  const v = values.subarray(0, defined).sort();
  const at = (q: number) => v[Math.max(0, Math.ceil(q * defined) - 1)];
  return [at(0.025), at(0.975)];
}
