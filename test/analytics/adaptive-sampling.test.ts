// Adaptive sampling's rule (src/analytics/adaptive-sampling.ts), worked by hand: a cell gets
// max_samples while its 28-day Wilson half-width is over the target, min_samples once within it,
// and a daily limit cuts the narrowest cells first.
// test-process: shared
import test from 'ava';
import { cellSamples, fitToLimit, halfWidth, planDay } from '../../src/analytics/adaptive-sampling.ts';

const settings = { min_samples: 1, max_samples: 5, target_half_width: 5 };

test('the half-width is the Wilson interval of the mention rate, halved, in points', (t) => {
  // 50 of 100: Wilson 95% interval 40.4-59.6 (rounded), half-width 9.6.
  t.is(halfWidth({ answers: 100, named: 50 }), 9.6);
  // 0 of 400: 0.0-1.0, half-width 0.5 (the Wilson interval does not collapse at 0).
  t.is(halfWidth({ answers: 400, named: 0 }), 0.5);
  t.is(halfWidth({ answers: 0, named: 0 }), null);
});

test('wide cells get max_samples, narrow ones min_samples, unknown ones max_samples', (t) => {
  t.deepEqual(cellSamples({ answers: 100, named: 50 }, settings), { samples: 5, reason: 'interval_wide' });
  t.deepEqual(cellSamples({ answers: 400, named: 0 }, settings), { samples: 1, reason: 'interval_narrow' });
  t.deepEqual(cellSamples({ answers: 0, named: 0 }, settings), { samples: 5, reason: 'no_history' });
  // Exactly at the target is within it: 0 of 35 is 0.0-9.9, half-width 4.95, rounded interval 0-9.9.
  t.deepEqual(cellSamples({ answers: 35, named: 0 }, settings), { samples: 1, reason: 'interval_narrow' });
  t.deepEqual(cellSamples({ answers: 30, named: 0 }, settings), { samples: 5, reason: 'interval_wide' });
});

test('a daily limit cuts the narrowest wide cells to min_samples first, the cells staying in order', (t) => {
  const cells = [
    { answers: 100, named: 50 }, // half-width 9.6
    { answers: 400, named: 0 }, // narrow
    { answers: 30, named: 0 }, // wide, 5.7 (0-11.4)
    { answers: 0, named: 0 }, // unknown: widest of all
  ];
  t.deepEqual(planDay(cells, settings), [
    { samples: 5, reason: 'interval_wide' },
    { samples: 1, reason: 'interval_narrow' },
    { samples: 5, reason: 'interval_wide' },
    { samples: 5, reason: 'no_history' },
  ]);
  // 16 wanted, 12 allowed: the narrowest wide cell (the third) is cut by 4.
  t.deepEqual(planDay(cells, settings, 12), [
    { samples: 5, reason: 'interval_wide' },
    { samples: 1, reason: 'interval_narrow' },
    { samples: 1, reason: 'limit' },
    { samples: 5, reason: 'no_history' },
  ]);
  // 16 wanted, 14 allowed: the narrowest wide cell gives only the 2 needed.
  t.deepEqual(planDay(cells, settings, 14)[2], { samples: 3, reason: 'limit' });
  // 16 wanted, 3 allowed: every cell down to min_samples (4), then the narrowest, later first, to nothing.
  t.deepEqual(planDay(cells, settings, 3), [
    { samples: 1, reason: 'limit' },
    { samples: 0, reason: 'limit' },
    { samples: 1, reason: 'limit' },
    { samples: 1, reason: 'limit' },
  ]);
});

test('fixed cells (no width) are cut after adaptive ones, the later first, to 1 and then to nothing', (t) => {
  const fixed = { plan: { samples: 3, reason: 'fixed' as const }, floor: 1, width: null };
  const narrow = { plan: { samples: 1, reason: 'interval_narrow' as const }, floor: 1, width: 0.5 };
  t.deepEqual(fitToLimit([fixed, fixed, narrow], 7), [fixed.plan, fixed.plan, narrow.plan]);
  t.deepEqual(fitToLimit([fixed, fixed, narrow], 5), [
    { samples: 3, reason: 'fixed' },
    { samples: 1, reason: 'limit' },
    narrow.plan,
  ]);
  t.deepEqual(fitToLimit([fixed, fixed, narrow], 1), [
    { samples: 1, reason: 'limit' },
    { samples: 0, reason: 'limit' },
    { samples: 0, reason: 'limit' },
  ]);
  t.deepEqual(
    fitToLimit([fixed], -4).map((p) => p.samples),
    [0],
  );
});
