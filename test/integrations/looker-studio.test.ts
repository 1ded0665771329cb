// The Looker Studio connector run under Node (fake Apps Script services, real HTTP) against the
// running app with the golden answer set: each report's rows equal the Metrics API's figures for
// the same date range; the key travels only as the bearer header; API errors reach the user as
// user errors with the API's message.
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { get, seedTenant, type Tenant, type TestServer, startTestServer } from '../helpers/server.ts';
import { goldenTenant } from '../warehouse/fixture.ts';
import { CONNECTOR_DIR, ConnectorThrew, loadConnector, type Connector } from './apps-script/harness.ts';

let server: TestServer;
let acme: Tenant;
let stranger: Tenant;

test.before(async () => {
  server = await startTestServer();
  acme = await goldenTenant(server);
  stranger = await seedTenant(server);
});
test.after.always(async () => {
  await server?.stop();
});

const REPORTS = [
  'visibility_trend',
  'competitor_comparison',
  'share_of_voice',
  'citations_by_domain',
  'visibility_confidence',
  'sentiment',
  'prompt_performance',
  'search_queries',
  'ai_traffic',
  'shopping_cards',
];
const RANGES = [
  ['2026-11-01', '2026-11-30'],
  ['2026-11-02', '2026-11-03'],
  ['2026-11-09', '2026-11-09'],
];

/** A connector with the tenant's key set, as after Looker Studio's key prompt. */
async function connect(t: ExecutionContext, key = acme.key): Promise<Connector> {
  const c = await loadConnector();
  t.teardown(() => c.close());
  t.deepEqual(await c.call('setCredentials', { key }), { errorCode: 'NONE' });
  return c;
}

const config = (report: string, brandId: string = acme.brandId) => ({
  base_url: server.url,
  brand_id: brandId,
  report,
});

async function api(endpoint: string, query: string) {
  const r = await get(server, `/api/v1/${endpoint}?brand_id=${acme.brandId}${query}`, acme.key);
  if (r.status !== 200) throw new Error(`${endpoint}: ${r.status}`);
  return r.body;
}

/** getData with every field of the report's schema, as a list of {fieldId: value} objects. */
async function rows(c: Connector, report: string, [from, to]: string[], fieldIds?: string[]) {
  const { schema } = await c.call('getSchema', { configParams: config(report) });
  const ids = fieldIds ?? schema.map((f: any) => f.name);
  const data = await c.call('getData', {
    configParams: config(report),
    dateRange: { startDate: from, endDate: to },
    fields: ids.map((name: string) => ({ name })),
  });
  return data.rows.map((r: any) => Object.fromEntries(ids.map((id: string, i: number) => [id, r.values[i]])));
}

const compact = (date: string) => date.slice(0, 10).replaceAll('-', '');

async function userError(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e) => e,
  );
  if (!(err instanceof ConnectorThrew) || !err.userError) throw new Error(`expected a user error, got ${err}`);
  return err.userError.text;
}

test('the manifest declares a community connector with KEY auth', (t) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(CONNECTOR_DIR, 'appsscript.json'), 'utf8'));
  t.is(manifest.runtimeVersion, 'V8');
  t.deepEqual(manifest.oauthScopes, ['https://www.googleapis.com/auth/script.external_request']);
  for (const key of ['name', 'company', 'companyUrl', 'logoUrl', 'addOnUrl', 'supportUrl', 'description'])
    t.truthy(manifest.dataStudio[key], key);
  t.true(manifest.dataStudio.name.length <= 28);
  t.deepEqual(manifest.dataStudio.authType, ['KEY']);
});

