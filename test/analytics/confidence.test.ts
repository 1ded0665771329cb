// visibility-confidence against the running service: its values are the summary's and the
// comparison's for the same filters, its Wilson intervals the hand-computed ones, its bootstrap
// deterministic; the three surfaces answer alike; tenancy, bad input, samples per slot and
// capture completeness (null for imported answers, computed from capture_runs rows).
// test-process: shared
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { get, ingestLines, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { visibilityConfidence } from '../../src/analytics/confidence.ts';
import { competitorsOf } from '../../src/tenancy/brands.ts';
import { connect } from '../mcp/client.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
});
test.after.always(async () => {
  await server?.stop();
});

const BRAND = {
  name: 'Acme',
  slug: 'acme',
  domains: ['acme.example'],
  competitors: [
    { name: 'Globex', domains: ['globex.example'] },
    { name: 'Initech', domains: ['initech.example'] },
  ],
  topics: [{ name: 'CRM', prompts: [{ text: 'best crm' }, { text: 'cheap crm' }] }],
};

const line = (
  prompt: string,
  at: string,
  text: string,
  platform = 'chatgpt',
  region = 'US',
  citations: string[] = [],
) => ({
  prompt_id: prompt,
  platform,
  model: platform === 'chatgpt' ? 'gpt-4o' : 'sonar',
  region,
  collected_at: at,
  text,
  citations: citations.map((url) => ({ url })),
});

/**
 * Ten answers: the brand named in 5 (6 mentions) and cited in 1; Globex named in 3, Initech in 2
 * (5 competitor mentions); six (prompt, platform, region, day) slots.
 */
async function tenWithAnswers(): Promise<Tenant> {
  const x = await seedTenant(server, [BRAND]);
  const [p1, p2] = x.promptIds;
  await ingestLines(server, [
    line(p1, '2026-05-01T08:00:00Z', 'Acme and Globex.'),
    line(p1, '2026-05-01T09:00:00Z', 'Globex, then Acme.'),
    line(p1, '2026-05-01T10:00:00Z', 'Acme.', 'perplexity', 'US', ['https://acme.example/pricing']),
    line(p2, '2026-05-01T11:00:00Z', 'Initech only.'),
    line(p2, '2026-05-01T12:00:00Z', 'Nothing here.'),
    line(p1, '2026-05-02T08:00:00Z', 'Acme Acme, Initech.'),
    line(p1, '2026-05-02T09:00:00Z', 'Globex.'),
    line(p2, '2026-05-02T10:00:00Z', 'Acme is good.', 'perplexity'),
    line(p2, '2026-05-02T11:00:00Z', 'None.', 'perplexity'),
    line(p2, '2026-05-02T12:00:00Z', 'Nobody.', 'chatgpt', 'DE'),
  ]);
  return x;
}

