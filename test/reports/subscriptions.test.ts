// When a report's period ends: daily, the day before; weekly, the last whole ISO week (Monday to
// Sunday) that ended before today, whichever day of the week it is.
// test-process: shared
import test from 'ava';
import { lastPeriod } from '../../src/reports/subscriptions.ts';

test('a daily period is yesterday (UTC), at any hour of today', (t) => {
  t.deepEqual(lastPeriod('daily', new Date('2026-11-28T00:00:00Z')), { from: '2026-11-27', to: '2026-11-27' });
  t.deepEqual(lastPeriod('daily', new Date('2026-11-28T23:59:59Z')), { from: '2026-11-27', to: '2026-11-27' });
  t.deepEqual(lastPeriod('daily', new Date('2026-03-01T08:00:00Z')), { from: '2026-02-28', to: '2026-02-28' });
});

test('a weekly period is the last Monday-to-Sunday week that ended before today', (t) => {
  // 2026-11-28 is a Saturday: the week of 16-22 November ended last; on Sunday the 29th it is still
  // that week (the week of the 23rd ends only at the end of the 29th); on Monday the 30th it is the 23rd-29th.
  t.deepEqual(lastPeriod('weekly', new Date('2026-11-28T10:00:00Z')), { from: '2026-11-16', to: '2026-11-22' });
  t.deepEqual(lastPeriod('weekly', new Date('2026-11-29T23:00:00Z')), { from: '2026-11-16', to: '2026-11-22' });
  t.deepEqual(lastPeriod('weekly', new Date('2026-11-30T00:00:00Z')), { from: '2026-11-23', to: '2026-11-29' });
});
