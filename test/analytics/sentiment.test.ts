// Sentiment per entity (docs/api.md section 13) against the running service: counts and net
// sentiment hand-computed on a small ingested set, the rollup and the raw rows agreeing, the three
// surfaces alike, tenancy, null where nothing is named, and re-analysis re-deriving the polarity.
// test-process: shared
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { get, ingestLines, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { applyWorkspace, parseWorkspace } from '../../src/tenancy/workspace.ts';
import { reanalyzeBrand } from '../../src/tracking/reanalysis/reanalyze.ts';
import { startReanalysis } from '../../src/tenancy/reanalysis-queue.ts';
import { connect } from '../mcp/client.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
});
test.after.always(async () => {
  await server?.stop();
});

const BRAND = (aliases: string[] = []) => ({
  name: 'Acme',
  slug: 'acme',
  aliases,
  domains: ['acme.example'],
  competitors: [
    { name: 'Globex', domains: ['globex.example'] },
    { name: 'Initech', domains: ['initech.example'] },
  ],
  topics: [{ name: 'CRM', prompts: [{ text: 'best crm' }, { text: 'cheap crm' }] }],
});

const line = (prompt: string, at: string, text: string, platform = 'chatgpt') => ({
  prompt_id: prompt,
  platform,
  model: platform === 'chatgpt' ? 'gpt-4o' : 'sonar',
  region: 'US',
  collected_at: at,
  text,
  citations: [],
});

/**
 * Acme named in 4 answers: positive 1, neutral 1, negative 2 -> net 100 x (1 - 2) / 4 = -25.
 * Globex in 2 (positive 1, negative 1 -> 0); Initech in 1 (positive -> 100).
 * Acme per platform: chatgpt/gpt-4o 2 (1 positive, 1 negative -> 0), perplexity/sonar 2
 * (1 neutral, 1 negative -> -50).
 */
async function tenant(): Promise<Tenant> {
  const x = await seedTenant(server, [BRAND()]);
  const [p1, p2] = x.promptIds;
  await ingestLines(server, [
    line(p1, '2026-05-01T08:00:00Z', 'Acme is excellent and reliable. Globex is overpriced and buggy.'),
    line(p1, '2026-05-01T09:00:00Z', 'Acme is not the best option for large teams.'),
    line(p2, '2026-05-01T10:00:00Z', 'Acme is a CRM founded in 2009.', 'perplexity'),
    line(p2, '2026-05-02T08:00:00Z', 'Globex is cheaper than Acme.', 'perplexity'),
    line(p2, '2026-05-02T09:00:00Z', 'Initech is great for small teams.'),
    line(p1, '2026-05-02T10:00:00Z', 'Nothing to see.'),
  ]);
  return x;
}

