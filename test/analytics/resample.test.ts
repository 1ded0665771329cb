// The bootstrap over patterns (src/analytics/resample.ts) and its worker pool: the binomial draws
// have the binomial's mean and spread, an interval is deterministic for a seed, it agrees with a
// plain bootstrap written here that draws every answer (a second implementation), a difference of
// two periods is centred on the difference, and the pool answers as the function does and refuses
// a fifth request of one organization in hand.
// test-process: shared
import test from 'ava';
import { binomial, interval, type Patterns } from '../../src/analytics/resample.ts';
import { MAX_IN_HAND, ResamplePool } from '../../src/analytics/resample-pool.ts';
import { wilson } from '../../src/analytics/intervals.ts';

/** A seeded uniform stream (a 32-bit LCG is plenty for a test's own sampling). */
function stream(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test('binomial draws stay in 0..n and have mean np and variance np(1-p)', (t) => {
  for (const [n, p] of [
    [10, 0.3],
    [50, 0.97],
    [1000, 0.005],
    [1000, 0.02],
    [25_000, 0.5],
    [400_000, 0.9],
  ]) {
    const next = stream(n);
    const draws = Array.from({ length: 20_000 }, () => binomial(n, p, next));
    t.true(
      draws.every((x) => Number.isInteger(x) && x >= 0 && x <= n),
      `${n}, ${p}`,
    );
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    const variance = draws.reduce((a, b) => a + (b - mean) ** 2, 0) / (draws.length - 1);
    const sd = Math.sqrt(n * p * (1 - p));
    // The mean of 20,000 draws is within 4 standard errors; the variance within 5%.
    t.true(Math.abs(mean - n * p) < (4 * sd) / Math.sqrt(draws.length), `mean ${mean} for ${n}, ${p}`);
    t.true(Math.abs(variance / (sd * sd) - 1) < 0.05, `variance ${variance} for ${n}, ${p}`);
  }
  t.is(binomial(0, 0.5, Math.random), 0);
  t.is(binomial(7, 0, Math.random), 0);
  t.is(binomial(7, 1, Math.random), 7);
});

/** Answers as a list (one row each) and as patterns, for the AI visibility score. */
const answers: [number, number, number][] = [
  ...Array.from({ length: 120 }, (): [number, number, number] => [1, 1, 1]),
  ...Array.from({ length: 80 }, (): [number, number, number] => [1, 0, 0.5]),
  ...Array.from({ length: 50 }, (): [number, number, number] => [1, 0, 1 / 3]),
  ...Array.from({ length: 30 }, (): [number, number, number] => [0, 1, 0]),
  ...Array.from({ length: 320 }, (): [number, number, number] => [0, 0, 0]),
];
const scorePatterns: Patterns = {
  figure: 'score',
  counts: Float64Array.from([120, 80, 50, 30, 320]),
  columns: [
    Float64Array.from([1, 1, 1, 0, 0]),
    Float64Array.from([1, 0, 0, 1, 0]),
    Float64Array.from([1, 0.5, 1 / 3, 0, 0]),
  ],
};

/** The plain bootstrap: n answers drawn one by one, the score recomputed, nearest-rank percentiles. */
function plainBootstrap(rows: [number, number, number][], resamples: number, seed: number): [number, number] {
  const next = stream(seed);
  const n = rows.length;
  const values: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let [named, cited, inv] = [0, 0, 0];
    for (let i = 0; i < n; i++) {
      const row = rows[Math.floor(next() * n)];
      named += row[0];
      cited += row[1];
      inv += row[2];
    }
    values.push(100 * (0.6 * (named / n) + 0.25 * (cited / n) + 0.15 * (named ? inv / named : 0)));
  }
  values.sort((a, b) => a - b);
  const at = (q: number) => values[Math.max(0, Math.ceil(q * resamples) - 1)];
  return [at(0.025), at(0.975)];
}

