// The interval arithmetic alone: Wilson score intervals against values computed by hand, and the
// seeded bootstrap's determinism, its dependence on the seed, and its percentiles on known data.
import test from 'ava';
import { bootstrap, RESAMPLES, wilson, type Statistic } from '../../src/analytics/intervals.ts';

// By hand, z = 1.96, z^2 = 3.8416, d = 1 + z^2/n, centre = (p + z^2/2n) / d,
// half = (z / d) x sqrt(p(1-p)/n + z^2/4n^2):
// n = 10, k = 5: d = 1.38416, centre = 0.5, half = 1.41602 x sqrt(0.025 + 0.009604) = 0.26341.
// n = 10, k = 0: centre = 0.19208 / 1.38416 = 0.138770, half = 1.41602 x 0.098 = 0.138770.
// n = 10, k = 1: centre = 0.29208 / 1.38416 = 0.211016, half = 1.41602 x sqrt(0.009 + 0.009604) = 0.193143.
// n = 10, k = 3: centre = 0.49208 / 1.38416 = 0.355508, half = 1.41602 x sqrt(0.021 + 0.009604) = 0.247719.
// n = 100, k = 50: d = 1.038416, centre = 0.5, half = 1.887487 x sqrt(0.0025 + 0.00009604) = 0.096177.
test('Wilson intervals equal the hand-computed values, in percent to 1 decimal', (t) => {
  t.deepEqual(wilson(5, 10), { value: 50, ci95: [23.7, 76.3] });
  t.deepEqual(wilson(0, 10), { value: 0, ci95: [0, 27.8] });
  t.deepEqual(wilson(10, 10), { value: 100, ci95: [72.2, 100] });
  t.deepEqual(wilson(1, 10), { value: 10, ci95: [1.8, 40.4] });
  t.deepEqual(wilson(3, 10), { value: 30, ci95: [10.8, 60.3] });
  t.deepEqual(wilson(50, 100), { value: 50, ci95: [40.4, 59.6] });
  // The bounds never leave 0-100 and 0 of n starts at exactly 0 (not -0).
  t.true(Object.is(wilson(0, 3).ci95![0], 0));
});

test('no answers: value and interval are null', (t) => {
  t.deepEqual(wilson(0, 0), { value: null, ci95: null });
  const mean: Statistic = { answers: new Int32Array(), columns: [new Float64Array()], figure: () => 0 };
  t.deepEqual(bootstrap(0, [mean]), [null]);
});

/** The mean of a 0/1 column in percent, over answers of which the first `ones` are 1. */
function rate(ones: number): Statistic {
  return {
    answers: Int32Array.from({ length: ones }, (_, i) => i),
    columns: [new Float64Array(ones).fill(1)],
    figure: (s, total) => (100 * s[0]) / total,
  };
}

test('the bootstrap is deterministic for a seed, and another seed gives another interval', (t) => {
  const stats = [rate(37), rate(120)];
  const first = bootstrap(200, stats);
  t.deepEqual(bootstrap(200, stats), first);
  t.deepEqual(bootstrap(200, stats, { seed: 20 }), first, 'the default seed is 20');
  const other = bootstrap(200, stats, { seed: 21 });
  t.notDeepEqual(other, first);
});

test('bootstrap percentiles of a rate land near its Wilson interval and contain the value', (t) => {
  const [ci] = bootstrap(1000, [rate(300)]);
  const w = wilson(300, 1000).ci95!;
  t.truthy(ci);
  const [lo, hi] = ci!;
  t.true(lo < 30 && hi > 30, `${lo}-${hi}`);
  // Both estimate the same sampling spread (about +/- 2.8 points here).
  t.true(Math.abs(lo - w[0]) <= 1 && Math.abs(hi - w[1]) <= 1, `${lo}-${hi} against ${w}`);
});

test('a figure that never varies has a point interval; every resample has n draws', (t) => {
  // Every answer holds 1: any resample of n answers sums to n.
  const all: Statistic = {
    answers: Int32Array.from({ length: 50 }, (_, i) => i),
    columns: [new Float64Array(50).fill(1)],
    figure: (s) => s[0],
  };
  t.deepEqual(bootstrap(50, [all]), [[50, 50]]);
  // A ratio of two columns equal in every listed answer is constant, unless a resample misses all
  // of them: then it is 0 (share of voice without mentions). Listed in 3 answers of 10, a resample
  // misses them with probability 0.7^10 = 2.8%, more than 2.5%: the low bound is 0.
  const ratio = (answers: number[]): Statistic => ({
    answers: Int32Array.from(answers),
    columns: [new Float64Array(answers.length).fill(2), new Float64Array(answers.length).fill(2)],
    figure: (s) => (s[0] + s[1] === 0 ? 0 : (100 * s[0]) / (s[0] + s[1])),
  });
  t.deepEqual(bootstrap(10, [ratio([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])], { resamples: RESAMPLES }), [[50, 50]]);
  t.deepEqual(bootstrap(10, [ratio([0, 3, 7])]), [[0, 50]]);
});
