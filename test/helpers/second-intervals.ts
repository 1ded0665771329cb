// Second implementations of the intervals, written from the definitions for the tests: the Wilson
// bounds found by bisection on the score statistic (no closed form), Newcombe's hybrid interval
// built on them, and a plain percentile bootstrap that draws every answer one by one.

/**
 * A Wilson bound is a p0 where |p - p0| / sqrt(p0 (1 - p0) / n) equals z: found by bisection on
 * each side of p.
 */
export function wilsonBySearch(k: number, n: number, z = 1.96): [number, number] {
  const p = k / n;
  const score = (p0: number) => Math.abs(p - p0) - z * Math.sqrt((p0 * (1 - p0)) / n);
  const root = (far: number, near: number) => {
    for (let i = 0; i < 200; i++) {
      const mid = (far + near) / 2;
      if (score(mid) > 0) far = mid;
      else near = mid;
    }
    return (far + near) / 2;
  };
  return [p === 0 ? 0 : root(0, p), p === 1 ? 1 : root(1, p)];
}

/** Newcombe's method 10 for k1/n1 - k2/n2, as proportions. */
export function newcombeBySearch(k1: number, n1: number, k2: number, n2: number): [number, number] {
  const [p1, p2] = [k1 / n1, k2 / n2];
  const [l1, u1] = wilsonBySearch(k1, n1);
  const [l2, u2] = wilsonBySearch(k2, n2);
  const d = p1 - p2;
  return [d - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + Math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)];
}

/** A seeded uniform stream (a 32-bit LCG is plenty for a test's own sampling). */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * The 2.5th and 97.5th percentiles (nearest rank) of figure(current resample) - figure(previous
 * resample), each period's answers drawn one by one with replacement; resamples where a figure is
 * undefined (null) are left out.
 */
export function plainDifferenceBootstrap<A>(
  current: A[],
  previous: A[],
  figure: (answers: A[]) => number | null,
  resamples = 2000,
  seed = 11,
): [number, number] {
  const next = lcg(seed);
  const draw = (list: A[]) => Array.from({ length: list.length }, () => list[Math.floor(next() * list.length)]);
  const values: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const [c, p] = [figure(draw(current)), figure(draw(previous))];
    if (c !== null && p !== null) values.push(c - p);
  }
  values.sort((a, b) => a - b);
  const at = (q: number) => values[Math.max(0, Math.ceil(q * values.length) - 1)];
  return [at(0.025), at(0.975)];
}
