// Adaptive sampling's rule (src/analytics/adaptive-sampling.ts), worked by hand: a cell gets
// max_samples while its 28-day Wilson half-width is over the target, min_samples once within it,
// and a daily limit cuts the narrowest cells first.
// test-process: shared
import test from 'ava';
import { cellSamples, halfWidth, planDay, plannedCaptures } from '../../src/analytics/adaptive-sampling.ts';

const settings = { min_samples: 1, max_samples: 5, target_half_width: 5 };

test('the half-width is the Wilson interval of the mention rate, halved, in points', (t) => {
  // 50 of 100: Wilson 95% interval 40.4-59.6 (rounded), half-width 9.6.
  t.is(halfWidth({ answers: 100, named: 50 }), 9.6);
  // 0 of 400: 0.0-1.0, half-width 0.5 (the Wilson interval does not collapse at 0).
  t.is(halfWidth({ answers: 400, named: 0 }), 0.5);
  t.is(halfWidth({ answers: 0, named: 0 }), null);
});

test('wide cells get max_samples, narrow ones min_samples, unknown ones max_samples', (t) => {
  t.deepEqual(cellSamples({ answers: 100, named: 50 }, settings), { samples: 5, reason: 'wide' });
  t.deepEqual(cellSamples({ answers: 400, named: 0 }, settings), { samples: 1, reason: 'narrow' });
  t.deepEqual(cellSamples({ answers: 0, named: 0 }, settings), { samples: 5, reason: 'no_history' });
  // Exactly at the target is within it: 0 of 35 is 0.0-9.9, half-width 4.95, rounded interval 0-9.9.
  t.deepEqual(cellSamples({ answers: 35, named: 0 }, settings), { samples: 1, reason: 'narrow' });
  t.deepEqual(cellSamples({ answers: 30, named: 0 }, settings), { samples: 5, reason: 'wide' });
});

test('a daily limit cuts the narrowest wide cells to min_samples first, the cells staying in order', (t) => {
  const cells = [
    { answers: 100, named: 50 }, // half-width 9.6
    { answers: 400, named: 0 }, // narrow
    { answers: 30, named: 0 }, // wide, 5.7 (0-11.4)
    { answers: 0, named: 0 }, // unknown: widest of all
  ];
  t.deepEqual(planDay(cells, settings), [
    { samples: 5, reason: 'wide' },
    { samples: 1, reason: 'narrow' },
    { samples: 5, reason: 'wide' },
    { samples: 5, reason: 'no_history' },
  ]);
  // 16 wanted, 12 allowed: the narrowest wide cell (the third) is cut by 4.
  t.deepEqual(planDay(cells, settings, 12), [
    { samples: 5, reason: 'wide' },
    { samples: 1, reason: 'narrow' },
    { samples: 1, reason: 'limit' },
    { samples: 5, reason: 'no_history' },
  ]);
  t.deepEqual(plannedCaptures(cells, settings, 3), {
    fixed: 12,
    adaptive: 16,
    by_reason: { wide: 10, narrow: 1, no_history: 5 },
  });
  t.deepEqual(plannedCaptures(cells, settings, 3, 8), {
    fixed: 8,
    adaptive: 8,
    by_reason: { limit: 2, narrow: 1, no_history: 5 },
  });
});
