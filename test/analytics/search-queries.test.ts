// search-queries against the running service: totals and top queries hand-computed on a small
// ingested set (unknown, [] and real fan-out; a shopping answer left out; a re-imported answer
// counted once, as its latest version); every filter; the three surfaces answer alike; tenancy and
// bad input as for the other figures.
// test-process: shared
import test from 'ava';
import { get, ingestLines, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { connect } from '../mcp/client.ts';
import { figuresOnly } from '../helpers/figures.ts';

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
  competitors: [{ name: 'Globex', domains: ['globex.example'] }],
  topics: [
    { name: 'CRM', prompts: [{ text: 'best crm' }, { text: 'cheap crm' }] },
    { name: 'Reviews', prompts: [{ text: 'acme reviews' }] },
  ],
};

const MODELS: Record<string, string> = {
  chatgpt: 'gpt-4o',
  perplexity: 'sonar',
  gemini: 'gemini-2.5-flash',
  claude: 'claude-sonnet-4',
};

const line = (prompt: string, at: string, platform: string, text: string, queries?: string[] | null, extra = {}) => ({
  prompt_id: prompt,
  platform,
  model: MODELS[platform],
  region: 'US',
  collected_at: at,
  text,
  ...(queries === undefined ? {} : { search_queries: queries }),
  ...extra,
});

/**
 * Seven answers count (the shopping one does not), six with known searches, five of them searched:
 *   1 p1 chatgpt   named      Best CRM, best  crm, CRM pricing -> best crm, crm pricing
 *   2 p1 perplexity           best crm
 *   3 p2 chatgpt   named      [] (answered without searching)
 *   4 p2 gemini DE            unknown
 *   5 p3 claude    named        CRM Pricing , acme reviews -> crm pricing, acme reviews
 *   7 p1 chatgpt              globex crm (re-imported: it was "Acme rocks", best crm)
 *   8 p2 perplexity named     best crm
 */
async function tenant(): Promise<Tenant> {
  const x = await seedTenant(server, [BRAND]);
  const [p1, p2, p3] = x.promptIds;
  await ingestLines(server, [
    line(p1, '2026-05-01T08:00:00Z', 'chatgpt', 'Acme is best.', ['Best CRM', 'best  crm', 'CRM pricing']),
    line(p1, '2026-05-01T09:00:00Z', 'perplexity', 'Globex wins.', ['best crm']),
    line(p2, '2026-05-02T08:00:00Z', 'chatgpt', 'Acme and Globex.', []),
    line(p2, '2026-05-02T09:00:00Z', 'gemini', 'Nothing.', undefined, { region: 'DE' }),
    line(p3, '2026-05-02T10:00:00Z', 'claude', 'Acme.', ['  CRM Pricing ', 'acme reviews']),
    line(p1, '2026-05-01T10:00:00Z', 'chatgpt', 'Acme CRM Pro', ['best crm'], { mode: 'shopping' }),
    line(p1, '2026-05-01T11:00:00Z', 'chatgpt', 'Acme rocks.', ['best crm']),
    line(p2, '2026-05-02T11:00:00Z', 'perplexity', 'Acme again.', ['best crm']),
  ]);
  // The same answer (same derived id) again: it now names no brand and ran another search.
  await ingestLines(server, [line(p1, '2026-05-01T11:00:00Z', 'chatgpt', 'Globex rocks.', ['globex crm'])]);
  return x;
}

const queries = async (x: Tenant, query = '', surface = 'mcp') => {
  const r = await get(server, `/api/${surface}/search-queries?brand_id=${x.brandId}${query}`, x.key);
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return figuresOnly(r.body);
};

const top = (query: string, answers: number, platforms: string[], brand_named_pct: number) => ({
  query,
  answers,
  platforms,
  brand_named_pct,
});

test('totals and top queries, hand-computed', async (t) => {
  const x = await tenant();
  t.deepEqual(await queries(x), {
    totals: {
      answers: 7,
      answers_known: 6,
      answers_with_search: 5,
      trigger_rate: 83.3,
      // 2 + 1 + 2 + 1 + 1: "Best CRM" and "best  crm" are one query of answer 1.
      queries: 7,
      avg_queries_per_search: 1.4,
    },
    top_queries: [
      top('best crm', 3, ['chatgpt', 'perplexity'], 66.7),
      top('crm pricing', 2, ['chatgpt', 'claude'], 100),
      top('acme reviews', 1, ['claude'], 100),
      top('globex crm', 1, ['chatgpt'], 0),
    ],
  });
});