test('the interval is deterministic for a seed, and another seed moves it', (t) => {
  const first = interval({ of: scorePatterns });
  t.deepEqual(interval({ of: scorePatterns }), first);
  t.deepEqual(interval({ of: scorePatterns }, { seed: 20 }), first, 'the default seed is 20');
  t.notDeepEqual(interval({ of: scorePatterns }, { seed: 21 }), first);
});

test('the bootstrap over patterns agrees with a plain bootstrap over the answers', (t) => {
  const [lo, hi] = interval({ of: scorePatterns }, { resamples: 4000 })!;
  const [plo, phi] = plainBootstrap(answers, 4000, 7);
  // The score is about 43.8; both estimate the same spread (about +/- 3.5 points), each from 4,000
  // resamples, so their percentiles differ by sampling noise of a few tenths.
  t.true(Math.abs(lo - plo) < 0.6 && Math.abs(hi - phi) < 0.6, `${lo}-${hi} against ${plo}-${phi}`);
});

test('a rate resampled lands near its Wilson interval; a constant figure has a point interval', (t) => {
  const rate: Patterns = {
    figure: 'sentiment',
    // named, positive, negative: net sentiment = 100 x (positive - negative) / named = share positive here.
    counts: Float64Array.from([300, 700]),
    columns: [Float64Array.from([1, 1]), Float64Array.from([1, 0]), Float64Array.from([0, 0])],
  };
  const [lo, hi] = interval({ of: rate })!;
  const w = wilson(300, 1000).ci95!;
  t.true(Math.abs(lo - w[0]) <= 1 && Math.abs(hi - w[1]) <= 1, `${lo}-${hi} against ${w}`);
  const constant: Patterns = {
    figure: 'position',
    counts: Float64Array.from([50]),
    columns: [Float64Array.from([1]), Float64Array.from([2])],
  };
  t.deepEqual(interval({ of: constant }), [2, 2]);
});

test('undefined resamples are left out; no answers or never defined is null', (t) => {
  const none: Patterns = {
    figure: 'position',
    counts: new Float64Array(),
    columns: [new Float64Array(), new Float64Array()],
  };
  t.is(interval({ of: none }), null);
  const neverNamed: Patterns = {
    figure: 'position',
    counts: Float64Array.from([9]),
    columns: [Float64Array.from([0]), Float64Array.from([0])],
  };
  t.is(interval({ of: neverNamed }), null);
  t.is(interval({ current: scorePatterns, previous: none }), null);
});

test('the interval of a difference is centred on it, and of a period against itself straddles 0', (t) => {
  const same = interval({ current: scorePatterns, previous: scorePatterns })!;
  t.true(same[0] < 0 && same[1] > 0, `${same}`);
  // The same answers with 100 more never named: the score falls by a sixth.
  const diluted: Patterns = { ...scorePatterns, counts: Float64Array.from([120, 80, 50, 30, 420]) };
  const [lo, hi] = interval({ current: diluted, previous: scorePatterns })!;
  const drop = 43.8 * (600 / 700) - 43.8;
  t.true(lo < drop && hi > drop && hi < 0, `${lo}-${hi} around ${drop}`);
});

test('the pool computes on a thread what the function computes, and bounds each organization', async (t) => {
  const pool = new ResamplePool(1);
  const jobs = [{ of: scorePatterns }, { current: scorePatterns, previous: scorePatterns }];
  t.deepEqual(await pool.intervals('org-a', jobs), [interval(jobs[0]), interval(jobs[1])]);
  const inHand = Array.from({ length: MAX_IN_HAND }, () => pool.intervals('org-a', jobs));
  const refused = await t.throwsAsync(pool.intervals('org-a', jobs));
  t.is((refused as { status?: number }).status, 429);
  // Another organization still gets its turn.
  t.deepEqual(await pool.intervals('org-b', [jobs[0]]), [interval(jobs[0])]);
  await Promise.all(inHand);
  t.deepEqual(await pool.intervals('org-a', [jobs[0]]), [interval(jobs[0])]);
});