test('auth: KEY type; the key is checked for its form, kept in user properties and reset', async (t) => {
  const c = await loadConnector();
  t.teardown(() => c.close());
  t.is((await c.call('getAuthType')).type, 'KEY');
  t.false(await c.call('isAuthValid'));
  t.deepEqual(await c.call('setCredentials', { key: 'sk_live_123' }), { errorCode: 'INVALID_CREDENTIALS' });
  t.false(await c.call('isAuthValid'));
  t.deepEqual(await c.call('setCredentials', { key: ` ${acme.key} ` }), { errorCode: 'NONE' });
  t.true(await c.call('isAuthValid'));
  t.deepEqual(Object.values((await c.state()).userProperties), [acme.key]);
  await c.call('resetAuth');
  t.false(await c.call('isAuthValid'));
  t.deepEqual((await c.state()).userProperties, {});
  t.deepEqual((await c.state()).requests, [], 'setting a key sends nothing');
});

test("config: the service address first, then the user's brands and the reports", async (t) => {
  const c = await connect(t);
  const first = await c.call('getConfig', { languageCode: 'en' });
  t.true(first.isSteppedConfig);
  t.true(first.dateRangeRequired);
  t.deepEqual(
    first.configParams.map((p: any) => [p.name, p.type]),
    [
      ['instructions', 'INFO'],
      ['base_url', 'TEXTINPUT'],
    ],
  );
  t.true(first.configParams[1].isDynamic);

  const second = await c.call('getConfig', { languageCode: 'en', configParams: { base_url: `${server.url}/` } });
  t.false(second.isSteppedConfig);
  const byId = Object.fromEntries(second.configParams.map((p: any) => [p.name, p]));
  t.deepEqual(byId.brand_id.options, [{ label: 'Acme', value: acme.brandId }]);
  t.deepEqual(
    byId.report.options.map((o: any) => o.value),
    REPORTS,
  );
  const [request] = (await c.state()).requests;
  t.deepEqual(request, {
    url: `${server.url}/api/v1/brands`,
    method: 'GET',
    headers: { Authorization: `Bearer ${acme.key}`, Accept: 'application/json' },
  });

  t.regex(
    await userError(c.call('getConfig', { configParams: { base_url: 'ftp://example.com' } })),
    /must start with https:\/\//,
  );
});

test('schemas: every report declares typed dimensions and metrics with aggregations', async (t) => {
  const c = await connect(t);
  for (const report of REPORTS) {
    const { schema } = await c.call('getSchema', { configParams: config(report) });
    t.true(schema.length > 1, report);
    for (const f of schema) {
      t.truthy(f.semantics.semanticType, `${report}.${f.name}`);
      if (f.semantics.conceptType === 'METRIC') {
        t.is(f.dataType, 'NUMBER', `${report}.${f.name}`);
        t.true(['SUM', 'AVG'].includes(f.defaultAggregationType), `${report}.${f.name}`);
      }
    }
  }
  const trend = (await c.call('getSchema', { configParams: config('visibility_trend') })).schema;
  t.deepEqual(trend[0], {
    name: 'date',
    label: 'Date',
    description: 'UTC day of the answers',
    dataType: 'STRING',
    semantics: { conceptType: 'DIMENSION', semanticType: 'YEAR_MONTH_DAY' },
  });
  t.deepEqual(trend.find((f: any) => f.name === 'result_count').defaultAggregationType, 'SUM');
  t.regex(
    await userError(c.call('getSchema', { configParams: { ...config('visibility_trend'), report: 'nope' } })),
    /Pick a report/,
  );
});

test("visibility trend, competitor comparison, share of voice: the API's figures for the range", async (t) => {
  const c = await connect(t);
  for (const r of RANGES) {
    const q = `&date_from=${r[0]}&date_to=${r[1]}`;
    const trend = await api('visibility-trend', q);
    t.deepEqual(
      await rows(c, 'visibility_trend', r),
      trend.buckets.map((b: any) => ({ ...b, date: compact(b.date) })),
      `${r}`,
    );

    const comparison = await api('competitor-comparison', q);
    const { id, name, ...brand } = comparison.brand;
    t.deepEqual(
      await rows(c, 'competitor_comparison', r),
      [
        { entity: name, entity_id: id, entity_role: 'brand', ...brand },
        ...comparison.competitors.map(({ competitor_id, name: n, ...figures }: any) => ({
          entity: n,
          entity_id: competitor_id,
          entity_role: 'competitor',
          ...figures,
        })),
      ],
      `${r}`,
    );
    t.deepEqual(
      await rows(c, 'share_of_voice', r),
      comparison.share_of_voice.by_platform.map((p: any) => ({
        platform: p.platform,
        model: p.model_used,
        brand_mentions: p.brand_mentions,
        competitor_mentions: p.competitor_mentions,
        sov_pct: p.sov_pct,
      })),
      `${r}`,
    );
  }
});

