// AI traffic reads whole-day ranges from ai_visits_daily (clickhouse/019) and other ranges from the
// visits themselves (src/analytics/ai-traffic.ts). Visits over three months, on more pages than the
// top list holds and with ties at its cut, must give exactly the figures of ai_visits alone.
// test-process: shared
import test from 'ava';
import { seedTenant, sqlSent, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { aiTraffic, type AiTrafficQuery } from '../../src/analytics/ai-traffic.ts';

let server: TestServer;
let t0: Tenant;
let other: Tenant;

const PLATFORMS = ['chatgpt', 'perplexity', 'gemini', 'claude', 'copilot'];
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'XX', 'ES'];

test.before(async () => {
  server = await startTestServer();
  t0 = await seedTenant(server);
  other = await seedTenant(server);
  // 3,000 visits from 2026-01-10 to 2026-04-09 (one every 43 minutes), over 37 pages whose counts
  // repeat, so the top ten are cut inside a tie. Inserted in three blocks, so the rollup holds
  // rows of one day and key in several parts until it merges.
  const rows = Array.from({ length: 3000 }, (_, i) => {
    const ts = new Date(Date.UTC(2026, 0, 10) + i * 43 * 60_000).toISOString().replace('T', ' ').slice(0, 23);
    return {
      brand_id: i % 10 === 9 ? other.brandId : t0.brandId,
      ts,
      day: ts.slice(0, 10),
      platform: PLATFORMS[(i * 7) % 5],
      path: `/page/${(i * i) % 37}${i % 11 === 0 ? '/é' : ''}`,
      country: COUNTRIES[(i * 5) % 6],
      referrer_host: 'chatgpt.com',
    };
  });
  for (let k = 0; k < 3; k++) await server.stores.ch.insert('ai_visits', rows.slice(k * 1000, (k + 1) * 1000));
});
test.after.always(async () => {
  await server?.stop();
});

const range = (from?: string, to?: string): Partial<AiTrafficQuery> => ({
  ...(from ? { from: new Date(from) } : {}),
  ...(to ? { to: new Date(to) } : {}),
});

const cases: [string, Partial<AiTrafficQuery>, RegExp][] = [
  ['all time', {}, /FROM ai_visits_daily/],
  ['whole days', range('2026-02-01T00:00:00.000Z', '2026-03-15T23:59:59.999Z'), /FROM ai_visits_daily/],
  ['open start', range(undefined, '2026-02-20T23:59:59.999Z'), /FROM ai_visits_daily/],
  ['open end', range('2026-03-01T00:00:00.000Z'), /FROM ai_visits_daily/],
  ['one day', range('2026-02-11T00:00:00.000Z', '2026-02-11T23:59:59.999Z'), /FROM ai_visits_daily/],
  ['instants', range('2026-02-01T06:30:00.000Z', '2026-03-15T12:00:00.000Z'), /FROM ai_visits WHERE/],
];

for (const [name, bounds, reads] of cases) {
  test(`AI traffic from the daily rollup equals the visits: ${name}`, async (t) => {
    const q: AiTrafficQuery = { brandId: t0.brandId, ...bounds };
    t.regex(await sqlSent(server.stores.ch, (ch) => aiTraffic(ch, q)), reads);
    const figure = await aiTraffic(server.stores.ch, q);
    const raw = await aiTraffic(server.stores.ch, q, { raw: true });
    t.true(figure.total_visits > 0, 'the case has visits');
    t.is(figure.top_pages.length, 10);
    t.deepEqual(figure, raw);
  });
}

test('the rollup answers as the visits do after its parts merge, and holds no other brand', async (t) => {
  const before = await aiTraffic(server.stores.ch, { brandId: t0.brandId });
  await server.stores.ch.command({ query: 'OPTIMIZE TABLE ai_visits_daily FINAL' });
  t.deepEqual(await aiTraffic(server.stores.ch, { brandId: t0.brandId }), before);
  const theirs = await aiTraffic(server.stores.ch, { brandId: other.brandId });
  t.is(theirs.total_visits, 300);
  t.is(before.total_visits, 2700);
  // The visits' own count, so neither path can drift alone.
  const [{ n }] = await server.stores.ch.system<{ n: number }>(
    `SELECT count() AS n FROM ai_visits WHERE brand_id = '${t0.brandId}'`,
  );
  t.is(before.total_visits, Number(n));
});