test('every filter narrows the answers counted', async (t) => {
  const x = await tenant();
  const [, p2] = x.promptIds;
  const [crm, reviews] = x.topicIds;
  const totals = async (query: string) => (await queries(x, query)).totals;
  t.deepEqual(await totals(`&topic_id=${reviews}`), {
    answers: 1,
    answers_known: 1,
    answers_with_search: 1,
    trigger_rate: 100,
    queries: 2,
    avg_queries_per_search: 2,
  });
  t.deepEqual((await queries(x, `&topic_id=${reviews}`)).top_queries, [
    top('acme reviews', 1, ['claude'], 100),
    top('crm pricing', 1, ['claude'], 100),
  ]);
  t.deepEqual(await queries(x, `&prompt_id=${p2}`), {
    totals: {
      answers: 3,
      answers_known: 2,
      answers_with_search: 1,
      trigger_rate: 50,
      queries: 1,
      avg_queries_per_search: 1,
    },
    top_queries: [top('best crm', 1, ['perplexity'], 100)],
  });
  t.like(await totals('&model=gpt-4o'), { answers: 3, answers_known: 3, answers_with_search: 2, trigger_rate: 66.7 });
  t.like(await totals('&date_from=2026-05-02'), {
    answers: 4,
    answers_known: 3,
    queries: 3,
    avg_queries_per_search: 1.5,
  });
  t.like(await totals('&date_from=2026-05-01T08:30:00Z&date_to=2026-05-01T23:00:00Z'), { answers: 2, queries: 2 });
  // Searches unknown: no rate, no mean; nothing searched: no mean either.
  t.deepEqual(await queries(x, '&region=DE'), {
    totals: {
      answers: 1,
      answers_known: 0,
      answers_with_search: 0,
      trigger_rate: null,
      queries: 0,
      avg_queries_per_search: null,
    },
    top_queries: [],
  });
  t.like(await totals(`&prompt_id=${p2}&model=gpt-4o`), {
    answers_known: 1,
    trigger_rate: 0,
    avg_queries_per_search: null,
  });
  // A prompt outside the topic: nothing.
  t.like(await totals(`&topic_id=${reviews}&prompt_id=${p2}`), { answers: 0, trigger_rate: null });
  t.like(await totals(`&topic_id=${crm}&prompt_id=${p2}`), { answers: 3 });
  t.deepEqual(
    (await queries(x, '&limit=2')).top_queries.map((q: { query: string }) => q.query),
    ['best crm', 'crm pricing'],
  );
});

test('REST, the Metrics API and MCP answer alike', async (t) => {
  const x = await tenant();
  const query = `&date_from=2026-05-01&date_to=2026-05-02&model=gpt-4o,sonar&topic_id=${x.topicIds[0]}&limit=3`;
  const rest = await queries(x, query);
  t.is(rest.totals.answers, 5);
  t.deepEqual(await queries(x, query, 'v1'), rest);
  const client = await connect(server, x.key);
  const result: any = await client.callTool({
    name: 'list_search_queries',
    arguments: {
      brand_id: x.brandId,
      date_from: '2026-05-01',
      date_to: '2026-05-02',
      model: ['gpt-4o', 'sonar'],
      topic_id: x.topicIds[0],
      limit: 3,
    },
  });
  t.falsy(result.isError, JSON.stringify(result.content));
  t.deepEqual(figuresOnly(result.structuredContent as any), rest);
  t.deepEqual(figuresOnly(JSON.parse(result.content[0].text)), rest);
  const bad: any = await client.callTool({
    name: 'list_search_queries',
    arguments: { brand_id: x.brandId, limit: 'x' },
  });
  t.deepEqual([bad.isError, bad.content[0].text], [true, 'limit must be an integer']);
  await client.close();
});

test("another organization's brand or prompt is 404", async (t) => {
  const x = await tenant();
  const other = await seedTenant(server, [BRAND]);
  for (const surface of ['mcp', 'v1']) {
    const brand = await get(server, `/api/${surface}/search-queries?brand_id=${x.brandId}`, other.key);
    t.deepEqual([brand.status, brand.body], [404, { error: 'Brand not found' }]);
    const prompt = await get(
      server,
      `/api/${surface}/search-queries?brand_id=${x.brandId}&prompt_id=${other.promptIds[0]}`,
      x.key,
    );
    t.deepEqual([prompt.status, prompt.body], [404, { error: 'Prompt not found' }]);
  }
  const client = await connect(server, other.key);
  const denied: any = await client.callTool({ name: 'list_search_queries', arguments: { brand_id: x.brandId } });
  t.deepEqual([denied.isError, denied.content[0].text], [true, 'Brand not found']);
  await client.close();
});

test('bad input is a 400 naming the parameter; limits are clamped to 1-200', async (t) => {
  const x = await tenant();
  const b = `brand_id=${x.brandId}`;
  const cases: [string, string][] = [
    ['', 'brand_id is required'],
    [`${b}&date_from=2026-02-30`, 'date_from must be a date (YYYY-MM-DD) or an ISO 8601 timestamp'],
    [`${b}&date_to=1999-12-31`, 'date_to must be between 2000-01-01 and 2099-12-31'],
    [`${b}&date_from=2026-05-03&date_to=2026-05-01`, 'date_from must not be after date_to'],
    [`${b}&limit=lots`, 'limit must be an integer'],
    [`${b}&prompt_id=abc`, 'prompt_id must be a UUID'],
    [`${b}&topic_id=abc`, 'topic_id must be a UUID'],
    [`${b}&model=${Array.from({ length: 51 }, (_, i) => `m${i}`).join(',')}`, 'model accepts at most 50 values'],
  ];
  for (const [query, message] of cases) {
    for (const surface of ['mcp', 'v1']) {
      const r = await get(server, `/api/${surface}/search-queries?${query}`, x.key);
      t.deepEqual([r.status, r.body], [400, { error: message }], `${surface} ${query}`);
    }
  }
  t.is((await queries(x, '&limit=0')).top_queries.length, 1);
  t.is((await queries(x, '&limit=201')).top_queries.length, 4);
  const unknownTopic = await get(server, `/api/mcp/search-queries?${b}&topic_id=${x.promptIds[0]}`, x.key);
  t.deepEqual([unknownTopic.status, unknownTopic.body], [404, { error: 'Topic not found' }]);
});