test("citations by domain and prompt performance: the API's figures for the range", async (t) => {
  const c = await connect(t);
  for (const r of RANGES) {
    const q = `&date_from=${r[0]}&date_to=${r[1]}`;
    const citations = await api('citations', `${q}&limit=200`);
    t.deepEqual(
      await rows(c, 'citations_by_domain', r),
      citations.top_domains.map((d: any) => ({
        domain: d.domain,
        category: d.category,
        models: d.models.join(', '),
        top_article_type: d.article_types[0]?.type ?? null,
        total_citations: d.total_citations,
        results_citing: d.results_citing,
        usage_pct: d.usage_pct,
      })),
      `${r}`,
    );
    const prompts = await api('prompt-performance', `${q}&limit=100`);
    t.deepEqual(
      await rows(c, 'prompt_performance', r),
      prompts.prompts.map((p: any) => ({
        prompt: p.prompt_text,
        prompt_id: p.prompt_id,
        topic: p.topic_name,
        result_count: p.result_count,
        avg_visibility: p.avg_visibility,
        total_mentions: p.total_mentions,
        total_citations: p.total_citations,
        avg_competitor_score: p.avg_competitor_score,
      })),
      `${r}`,
    );
  }
});

test("visibility with 95% intervals: the API's figures and intervals, three columns per figure", async (t) => {
  const c = await connect(t);
  for (const r of RANGES) {
    const body = await api('visibility-confidence', `&date_from=${r[0]}&date_to=${r[1]}`);
    const columns = (id: string, figure: any) => ({
      [id]: figure?.value ?? null,
      [`${id}_low`]: figure?.ci95?.[0] ?? null,
      [`${id}_high`]: figure?.ci95?.[1] ?? null,
    });
    const expected = body.entities.map((e: any) => ({
      entity: e.name,
      entity_id: e.entity_id,
      entity_role: e.is_brand ? 'brand' : 'competitor',
      answers: body.n,
      ...columns('mention_rate', e.mention_rate),
      ...columns('citation_rate', e.citation_rate),
      ...columns('ai_visibility_score', e.ai_visibility_score),
      ...columns('share_of_voice', e.share_of_voice),
    }));
    t.true(expected.length > 1 && body.n > 0, `${r}`);
    t.deepEqual(await rows(c, 'visibility_confidence', r), expected, `${r}`);
  }
});

test("sentiment: the API's counts and net sentiment, one row per entity", async (t) => {
  const c = await connect(t);
  for (const r of RANGES) {
    const body = await api('sentiment', `&date_from=${r[0]}&date_to=${r[1]}`);
    const expected = body.entities.map((e: any) => ({
      entity: e.name,
      entity_id: e.entity_id,
      entity_role: e.is_brand ? 'brand' : 'competitor',
      assessed: e.assessed,
      positive: e.positive,
      neutral: e.neutral,
      negative: e.negative,
      net_sentiment: e.net_sentiment,
    }));
    t.true(expected.length > 1 && expected[0].assessed > 0, `${r}`);
    t.deepEqual(await rows(c, 'sentiment', r), expected, `${r}`);
  }
});

