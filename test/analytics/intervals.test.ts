// The interval arithmetic alone: Wilson score intervals against values computed by hand, and
// Newcombe's hybrid score interval against the published worked example and a second
// implementation written here from the definitions (the bootstrap: resample.test.ts).
// test-process: shared
import test from 'ava';
import { newcombe, wilson } from '../../src/analytics/intervals.ts';
import { newcombeBySearch } from '../helpers/second-intervals.ts';

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
  t.is(newcombe(1, 0, 1, 10), null);
  t.is(newcombe(1, 10, 0, 0), null);
});

// Newcombe, "Interval estimation for the difference between independent proportions: comparison
// of eleven methods", Statistics in Medicine 17 (1998) 873-890, Table II, method 10 (the hybrid
// score interval), example (a): 56/70 - 48/80 = 0.2000, 95% interval 0.0524 to 0.3339.
// (Paper record: https://www.researchgate.net/publication/13687790, read 2026-11-27.)
test("Newcombe's interval reproduces the paper's worked example", (t) => {
  const [lo, hi] = newcombe(56, 70, 48, 80)!;
  t.is(lo.toFixed(4), '0.0524');
  t.is(hi.toFixed(4), '0.3339');
});

test("Newcombe's interval equals the second implementation, boundaries included", (t) => {
  for (const [k1, n1, k2, n2] of [
    [56, 70, 48, 80],
    [9, 10, 3, 10],
    [5, 56, 0, 29],
    [0, 10, 0, 20],
    [10, 10, 0, 20],
    [3, 25, 11, 24],
    [410, 1000, 380, 1000],
  ]) {
    const got = newcombe(k1, n1, k2, n2)!;
    const want = newcombeBySearch(k1, n1, k2, n2);
    t.true(Math.abs(got[0] - want[0]) < 1e-9 && Math.abs(got[1] - want[1]) < 1e-9, `${k1}/${n1} - ${k2}/${n2}`);
  }
});
