// How far two readings of the same answers agree (the import agreement report, docs/metrics.md
// "Agreement with another tracker"): the share of answers read alike, Cohen's kappa for a yes/no
// reading (agreement beyond what the two readings' own rates would give by chance), and the mean
// absolute difference of a number. Pure functions, no I/O.
import { round } from './formulas.ts';

/**
 * Percent of pairs equal, 1 decimal; null without pairs.
 */
export function agreementPercent<T>(pairs: readonly (readonly [T, T])[]): number | null {
  if (!pairs.length) return null;
  return round((100 * pairs.filter(([a, b]) => a === b).length) / pairs.length, 1);
}

/**
 * Cohen's kappa of two yes/no readings of the same items, 3 decimals: (po - pe) / (1 - pe), with po
 * the share read alike and pe the share two independent readings with these yes rates would read
 * alike (pa pb + (1 - pa)(1 - pb)). Null without pairs, or when pe is 1 (both readings say the same
 * thing of every item, so there is no chance agreement to go beyond).
 */
export function cohensKappa(pairs: readonly (readonly [boolean, boolean])[]): number | null {
  const n = pairs.length;
  if (!n) return null;
  const po = pairs.filter(([a, b]) => a === b).length / n;
  const pa = pairs.filter(([a]) => a).length / n;
  const pb = pairs.filter(([, b]) => b).length / n;
  const pe = pa * pb + (1 - pa) * (1 - pb);
  if (pe === 1) return null;
  return round((po - pe) / (1 - pe), 3) + 0;
}

/** Mean of |a - b| over the pairs, 2 decimals; null without pairs. */
export function meanAbsoluteDifference(pairs: readonly (readonly [number, number])[]): number | null {
  if (!pairs.length) return null;
  return round(pairs.reduce((sum, [a, b]) => sum + Math.abs(a - b), 0) / pairs.length, 2);
}