const sentiment = async (x: Tenant, query = '', surface = 'mcp') => {
  const r = await get(server, `/api/${surface}/sentiment?brand_id=${x.brandId}${query}`, x.key);
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

const counts = (assessed: number, positive: number, neutral: number, negative: number, net: number | null) => ({
  assessed,
  positive,
  neutral,
  negative,
  net_sentiment: net,
});

test('counts and net sentiment, hand-computed', async (t) => {
  const x = await tenant();
  const body = await sentiment(x);
  t.deepEqual(
    body.entities.map((e: any) => [e.name, e.is_brand, e.assessed, e.positive, e.neutral, e.negative, e.net_sentiment]),
    [
      ['Acme', true, 4, 1, 1, 2, -25],
      ['Globex', false, 2, 1, 0, 1, 0],
      ['Initech', false, 1, 1, 0, 0, 100],
    ],
  );
  t.is(body.entities[0].entity_id, x.brandId);
  t.deepEqual(body.by_platform, [
    { platform: 'chatgpt', model_used: 'gpt-4o', ...counts(2, 1, 0, 1, 0) },
    { platform: 'perplexity', model_used: 'sonar', ...counts(2, 0, 1, 1, -50) },
  ]);
});

test('the rollup (whole days) and the raw rows (an instant bound, a topic) give the same figures', async (t) => {
  const x = await tenant();
  const wholeDays = await sentiment(x, '&date_from=2026-05-01&date_to=2026-05-01');
  const instant = await sentiment(x, '&date_from=2026-05-01T00:00:00Z&date_to=2026-05-01T23:59:59.999Z');
  t.deepEqual(instant, wholeDays);
  // 1 May: Acme positive, negative, neutral -> 100 x 0 / 3 = 0; Globex negative -> -100.
  t.deepEqual(
    wholeDays.entities.map((e: any) => [e.name, e.assessed, e.net_sentiment]),
    [
      ['Acme', 3, 0],
      ['Globex', 1, -100],
      ['Initech', 0, null],
    ],
  );
  // The one topic holds both prompts, so a topic filter (read from the raw rows) changes nothing.
  t.deepEqual(await sentiment(x, `&topic_id=${x.topicIds[0]}`), await sentiment(x));
  t.deepEqual((await sentiment(x, '&model=sonar')).entities[0], {
    entity_id: x.brandId,
    name: 'Acme',
    is_brand: true,
    ...counts(2, 0, 1, 1, -50),
  });
});

test('nothing named: assessed 0 and net sentiment null', async (t) => {
  const x = await seedTenant(server, [BRAND()]);
  await ingestLines(server, [line(x.promptIds[0], '2026-05-03T08:00:00Z', 'No tracked name in this answer.')]);
  const body = await sentiment(x);
  t.deepEqual(body.entities[0], { entity_id: x.brandId, name: 'Acme', is_brand: true, ...counts(0, 0, 0, 0, null) });
  t.deepEqual(body.by_platform, [{ platform: 'chatgpt', model_used: 'gpt-4o', ...counts(0, 0, 0, 0, null) }]);
  t.deepEqual((await sentiment(await seedTenant(server, [BRAND()]))).by_platform, []);
});

test('REST, the Metrics API and MCP answer alike', async (t) => {
  const x = await tenant();
  const query = '&date_from=2026-05-01&date_to=2026-05-02&model=gpt-4o,sonar&region=US';
  const rest = await sentiment(x, query);
  t.deepEqual(await sentiment(x, query, 'v1'), rest);
  const client = await connect(server, x.key);
  const result: any = await client.callTool({
    name: 'get_sentiment',
    arguments: {
      brand_id: x.brandId,
      date_from: '2026-05-01',
      date_to: '2026-05-02',
      model: ['gpt-4o', 'sonar'],
      region: 'US',
    },
  });
  t.falsy(result.isError, JSON.stringify(result.content));
  t.deepEqual(result.structuredContent, rest);
  t.deepEqual(JSON.parse(result.content[0].text), rest);
  const foreign = await seedTenant(server);
  const denied: any = await client.callTool({ name: 'get_sentiment', arguments: { brand_id: foreign.brandId } });
  t.deepEqual([denied.isError, denied.content[0].text], [true, 'Brand not found']);
  await client.close();
});

test("another organization's brand is 404; bad input is 400 naming the parameter", async (t) => {
  const mine = await seedTenant(server);
  const theirs = await tenant();
  for (const surface of ['mcp', 'v1']) {
    const r = await get(server, `/api/${surface}/sentiment?brand_id=${theirs.brandId}`, mine.key);
    t.deepEqual([r.status, r.body], [404, { error: 'Brand not found' }], surface);
  }
  const unknown = await get(server, `/api/v1/sentiment?brand_id=${randomUUID()}`, mine.key);
  t.deepEqual([unknown.status, unknown.body], [404, { error: 'Brand not found' }]);
  const topic = await get(server, `/api/mcp/sentiment?brand_id=${mine.brandId}&topic_id=${randomUUID()}`, mine.key);
  t.deepEqual([topic.status, topic.body], [404, { error: 'Topic not found' }]);
  const order = await get(
    server,
    `/api/mcp/sentiment?brand_id=${mine.brandId}&date_from=2026-05-02&date_to=2026-05-01`,
    mine.key,
  );
  t.deepEqual([order.status, order.body], [400, { error: 'date_from must not be after date_to' }]);
  const day = await get(server, `/api/mcp/sentiment?brand_id=${mine.brandId}&date_from=2026-02-30`, mine.key);
  t.is(day.status, 400);
  t.regex(day.body.error, /date_from/);
  const none = await get(server, '/api/mcp/sentiment', mine.key);
  t.is(none.status, 400);
  t.regex(none.body.error, /brand_id/);
});

test('re-analysis re-derives sentiment: a new alias makes its sentences count for the brand', async (t) => {
  const x = await seedTenant(server, [BRAND()]);
  await ingestLines(server, [
    line(x.promptIds[0], '2026-05-04T08:00:00Z', 'AcmeCloud is buggy and overpriced. Acme is a CRM.'),
    line(x.promptIds[0], '2026-05-04T09:00:00Z', 'AcmeCloud is excellent.'),
  ]);
  t.deepEqual((await sentiment(x)).entities[0].assessed, 1);
  t.deepEqual((await sentiment(x)).entities[0].neutral, 1);

  const workspace = structuredClone(x.workspace);
  workspace.organizations[0].brands[0] = BRAND(['AcmeCloud']);
  await applyWorkspace(server.stores.pg, parseWorkspace(workspace));
  await startReanalysis(server.stores.pg, x.brandId, 'test');
  await reanalyzeBrand(server.stores, x.brandId);
  // Now the first answer's negative sentence names the brand too (neutral + negative -> negative),
  // and the second answer names it, positively.
  t.deepEqual((await sentiment(x)).entities[0], {
    entity_id: x.brandId,
    name: 'Acme',
    is_brand: true,
    ...counts(2, 1, 0, 1, 0),
  });
});
