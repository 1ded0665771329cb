// Which version a cached result is keyed by (src/operations/context.ts versionOf): history_version
// only once the range's last day ended over an hour ago, so clocks an hour apart never disagree.
// test-process: shared
import test from 'ava';
import { versionOf } from '../../src/operations/context.ts';
import type { BrandRecord } from '../../src/tenancy/brands.ts';

const brand = { data_version: 7, history_version: 3 } as BrandRecord;
const at = (iso: string) => new Date(iso);

test('a range that ended over an hour ago is keyed by history_version; any other by data_version', (t) => {
  const yesterdayEnd = at('2026-11-24T23:59:59.999Z');
  t.is(versionOf(brand, yesterdayEnd, at('2026-11-25T01:00:00.000Z')), 'h3');
  t.is(versionOf(brand, yesterdayEnd, at('2026-11-25T00:59:59.999Z')), 'd7');
  // A bound inside a day counts the whole day.
  t.is(versionOf(brand, at('2026-11-24T08:00:00.000Z'), at('2026-11-25T00:30:00.000Z')), 'd7');
  t.is(versionOf(brand, at('2026-11-25T08:00:00.000Z'), at('2026-11-25T12:00:00.000Z')), 'd7');
  t.is(versionOf(brand, undefined, at('2026-11-25T12:00:00.000Z')), 'd7');
});
