// Tracking id -> brand: one query per id while cached, unknown ids cached briefly, errors not cached.
import test from 'ava';
import { createSiteResolver } from '../../src/traffic/sites.ts';

function fakePg(ids: Record<string, string>, opts: { fail?: boolean } = {}) {
  const calls: string[] = [];
  return {
    calls,
    fail: opts.fail ?? false,
    async query(_sql: string, params?: unknown[]) {
      calls.push(String(params?.[0]));
      if (this.fail) throw new Error('down');
      const id = ids[String(params?.[0])];
      return { rows: id ? [{ id }] : [] } as any;
    },
  };
}

test('known ids are cached, concurrent look-ups share one query', async (t) => {
  const pg = fakePg({ as_known1: 'brand-1' });
  const sites = createSiteResolver(pg);
  const got = await Promise.all([sites.brandOf('as_known1'), sites.brandOf('as_known1'), sites.brandOf('as_known1')]);
  t.deepEqual(got, ['brand-1', 'brand-1', 'brand-1']);
  t.is(await sites.brandOf('as_known1'), 'brand-1');
  t.deepEqual(pg.calls, ['as_known1']);
});

test('unknown ids expire sooner than known ones', async (t) => {
  let now = 0;
  const pg = fakePg({ as_known1: 'brand-1' });
  const sites = createSiteResolver(pg, { knownTtlMs: 60_000, unknownTtlMs: 10_000, now: () => now });
  t.is(await sites.brandOf('as_nobody'), undefined);
  await sites.brandOf('as_known1');
  now = 20_000;
  await sites.brandOf('as_nobody');
  await sites.brandOf('as_known1');
  t.deepEqual(pg.calls, ['as_nobody', 'as_known1', 'as_nobody']);
});

test('a failed look-up is not cached', async (t) => {
  const pg = fakePg({ as_known1: 'brand-1' }, { fail: true });
  const sites = createSiteResolver(pg);
  await t.throwsAsync(sites.brandOf('as_known1'));
  pg.fail = false;
  t.is(await sites.brandOf('as_known1'), 'brand-1');
});
