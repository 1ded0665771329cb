// Tracking id -> brand and its domains: one query per id while cached, unknown ids cached briefly,
// errors not cached; and which pages count for a brand (docs/api.md section 9).
// test-process: shared
import test from 'ava';
import { createSiteResolver, pageOnSite } from '../../src/traffic/sites.ts';

function fakePg(ids: Record<string, string>, opts: { fail?: boolean; domains?: string[] } = {}) {
  const calls: string[] = [];
  return {
    calls,
    fail: opts.fail ?? false,
    async query(_sql: string, params?: unknown[]) {
      calls.push(String(params?.[0]));
      if (this.fail) throw new Error('down');
      const id = ids[String(params?.[0])];
      return { rows: id ? [{ id, domains: opts.domains ?? ['acme.example'] }] : [] } as any;
    },
  };
}

const brandOf = async (sites: ReturnType<typeof createSiteResolver>, id: string) => (await sites.siteOf(id))?.brandId;

test('known ids are cached, concurrent look-ups share one query', async (t) => {
  const pg = fakePg({ as_known1: 'brand-1' });
  const sites = createSiteResolver(pg);
  const got = await Promise.all([1, 2, 3].map(() => brandOf(sites, 'as_known1')));
  t.deepEqual(got, ['brand-1', 'brand-1', 'brand-1']);
  t.is(await brandOf(sites, 'as_known1'), 'brand-1');
  t.deepEqual(pg.calls, ['as_known1']);
});

test('unknown ids expire sooner than known ones', async (t) => {
  let now = 0;
  const pg = fakePg({ as_known1: 'brand-1' });
  const sites = createSiteResolver(pg, { knownTtlMs: 60_000, unknownTtlMs: 10_000, now: () => now });
  t.is(await brandOf(sites, 'as_nobody'), undefined);
  await brandOf(sites, 'as_known1');
  now = 20_000;
  await brandOf(sites, 'as_nobody');
  await brandOf(sites, 'as_known1');
  t.deepEqual(pg.calls, ['as_nobody', 'as_known1', 'as_nobody']);
});

test('a failed look-up is not cached', async (t) => {
  const pg = fakePg({ as_known1: 'brand-1' }, { fail: true });
  const sites = createSiteResolver(pg);
  await t.throwsAsync(brandOf(sites, 'as_known1'));
  pg.fail = false;
  t.is(await brandOf(sites, 'as_known1'), 'brand-1');
});

test("the brand's domains are normalised once, when the site is looked up", async (t) => {
  const pg = fakePg({ as_known1: 'brand-1' }, { domains: ['WWW.Acme.Example', 'https://shop.example/', ' '] });
  const site = await createSiteResolver(pg).siteOf('as_known1');
  t.deepEqual(site, { brandId: 'brand-1', domains: ['acme.example', 'shop.example'] });
});

test("pageOnSite: the brand's domains and their sub-domains, by whole labels, any port, with or without www.", (t) => {
  const site = { brandId: 'b', domains: ['acme.example', 'shop.example'] };
  const on = [
    'https://acme.example/',
    'https://blog.acme.example/x',
    'http://WWW.ACME.EXAMPLE:8080/',
    'https://acme.example./',
    'https://a.b.shop.example/',
    'https://www.shop.example/p?q=1',
  ];
  const off = [
    'https://acme.example.evil.com/',
    'https://evilacme.example/',
    'https://www.evilacme.example/',
    'https://example/',
    'https://acme.example@evil.com/',
    'https://evil.com/acme.example',
    'https://evil.com/?acme.example',
    'https://cme.example/',
    'https://wwwacme.example/',
    'http://[::1]/',
    'not a url',
    '',
  ];
  for (const url of on) t.true(pageOnSite(url, site), url);
  for (const url of off) t.false(pageOnSite(url, site), url);
  // A brand without domains has no page on which a beacon counts.
  t.false(pageOnSite('https://acme.example/', { brandId: 'b', domains: [] }));
});