const confidence = async (x: Tenant, query = '', surface = 'mcp') => {
  const r = await get(server, `/api/${surface}/visibility-confidence?brand_id=${x.brandId}${query}`, x.key);
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

const summaryOf = async (x: Tenant, query = '') =>
  (await get(server, `/api/mcp/visibility-summary?brand_id=${x.brandId}${query}`, x.key)).body;
const comparisonOf = async (x: Tenant, query = '') =>
  (await get(server, `/api/mcp/competitor-comparison?brand_id=${x.brandId}${query}`, x.key)).body;

test('rates carry the hand-computed Wilson intervals; n and samples per slot are counted by hand', async (t) => {
  const x = await tenWithAnswers();
  const body = await confidence(x);
  t.is(body.n, 10);
  // 10 answers in 6 slots.
  t.is(body.samples_per_slot, 1.67);
  t.is(body.capture_completeness, null, 'imported answers only');
  const [brand, globex, initech] = body.entities;
  t.like(brand, { name: 'Acme', is_brand: true, entity_id: x.brandId });
  // 5 of 10 named: 23.7-76.3; 1 of 10 cited: 1.8-40.4 (test/analytics/intervals.test.ts has the arithmetic).
  t.deepEqual(brand.mention_rate, { value: 50, ci95: [23.7, 76.3] });
  t.deepEqual(brand.citation_rate, { value: 10, ci95: [1.8, 40.4] });
  // Competitors by mentions: Globex 3 of 10 (10.8-60.3), Initech 2 of 10; neither cited (0 of 10: 0-27.8).
  t.like(globex, { name: 'Globex', is_brand: false, mention_rate: { value: 30, ci95: [10.8, 60.3] } });
  t.deepEqual(globex.citation_rate, { value: 0, ci95: [0, 27.8] });
  t.is(initech.name, 'Initech');
  t.is(initech.mention_rate.value, 20);
  t.false('share_of_voice' in globex);
  // 6 brand mentions of 11.
  t.is(brand.share_of_voice.value, 54.5);
  for (const e of body.entities) {
    const [lo, hi] = e.ai_visibility_score.ci95;
    t.true(lo <= e.ai_visibility_score.value && e.ai_visibility_score.value <= hi, JSON.stringify(e));
    t.true(lo < hi, 'ten answers leave room for doubt');
  }
  const [lo, hi] = brand.share_of_voice.ci95;
  t.true(lo < 54.5 && 54.5 < hi);
});

test('values equal the summary and the comparison for the same filters', async (t) => {
  const x = await tenWithAnswers();
  for (const query of ['', '&date_from=2026-05-02&date_to=2026-05-02', '&model=sonar', '&region=US']) {
    const [body, summary, comparison] = await Promise.all([
      confidence(x, query),
      summaryOf(x, query),
      comparisonOf(x, query),
    ]);
    const totals = summary.totals;
    t.is(body.n, totals.resultCount, query);
    const [brand, ...competitors] = body.entities;
    t.is(brand.ai_visibility_score.value, totals.aiVisibilityScore, query);
    t.is(brand.mention_rate.value, Math.round((1000 * totals.mentionAnswers) / totals.resultCount) / 10, query);
    t.is(brand.citation_rate.value, Math.round((1000 * totals.citationAnswers) / totals.resultCount) / 10, query);
    t.is(brand.share_of_voice.value, comparison.share_of_voice.overall_sov_pct, query);
    t.deepEqual(
      competitors.map((c: any) => [c.entity_id, c.ai_visibility_score.value]),
      comparison.competitors.map((c: any) => [c.competitor_id, c.ai_visibility_score]),
      query,
    );
    for (const top of summary.topCompetitors) {
      t.is(competitors.find((c: any) => c.name === top.name).ai_visibility_score.value, top.score, query);
    }
  }
});

test('no answers: n 0, every value and interval null', async (t) => {
  const x = await tenWithAnswers();
  const body = await confidence(x, '&date_from=2027-01-01&date_to=2027-01-31');
  t.is(body.n, 0);
  t.is(body.samples_per_slot, null);
  for (const e of body.entities) {
    t.deepEqual(e.mention_rate, { value: null, ci95: null });
    t.deepEqual(e.ai_visibility_score, { value: null, ci95: null });
  }
  t.deepEqual(body.entities[0].share_of_voice, { value: null, ci95: null });
});

test('the bootstrap is deterministic on the same data; another seed moves it; a re-import counts once', async (t) => {
  const x = await tenWithAnswers();
  const brand = { id: x.brandId, name: 'Acme' };
  const competitors = await competitorsOf(server.stores.pg, x.brandId);
  const { rows } = await server.stores.pg.query('SELECT analysis_generation FROM brands WHERE id = $1', [x.brandId]);
  const f = { brandId: x.brandId, generation: rows[0].analysis_generation };
  // Computed afresh each time (no result cache here).
  const first = await visibilityConfidence(server.stores.ch, f, brand, competitors);
  t.deepEqual(await visibilityConfidence(server.stores.ch, f, brand, competitors), first);
  t.deepEqual(await visibilityConfidence(server.stores.ch, f, brand, competitors, { seed: 20 }), first);
  const reseeded = await visibilityConfidence(server.stores.ch, f, brand, competitors, { seed: 7 });
  t.notDeepEqual(
    reseeded.entities.map((e) => e.ai_visibility_score.ci95),
    first.entities.map((e) => e.ai_visibility_score.ci95),
  );
  // The same answer imported again (same derived id), with another text: still ten answers.
  await ingestLines(server, [line(x.promptIds[0], '2026-05-01T08:00:00Z', 'Globex alone.')]);
  const after = await confidence(x);
  t.is(after.n, 10);
  t.is(after.entities[0].mention_rate.value, 40);
  t.is(after.entities[0].ai_visibility_score.value, (await summaryOf(x)).totals.aiVisibilityScore);
});

test('REST, the Metrics API and MCP answer alike', async (t) => {
  const x = await tenWithAnswers();
  const query = '&date_from=2026-05-01&date_to=2026-05-02&model=gpt-4o,sonar';
  const rest = await confidence(x, query);
  t.deepEqual(await confidence(x, query, 'v1'), rest);
  const client = await connect(server, x.key);
  const result: any = await client.callTool({
    name: 'get_visibility_confidence',
    arguments: { brand_id: x.brandId, date_from: '2026-05-01', date_to: '2026-05-02', model: ['gpt-4o', 'sonar'] },
  });
  t.falsy(result.isError, JSON.stringify(result.content));
  t.deepEqual(result.structuredContent, rest);
  t.deepEqual(JSON.parse(result.content[0].text), rest);
  const foreign = await seedTenant(server);
  const denied: any = await client.callTool({
    name: 'get_visibility_confidence',
    arguments: { brand_id: foreign.brandId },
  });
  t.deepEqual([denied.isError, denied.content[0].text], [true, 'Brand not found']);
  await client.close();
});

test("another organization's brand is 404 on both REST surfaces", async (t) => {
  const mine = await seedTenant(server);
  const theirs = await tenWithAnswers();
  for (const surface of ['mcp', 'v1']) {
    const r = await get(server, `/api/${surface}/visibility-confidence?brand_id=${theirs.brandId}`, mine.key);
    t.deepEqual([r.status, r.body], [404, { error: 'Brand not found' }], surface);
  }
  const unknown = await get(server, `/api/v1/visibility-confidence?brand_id=${randomUUID()}`, mine.key);
  t.deepEqual([unknown.status, unknown.body], [404, { error: 'Brand not found' }]);
});

test('bad input is a 400 naming the parameter (docs/api.md section 9)', async (t) => {
  const x = await seedTenant(server);
  const b = `brand_id=${x.brandId}`;
  const many = Array.from({ length: 51 }, (_, i) => `m${i}`).join(',');
  const cases: [string, string][] = [
    ['', 'brand_id is required'],
    ['brand_id=acme', 'brand_id must be a UUID'],
    [`${b}&date_from=2026-02-30`, 'date_from must be a date (YYYY-MM-DD) or an ISO 8601 timestamp'],
    [`${b}&date_to=2100-01-01`, 'date_to must be between 2000-01-01 and 2099-12-31'],
    [`${b}&date_from=2026-05-02&date_to=2026-05-01`, 'date_from must not be after date_to'],
    [`${b}&model=${many}`, 'model accepts at most 50 values'],
  ];
  for (const [query, message] of cases) {
    const r = await get(server, `/api/v1/visibility-confidence?${query}`, x.key);
    t.deepEqual([r.status, r.body], [400, { error: message }], query);
  }
});

test('capture completeness: succeeded / planned capture slots of the days in range', async (t) => {
  const x = await tenWithAnswers();
  const [p1, p2] = x.promptIds;
  const run = (prompt: string, platform: string, region: string, day: string, status: string) =>
    server.stores.pg.query(
      `INSERT INTO capture_runs (id, organization_id, brand_id, prompt_id, platform, region, day, sample, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8)`,
      [randomUUID(), x.organizationId, x.brandId, prompt, platform, region, day, status],
    );
  await run(p1, 'chatgpt', 'US', '2026-05-01', 'succeeded');
  await run(p1, 'perplexity', 'US', '2026-05-01', 'succeeded');
  await run(p2, 'chatgpt', 'US', '2026-05-01', 'failed');
  await run(p2, 'perplexity', 'US', '2026-05-02', 'succeeded');
  await run(p2, 'chatgpt', 'DE', '2026-05-02', 'not_configured');
  await run(p1, 'chatgpt', 'US', '2026-05-03', 'failed');
  // Three of six planned slots succeeded; 2 of 3 on the first day; 3 of 4 in region US up to the second.
  t.is((await confidence(x)).capture_completeness, 50);
  t.is((await confidence(x, '&date_from=2026-05-01&date_to=2026-05-01')).capture_completeness, 66.7);
  t.is((await confidence(x, '&date_to=2026-05-02&region=US')).capture_completeness, 75);
  t.is((await confidence(x, '&date_from=2026-05-04')).capture_completeness, null);
});
