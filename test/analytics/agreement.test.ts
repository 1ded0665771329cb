// Agreement figures against a hand-worked example.
// test-process: shared
import test from 'ava';
import { agreementPercent, cohensKappa, meanAbsoluteDifference } from '../../src/analytics/agreement.ts';

/** n pairs of (a, b). */
const times = <T>(n: number, a: T, b: T): [T, T][] => Array.from({ length: n }, () => [a, b]);

test("Cohen's kappa and agreement, worked by hand", (t) => {
  // 50 answers: both yes 20, both no 15, tool yes / Answerscope no 5, tool no / Answerscope yes 10.
  // po = 35/50 = 0.7; tool yes 25/50 = 0.5, Answerscope yes 30/50 = 0.6;
  // pe = 0.5 x 0.6 + 0.5 x 0.4 = 0.5; kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4.
  const pairs = [
    ...times(20, true, true),
    ...times(15, false, false),
    ...times(5, true, false),
    ...times(10, false, true),
  ];
  t.is(agreementPercent(pairs), 70);
  t.is(cohensKappa(pairs), 0.4);
  // 10 answers: both yes 4, both no 3, 2 and 1 apart. po = 0.7; pa = 0.6, pb = 0.5;
  // pe = 0.3 + 0.2 = 0.5; kappa = 0.4 again; with 1 and 2 apart: pa 0.5, pb 0.6, the same.
  t.is(cohensKappa([...times(4, true, true), ...times(3, false, false), ...times(2, true, false), [false, true]]), 0.4);
  // Perfect agreement on a mix: 1. Opposite on every item, half yes each: po 0, pe 0.5, kappa -1.
  t.is(cohensKappa([...times(3, true, true), ...times(2, false, false)]), 1);
  t.is(cohensKappa([...times(2, true, false), ...times(2, false, true)]), -1);
  // Both say yes to everything: no chance agreement to go beyond, so no kappa; agreement 100%.
  t.is(cohensKappa(times(4, true, true)), null);
  t.is(agreementPercent(times(4, true, true)), 100);
  t.is(cohensKappa([]), null);
  t.is(agreementPercent([]), null);
});

test('mean absolute difference of positions, worked by hand', (t) => {
  // |1-1| + |2-3| + |4-1| + |2-2| = 4, over 4 pairs: 1.
  t.is(
    meanAbsoluteDifference([
      [1, 1],
      [2, 3],
      [4, 1],
      [2, 2],
    ]),
    1,
  );
  // |1-2| + |3-1| + |1-1| = 3 over 3: 1; |1-2| + |1-1| + |1-1| = 1 over 3: 0.33.
  t.is(
    meanAbsoluteDifference([
      [1, 2],
      [1, 1],
      [1, 1],
    ]),
    0.33,
  );
  t.is(meanAbsoluteDifference([]), null);
});