test("search queries: the API's top queries for the range, platforms joined", async (t) => {
  // Its own tenant, whose answers carry searches (the golden set's do not say).
  const x = await seedTenant(server);
  const line = (at: string, platform: string, text: string, queries: string[] | null) =>
    JSON.stringify({
      prompt_id: x.promptIds[0],
      platform,
      model: 'm',
      region: 'US',
      collected_at: at,
      text,
      search_queries: queries,
    });
  const file = path.join(server.dataDir, `looker-queries-${x.brandId}.jsonl`);
  fs.writeFileSync(
    file,
    [
      line('2026-11-02T08:00:00Z', 'chatgpt', 'Acme.', ['Best CRM', 'crm pricing']),
      line('2026-11-02T09:00:00Z', 'perplexity', 'Globex.', ['best crm']),
      line('2026-11-03T09:00:00Z', 'gemini', 'Acme.', null),
      line('2026-11-09T09:00:00Z', 'claude', 'Acme Inc.', ['acme reviews']),
    ].join('\n'),
  );
  const { ingestFile } = await import('../../src/tracking/ingest/file.ts');
  t.is((await ingestFile(server.stores, file)).inserted, 4);
  const c = await connect(t, x.key);
  for (const [from, to] of RANGES) {
    const body = await get(
      server,
      `/api/v1/search-queries?brand_id=${x.brandId}&date_from=${from}&date_to=${to}&limit=200`,
      x.key,
    );
    const ids = ['query', 'platforms', 'answers', 'brand_named_pct'];
    const data = await c.call('getData', {
      configParams: { base_url: server.url, brand_id: x.brandId, report: 'search_queries' },
      dateRange: { startDate: from, endDate: to },
      fields: ids.map((name) => ({ name })),
    });
    const got = data.rows.map((r: any) => Object.fromEntries(ids.map((id, i) => [id, r.values[i]])));
    t.deepEqual(
      got,
      body.body.top_queries.map((q: any) => ({ ...q, platforms: q.platforms.join(', ') })),
      `${from}`,
    );
    if (from === '2026-11-01') {
      t.deepEqual(got[0], { query: 'best crm', platforms: 'chatgpt, perplexity', answers: 2, brand_named_pct: 50 });
      t.is(got.length, 3);
    }
  }
});

test('AI traffic: one breakdown per chart, or the total', async (t) => {
  const c = await connect(t);
  for (const r of RANGES) {
    const body = await api('ai-traffic', `&date_from=${r[0]}&date_to=${r[1]}`);
    t.deepEqual(await rows(c, 'ai_traffic', r, ['platform', 'visits']), body.platform_breakdown, `${r}`);
    t.deepEqual(
      await rows(c, 'ai_traffic', r, ['visits', 'page_path']),
      body.top_pages.map((p: any) => ({ visits: p.visits, page_path: p.url })),
      `${r}`,
    );
    t.deepEqual(await rows(c, 'ai_traffic', r, ['country', 'visits']), body.country_breakdown, `${r}`);
    t.deepEqual(await rows(c, 'ai_traffic', r, ['visits']), [{ visits: body.total_visits }], `${r}`);
  }
  t.regex(
    await userError(rows(c, 'ai_traffic', RANGES[0], ['platform', 'country', 'visits'])),
    /only one of AI platform, Page path and Country/,
  );
});

test('shopping cards: paged by cursor, kept to the date range, newest first', async (t) => {
  const c = await connect(t);
  await c.set('SHOPPING_PAGE_SIZE', 1);
  const all: any[] = [];
  let cursor = '';
  do {
    const page = await api('shopping-cards', `&limit=200${cursor}`);
    all.push(...page.cards);
    cursor = page.next_cursor ? `&cursor=${page.next_cursor}` : '';
  } while (cursor);
  t.is(all.length, 3);
  for (const [from, to] of [...RANGES, ['2026-11-03', '2026-11-08']]) {
    const expected = all
      .filter((card) => card.created_at.slice(0, 10) >= from && card.created_at.slice(0, 10) <= to)
      .map((card) => ({
        date: compact(card.created_at),
        card_id: card.id,
        product_title: card.product_title,
        product_brand: card.product_brand,
        matched_brand_role: card.matched_brand_role,
        platform: card.platform,
        region: card.region,
        merchant_domain: card.merchant_domain,
        merchant_url: card.merchant_url,
        price_currency: card.price_currency,
        cards: 1,
        position: card.position,
        price_amount: card.price_amount,
        rating: card.rating,
        review_count: card.review_count,
      }));
    t.deepEqual(await rows(c, 'shopping_cards', [from, to]), expected, `${from}..${to}`);
  }
  const urls = (await c.state()).requests.map((r) => r.url).filter((u) => u.includes('shopping-cards'));
  t.true(
    urls.some((u) => /[?&]cursor=/.test(u)),
    'later pages ask with the cursor',
  );
  t.true(urls.every((u) => u.includes('limit=1')));
});

