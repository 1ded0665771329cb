// How sure a figure is (docs/api.md sections 12 and 21): the Wilson score interval of a rate, and
// Newcombe's hybrid score interval of the difference of two rates. Figures that are not a plain
// rate get a seeded percentile bootstrap instead (resample.ts). Pure functions, no I/O.
import { round } from './formulas.ts';

/** z of a two-sided 95% interval. */
export const Z95 = 1.96;

/** A figure with its 95% interval, in percent (or score points), 1 decimal; both null without answers. */
export interface Estimate {
  value: number | null;
  ci95: [number, number] | null;
}

/** Clamps to [0, 100] and rounds to 1 decimal (`+ 0` turns a rounded -0 into 0). */
export const percent = (x: number) => round(Math.min(100, Math.max(0, x)), 1) + 0;

/**
 * The rate k/n in percent with its Wilson score interval: unlike the normal approximation it stays
 * inside 0-100 and does not collapse to a point at 0 of n or n of n. n = 0: value and ci95 null.
 */
export function wilson(k: number, n: number, z = Z95): Estimate {
  if (n <= 0) return { value: null, ci95: null };
  const [lo, hi] = wilsonBounds(k, n, z);
  return { value: percent(100 * (k / n)), ci95: [percent(100 * lo), percent(100 * hi)] };
}

/** The Wilson score bounds of k/n as proportions, unrounded (n > 0). */
function wilsonBounds(k: number, n: number, z: number): [number, number] {
  const p = k / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [centre - half, centre + half];
}

/**
 * Newcombe's hybrid score interval of p1 - p2 = k1/n1 - k2/n2, as proportions, unrounded (method
 * 10 of Newcombe, "Interval estimation for the difference between independent proportions:
 * comparison of eleven methods", Statistics in Medicine 17, 873-890, 1998): with (l1, u1) and
 * (l2, u2) the Wilson intervals of the two rates, the difference minus sqrt((p1 - l1)^2 + (u2 - p2)^2)
 * to the difference plus sqrt((u1 - p1)^2 + (p2 - l2)^2). Null when either n is 0.
 */
export function newcombe(k1: number, n1: number, k2: number, n2: number, z = Z95): [number, number] | null {
  if (n1 <= 0 || n2 <= 0) return null;
  const [p1, p2] = [k1 / n1, k2 / n2];
  const [l1, u1] = wilsonBounds(k1, n1, z);
  const [l2, u2] = wilsonBounds(k2, n2, z);
  const d = p1 - p2;
  return [d - Math.hypot(p1 - l1, u2 - p2), d + Math.hypot(u1 - p1, p2 - l2)];
}
