// The day helpers every module shares (src/instant.ts): days are UTC days, whatever the hour.
// test-process: shared
import test from 'ava';
import { addDays, DAY_MS, isoDay, parseIsoInstant } from '../src/instant.ts';

test('isoDay names the UTC day of a Date or of milliseconds, up to its last millisecond', (t) => {
  t.is(isoDay(new Date('2026-03-01T00:00:00.000Z')), '2026-03-01');
  t.is(isoDay(new Date('2026-02-28T23:59:59.999Z')), '2026-02-28');
  t.is(isoDay(Date.UTC(2028, 1, 29, 12)), '2028-02-29');
  // An offset moves the instant, so the UTC day, not the day written.
  t.is(isoDay(new Date('2026-01-01T01:00:00+02:00')), '2025-12-31');
});

test('addDays crosses months, leap days and years both ways', (t) => {
  t.is(addDays('2026-01-31', 1), '2026-02-01');
  t.is(addDays('2028-02-28', 1), '2028-02-29');
  t.is(addDays('2026-02-28', 1), '2026-03-01');
  t.is(addDays('2026-01-01', -1), '2025-12-31');
  t.is(addDays('2026-03-10', -14), '2026-02-24');
  t.is(addDays('2026-03-10', 0), '2026-03-10');
  t.is(addDays('2026-12-25', 365), '2027-12-25');
});

test('a bare day parses to its first millisecond, and DAY_MS later is the next day', (t) => {
  const start = parseIsoInstant('2026-10-25')!.ms;
  t.is(isoDay(start + DAY_MS - 1), '2026-10-25');
  t.is(isoDay(start + DAY_MS), '2026-10-26');
});