test('only the requested fields, in the requested order; the sample request fetches nothing', async (t) => {
  const c = await connect(t);
  const request = {
    configParams: config('visibility_trend'),
    dateRange: { startDate: '2026-11-01', endDate: '2026-11-30' },
    fields: [{ name: 'total_mentions' }, { name: 'date' }],
  };
  const data = await c.call('getData', request);
  t.deepEqual(
    data.schema.map((f: any) => f.name),
    ['total_mentions', 'date'],
  );
  t.deepEqual(data.rows, [{ values: [9, '20261102'] }, { values: [8, '20261103'] }, { values: [8, '20261109'] }]);

  const before = (await c.state()).requests.length;
  const sample = await c.call('getData', { ...request, scriptParams: { sampleExtraction: true } });
  t.deepEqual(sample.rows, []);
  t.is((await c.state()).requests.length, before);
});

test('the key is sent only as the bearer header; responses are cached a few minutes per user', async (t) => {
  const c = await connect(t);
  const request = {
    configParams: config('competitor_comparison'),
    dateRange: { startDate: '2026-11-01', endDate: '2026-11-30' },
    fields: [{ name: 'entity' }, { name: 'total_mentions' }],
  };
  const first = await c.call('getData', request);
  t.deepEqual(await c.call('getData', request), first);
  t.is((await c.state()).requests.length, 1, 'the second call is served from the cache');
  await c.advance(301);
  await c.call('getData', request);
  const { requests, cacheKeys } = await c.state();
  t.is(requests.length, 2, 'the cache entry expired');
  for (const r of requests) {
    t.false(r.url.includes(acme.key));
    t.deepEqual(r.headers, { Authorization: `Bearer ${acme.key}`, Accept: 'application/json' });
  }
  t.true(cacheKeys.every((k) => !k.includes(acme.key) && k.length <= 250));
  t.deepEqual(new URL(requests[0].url).searchParams.get('date_from'), '2026-11-01');
  t.deepEqual(new URL(requests[0].url).searchParams.get('date_to'), '2026-11-30');
});

test("API errors reach the user with the API's message", async (t) => {
  const bad = await connect(t, 'ans_not_a_real_key');
  t.is(
    await userError(bad.call('getConfig', { configParams: { base_url: server.url } })),
    'Answerscope: Invalid API key',
  );

  const c = await connect(t);
  const request = (report: string, brandId: string) => ({
    configParams: config(report, brandId),
    dateRange: { startDate: '2026-11-01', endDate: '2026-11-30' },
    fields: [{ name: 'date' }],
  });
  t.is(
    await userError(c.call('getData', request('visibility_trend', stranger.brandId))),
    'Answerscope: Brand not found',
  );
  const strangerConnector = await connect(t, stranger.key);
  t.is(
    await userError(strangerConnector.call('getData', request('shopping_cards', acme.brandId))),
    'Answerscope: Brand not found',
  );

  const unreachable = {
    ...request('visibility_trend', acme.brandId),
    configParams: { ...config('visibility_trend'), base_url: 'http://127.0.0.1:9' },
  };
  t.regex(await userError(c.call('getData', unreachable)), /^Could not reach Answerscope at http:\/\/127\.0\.0\.1:9/);

  await c.call('resetAuth');
  t.regex(
    await userError(c.call('getData', request('visibility_trend', acme.brandId))),
    /Enter your Answerscope API key/,
  );
});
