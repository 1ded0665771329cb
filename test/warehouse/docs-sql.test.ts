// docs/warehouse.md held to its word: every column it lists is the view's column with that type,
// and every named SQL block, run on the views, gives the Metrics API's figures for the same brand
// and date range (whole history, single days, an empty range; an edited re-import; two tenants).
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { get, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { goldenTenant } from './fixture.ts';

const DOC = fs.readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/warehouse.md'),
  'utf8',
);

/** Fenced ```sql blocks whose first line is `-- name: NAME`. */
const BLOCKS = new Map([...DOC.matchAll(/```sql\n-- name: (\w+)\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]));

const VIEWS = ['v_answers', 'v_answer_entities', 'v_citations', 'v_brand_daily', 'v_competitor_daily', 'v_ai_visits'];

const RANGES = [
  ['2026-11-01', '2026-11-30'],
  ['2026-11-02', '2026-11-03'],
  ['2026-11-03', '2026-11-03'],
  ['2026-11-09', '2026-11-09'],
  ['2025-01-01', '2025-01-31'],
];

let server: TestServer;
let acme: Tenant;
let edited: Tenant;

test.before(async () => {
  server = await startTestServer();
  acme = await goldenTenant(server);
  // A second tenant whose re-import changes four answers: the views must show the new content only.
  edited = await goldenTenant(server, {
    edit: (answers) => {
      answers[0].text = 'Nothing relevant here.';
      answers[0].citations = [];
      answers[2].text = 'Acme, Initech, Globex, Acme.';
      answers[5].citations = [{ url: 'https://www.g2.com/products/acme/reviews', title: 'Acme reviews' }];
      answers[9].text = 'Globex leads, then Acme Inc and Acme.';
    },
  });
});
test.after.always(async () => {
  await server?.stop();
});

async function api(t: Tenant, endpoint: string, query: string) {
  const r = await get(server, `/api/v1/${endpoint}?brand_id=${t.brandId}${query}`, t.key);
  if (r.status !== 200) throw new Error(`${endpoint}${query}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function block(name: string, t: Tenant, [from, to]: string[]): Promise<any[]> {
  const sql = BLOCKS.get(name);
  if (!sql) throw new Error(`docs/warehouse.md has no block named ${name}`);
  return server.stores.ch.system(sql, { brand_id: t.brandId, date_from: from, date_to: to });
}

const pick = (o: any, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));
/** Rows in one order on both sides: ClickHouse sorts UUIDs by their bytes, JavaScript by text. */
const byFigure = (key: string, id: string) => (rows: any[]) =>
  [...rows].sort((a, b) => b[key] - a[key] || a[id].localeCompare(b[id]));
const range = ([from, to]: string[]) => `&date_from=${from}&date_to=${to}`;

test('the documented blocks are all there', (t) => {
  t.deepEqual([...BLOCKS.keys()].sort(), [
    'ai_traffic_by_country',
    'ai_traffic_by_platform',
    'ai_traffic_top_pages',
    'ai_traffic_total',
    'citations_source_types',
    'citations_top_domains',
    'citations_totals',
    'competitor_comparison_brand',
    'competitor_figures',
    'prompt_performance',
    'share_of_voice',
    'share_of_voice_by_platform',
    'visibility_summary_totals',
    'visibility_trend_daily',
    'visibility_trend_weekly',
  ]);
});

test('every view column is documented with its type, and nothing else is', async (t) => {
  for (const view of VIEWS) {
    const section = DOC.split(`### \`${view}\``)[1]?.split('\n### ')[0] ?? '';
    const documented = [...section.matchAll(/^\| `(\w+)` \| `([^`]+)` \| .+ \|$/gm)].map((m) => `${m[1]} ${m[2]}`);
    const actual = (await server.stores.ch.system<{ name: string; type: string }>(`DESCRIBE TABLE ${view}`)).map(
      (c) => `${c.name} ${c.type}`,
    );
    t.deepEqual(documented, actual, view);
  }
});

test('the views hold live rows only: one row per answer after re-imports', async (t) => {
  const [answers] = await server.stores.ch.system<{ n: number; ids: number; shopping: number }>(
    'SELECT count() AS n, uniqExact(answer_id) AS ids, countIf(is_shopping = 1) AS shopping FROM v_answers WHERE brand_id = {b:UUID}',
    { b: acme.brandId },
  );
  t.deepEqual(answers, { n: 26, ids: 26, shopping: 2 });
  // The edited re-import: answer 1 (now text D, no citations) names nobody and cites nothing.
  const [first] = await server.stores.ch.system<any>(
    `SELECT brand_mentions, brand_named, brand_position, brand_citations, brand_score, answer_text FROM v_answers
     WHERE brand_id = {b:UUID} AND collected_at = '2026-11-02 06:00:00'`,
    { b: edited.brandId },
  );
  t.deepEqual(first, {
    brand_mentions: 0,
    brand_named: 0,
    brand_position: null,
    brand_citations: 0,
    brand_score: 0,
    answer_text: 'Nothing relevant here.',
  });
  const [entities] = await server.stores.ch.system<{ n: number }>(
    `SELECT count() AS n FROM v_answer_entities WHERE brand_id = {b:UUID} AND collected_at = '2026-11-02 06:00:00'`,
    { b: edited.brandId },
  );
  t.is(entities.n, 1, 'only the brand row of an answer that names and cites nobody');
});

test('visibility summary and competitor comparison', async (t) => {
  for (const tenant of [acme, edited]) {
    for (const r of RANGES) {
      const label = `${tenant === acme ? 'acme' : 'edited'} ${r}`;
      const summary = await api(tenant, 'visibility-summary', range(r));
      const comparison = await api(tenant, 'competitor-comparison', range(r));
      t.deepEqual((await block('visibility_summary_totals', tenant, r))[0], summary.totals, label);

      const { id: _id, name: _name, ...brand } = comparison.brand;
      t.deepEqual((await block('competitor_comparison_brand', tenant, r))[0], brand, label);

      const order = byFigure('total_mentions', 'competitor_id');
      const rows = order(await block('competitor_figures', tenant, r));
      const expected = comparison.competitors
        .filter((c: any) => c.total_mentions + c.total_citations > 0)
        .map(({ name: _n, ...c }: any) => c);
      t.deepEqual(rows, order(expected), label);
      // topCompetitors: the first five by mentions, as competitor_figures gives them.
      const names = new Map(comparison.competitors.map((c: any) => [c.competitor_id, c.name]));
      t.deepEqual(
        rows.slice(0, 5).map((c) => ({
          name: names.get(c.competitor_id),
          mentions: c.total_mentions,
          avgVisibility: c.avg_visibility_score,
          score: c.ai_visibility_score,
        })),
        summary.topCompetitors,
        label,
      );

      const { by_platform: byPlatform, ...overall } = comparison.share_of_voice;
      t.deepEqual((await block('share_of_voice', tenant, r))[0], overall, label);
      t.deepEqual(await block('share_of_voice_by_platform', tenant, r), byPlatform, label);
    }
  }
});

test('visibility trend, daily and weekly', async (t) => {
  for (const tenant of [acme, edited]) {
    for (const r of RANGES) {
      t.deepEqual(
        await block('visibility_trend_daily', tenant, r),
        (await api(tenant, 'visibility-trend', range(r))).buckets,
        `day ${r}`,
      );
      t.deepEqual(
        await block('visibility_trend_weekly', tenant, r),
        (await api(tenant, 'visibility-trend', `${range(r)}&granularity=week`)).buckets,
        `week ${r}`,
      );
    }
  }
});

test('citations: totals, source types and top domains', async (t) => {
  for (const tenant of [acme, edited]) {
    for (const r of RANGES) {
      const body = await api(tenant, 'citations', range(r));
      t.deepEqual((await block('citations_totals', tenant, r))[0], body.totals, `${r}`);
      t.deepEqual(await block('citations_source_types', tenant, r), body.source_type_breakdown, `${r}`);
      const domains = (await block('citations_top_domains', tenant, r)).map((d) => ({
        ...d,
        article_types: d.article_types.map(([type, count]: [string, number]) => ({ type, count })),
      }));
      t.deepEqual(domains, body.top_domains, `${r}`);
    }
  }
});

test('prompt performance', async (t) => {
  for (const tenant of [acme, edited]) {
    for (const r of RANGES) {
      const body = await api(tenant, 'prompt-performance', `${range(r)}&limit=100`);
      const order = byFigure('avg_visibility', 'prompt_id');
      const expected = body.prompts.map((p: any) =>
        pick(p, [
          'prompt_id',
          'result_count',
          'avg_visibility',
          'total_mentions',
          'total_citations',
          'avg_competitor_score',
        ]),
      );
      t.deepEqual(order(await block('prompt_performance', tenant, r)), order(expected), `${r}`);
    }
  }
});

test('AI traffic', async (t) => {
  for (const r of RANGES) {
    const body = await api(acme, 'ai-traffic', range(r));
    t.deepEqual((await block('ai_traffic_total', acme, r))[0], { total_visits: body.total_visits }, `${r}`);
    t.deepEqual(await block('ai_traffic_by_platform', acme, r), body.platform_breakdown, `${r}`);
    t.deepEqual(await block('ai_traffic_top_pages', acme, r), body.top_pages, `${r}`);
    t.deepEqual(await block('ai_traffic_by_country', acme, r), body.country_breakdown, `${r}`);
  }
  // Hand-checked: 24 visits in all, 10 on 9 Nov; 12 paths, of which the top 10 are listed.
  t.is((await block('ai_traffic_total', acme, RANGES[0]))[0].total_visits, 24);
  t.is((await block('ai_traffic_total', acme, RANGES[3]))[0].total_visits, 10);
  t.is((await block('ai_traffic_top_pages', acme, RANGES[0])).length, 10);
});
