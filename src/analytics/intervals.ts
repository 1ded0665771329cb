// How sure a figure is (docs/api.md section 12): the Wilson score interval of a rate, and a seeded
// percentile bootstrap over answers for figures that are not a plain rate (the AI visibility
// score, share of voice). Pure functions, no I/O: src/analytics/confidence.ts feeds them.
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { round } from './formulas.ts';

/** z of a two-sided 95% interval. */
export const Z95 = 1.96;

/** Resamples per bootstrap, and the seed every bootstrap starts from (so the same data gives the same interval). */
export const RESAMPLES = 1000;
export const SEED = 20;

/** A figure with its 95% interval, in percent (or score points), 1 decimal; both null without answers. */
export interface Estimate {
  value: number | null;
  ci95: [number, number] | null;
}

/** Clamps to [0, 100] and rounds to 1 decimal (`+ 0` turns a rounded -0 into 0). */
const percent = (x: number) => round(Math.min(100, Math.max(0, x)), 1) + 0;

/**
 * The rate k/n in percent with its Wilson score interval: unlike the normal approximation it stays
 * inside 0-100 and does not collapse to a point at 0 of n or n of n. n = 0: value and ci95 null.
 */
export function wilson(k: number, n: number, z = Z95): Estimate {
  if (n <= 0) return { value: null, ci95: null };
  const p = k / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { value: percent(100 * p), ci95: [percent(100 * (centre - half)), percent(100 * (centre + half))] };
}

/**
 * A figure computed from per-answer columns. Only answers where some column is non-zero are
 * listed (`answers[j]` is an index below n, `columns[c][j]` its value), since a zero adds nothing
 * to a sum; `figure` turns the column sums over a resample of n answers into the figure.
 */
export interface Statistic {
  answers: Int32Array;
  columns: Float64Array[];
  figure(sums: Float64Array, n: number): number | null;
}

/**
 * The 2.5th and 97.5th percentiles (nearest rank: the smallest value with at least that share of
 * the values at or below it) of each statistic over `resamples` resamples of the n answers drawn
 * with replacement, every statistic over the same resamples; null for a statistic without a value
 * (n = 0). Cost: per resample n draws plus the listed answers of every statistic, in typed arrays.
 */
export function bootstrap(
  n: number,
  stats: readonly Statistic[],
  opts: { resamples?: number; seed?: number } = {},
): ([number, number] | null)[] {
  const resamples = opts.resamples ?? RESAMPLES;
  if (n <= 0) return stats.map(() => null);
  const rng = xoroshiro128plus(opts.seed ?? SEED);
  // A uniform draw in [0, n): a 32-bit value divided by q = floor(2^32 / n), so each answer gets
  // exactly q of the values; the few at or past q x n are drawn again, so no answer is favoured.
  const q = Math.floor(2 ** 32 / n);
  const limit = q * n;
  const weights = new Uint32Array(n);
  const values = stats.map(() => new Float64Array(resamples));
  const sums = stats.map((s) => new Float64Array(s.columns.length));
  for (let r = 0; r < resamples; r++) {
    weights.fill(0);
    for (let i = 0; i < n; i++) {
      let u = rng.next() >>> 0;
      while (u >= limit) u = rng.next() >>> 0;
      weights[(u / q) | 0]++;
    }
    for (let s = 0; s < stats.length; s++) {
      const { answers, columns, figure } = stats[s];
      const acc = sums[s];
      for (let c = 0; c < columns.length; c++) {
        const column = columns[c];
        let total = 0;
        for (let j = 0; j < answers.length; j++) total += weights[answers[j]] * column[j];
        acc[c] = total;
      }
      values[s][r] = figure(acc, n) ?? Number.NaN;
    }
  }
  return values.map((v) => {
    v.sort();
    if (Number.isNaN(v[0])) return null;
    const at = (p: number) => v[Math.max(0, Math.ceil(p * resamples) - 1)];
    return [percent(at(0.025)), percent(at(0.975))];
  });
}
