// test-process: shared
import test from 'ava';
import type { ClickHouse } from '../../src/stores/clickhouse.ts';
import { readsOnce } from '../../src/stores/reads-once.ts';
import { select, type ScopedQuery } from '../../src/stores/scoped-query.ts';
import { testBrandId } from '../helpers/brand-id.ts';
import type { BrandId } from '../../src/stores/scoped-query.ts';

const BRAND = testBrandId('0b5e2a3c-1d4f-4a6b-8c7d-9e0f1a2b3c4d');
const OTHER = testBrandId('1c6f3b4d-2e5a-4b7c-9d8e-0f1a2b3c4d5e');

const answers = (brandId: BrandId, from: string) =>
  select({ table: 'answers', scope: { brandId, from: new Date(from) } }, { select: 'count() AS n' });

test('each distinct scoped read runs once; another query, brand or bound runs on its own', async (t) => {
  const seen: ScopedQuery[] = [];
  const rows = async (q: ScopedQuery) => {
    seen.push(q);
    return [{ n: seen.length }];
  };
  const store = { rows } as unknown as ClickHouse;
  const ch = readsOnce(store);
  const first = await Promise.all([ch.rows(answers(BRAND, '2026-11-01')), ch.rows(answers(BRAND, '2026-11-01'))]);
  t.deepEqual(first, [[{ n: 1 }], [{ n: 1 }]]);
  t.deepEqual(await ch.rows(answers(OTHER, '2026-11-01')), [{ n: 2 }]);
  t.deepEqual(await ch.rows(answers(BRAND, '2026-11-02')), [{ n: 3 }]);
  t.deepEqual(await ch.rows(answers(BRAND, '2026-11-01')), [{ n: 1 }]);
  t.is(seen.length, 3);
  // The store it wraps is unchanged: its own reads are never shared.
  await store.rows(answers(BRAND, '2026-11-01'));
  t.is(seen.length, 4);
});
