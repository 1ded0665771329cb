// The analytics endpoints' input handling, paging and freshness.
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { get, seedTenant, startTestServer, uniq, type TestServer } from '../helpers/server.ts';
import { ingestFile } from '../../src/tracking/ingest/file.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

async function ingest(lines: object[]) {
  const file = path.join(server.dataDir, `${uniq('a')}.jsonl`);
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
  return ingestFile(server.stores, file);
}

const answer = (promptId: string, at: string, text: string) => ({
  prompt_id: promptId,
  platform: 'chatgpt',
  model: 'gpt-4o',
  region: 'US',
  collected_at: at,
  text,
  citations: [],
});

test('bad values are 400s that name the parameter; limits are clamped', async (t) => {
  const x = await seedTenant(server);
  const b = `brand_id=${x.brandId}`;
  const cases: [string, string][] = [
    [`/api/mcp/visibility-trend?${b}&granularity=month`, 'granularity must be one of: day, week'],
    [`/api/v1/citations?${b}&source_filter=mine`, 'source_filter must be one of: all, owned, competitor, external'],
    [
      `/api/mcp/prompt-performance?${b}&sort_by=fame`,
      'sort_by must be one of: visibility, mentions, citations, appearances, ai_visibility_score, mention_rate',
    ],
    [`/api/mcp/prompt-performance?${b}&order=up`, 'order must be one of: desc, asc'],
    [
      `/api/v1/visibility-summary?${b}&date_from=2026-02-30`,
      'date_from must be a date (YYYY-MM-DD) or an ISO 8601 timestamp',
    ],
    [`/api/v1/visibility-summary?${b}&date_to=soon`, 'date_to must be a date (YYYY-MM-DD) or an ISO 8601 timestamp'],
    [`/api/v1/citations?${b}&limit=lots`, 'limit must be an integer'],
    [`/api/v1/competitor-comparison?${b}&topic_id=abc`, 'topic_id must be a UUID'],
    [`/api/v1/shopping-cards?${b}&role=boss`, 'role must be one of: own, competitor, other'],
    [`/api/v1/shopping-cards?${b}&cursor=bm9wZQ`, 'cursor is invalid'],
    ['/api/v1/visibility-summary', 'brand_id is required'],
    ['/api/mcp/product-visibility?product_title=x', 'brand_id and product_title are required'],
    [`/api/mcp/product-visibility?${b}`, 'brand_id and product_title are required'],
  ];
  for (const [url, message] of cases) {
    const r = await get(server, url, x.key);
    t.is(r.status, 400, url);
    t.deepEqual(r.body, { error: message }, url);
  }
  for (const limit of ['0', '-5', '100000']) {
    t.is((await get(server, `/api/v1/citations?${b}&limit=${limit}`, x.key)).status, 200, `limit=${limit}`);
    t.is((await get(server, `/api/v1/prompt-performance?${b}&limit=${limit}`, x.key)).status, 200, `limit=${limit}`);
  }
});

test('unknown and foreign resources are 404s', async (t) => {
  const a = await seedTenant(server);
  const b = await seedTenant(server);
  for (const endpoint of [
    'visibility-summary',
    'visibility-trend',
    'competitor-comparison',
    'citations',
    'prompt-performance',
    'shopping-cards',
  ]) {
    const r = await get(server, `/api/v1/${endpoint}?brand_id=${b.brandId}`, a.key);
    t.deepEqual([r.status, r.body], [404, { error: 'Brand not found' }], endpoint);
  }
  const foreignTopic = await get(
    server,
    `/api/mcp/visibility-trend?brand_id=${a.brandId}&topic_id=${b.topicIds[0]}`,
    a.key,
  );
  t.deepEqual([foreignTopic.status, foreignTopic.body], [404, { error: 'Topic not found' }]);
  const noProduct = await get(server, `/api/mcp/product-visibility?brand_id=${a.brandId}&product_title=Nothing`, a.key);
  t.deepEqual([noProduct.status, noProduct.body], [404, { error: 'Product not found' }]);
});

test('a topic without prompts matches nothing', async (t) => {
  const x = await seedTenant(server, [
    { name: 'Acme', slug: 'acme', topics: [{ name: 'Empty' }, { name: 'Full', prompts: [{ text: 'q' }] }] },
  ]);
  await ingest([answer(x.promptIds[0], '2026-11-01T06:00:00Z', 'Acme')]);
  const r = await get(server, `/api/mcp/visibility-trend?brand_id=${x.brandId}&topic_id=${x.topicIds[0]}`, x.key);
  t.like(r.body, { granularity: 'day', buckets: [] });
  t.regex(r.body.analysis_versions[0], /^gen-\d+$/);
  const all = await get(server, `/api/mcp/visibility-trend?brand_id=${x.brandId}`, x.key);
  t.is(all.body.buckets.length, 1);
});

test('figures follow new data at once (the cache keys on the brand data version)', async (t) => {
  const x = await seedTenant(server);
  const url = `/api/v1/visibility-summary?brand_id=${x.brandId}`;
  t.is((await get(server, url, x.key)).body.totals.resultCount, 0);
  await ingest([answer(x.promptIds[0], '2026-11-01T06:00:00Z', 'Acme')]);
  t.is((await get(server, url, x.key)).body.totals.resultCount, 1);
  await ingest([answer(x.promptIds[0], '2026-11-01T07:00:00Z', 'Globex')]);
  const after = (await get(server, url, x.key)).body;
  t.is(after.totals.resultCount, 2);
  t.is(after.totals.mentionAnswers, 1);
});

test("an ingest of today's answers keeps cached figures of ranges that ended before today; an earlier day's answer does not", async (t) => {
  const x = await seedTenant(server);
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const today = day(0);
  await ingest([answer(x.promptIds[0], `${day(-3)}T06:00:00Z`, 'Acme')]);
  // Count the ClickHouse reads the operations make for this tenant (through its organization's view
  // of the store; the other tests of this file read at the same time, in their own lanes).
  let reads = 0;
  const { ch } = server.stores;
  const forCaller = ch.forCaller;
  ch.forCaller = (lane, gone) => {
    const view = forCaller.call(ch, lane, gone);
    if (lane !== x.organizationId) return view;
    const rows = view.rows;
    return {
      ...view,
      rows: ((q: Parameters<typeof rows>[0]) => {
        reads++;
        return rows.call(view, q);
      }) as typeof rows,
    };
  };
  t.teardown(() => {
    ch.forCaller = forCaller;
  });
  const past = `/api/v1/visibility-summary?brand_id=${x.brandId}&date_from=${day(-10)}&date_to=${day(-2)}`;
  const upToToday = `/api/v1/visibility-summary?brand_id=${x.brandId}&date_from=${day(-10)}&date_to=${today}`;
  const count = async (url: string) => (await get(server, url, x.key)).body.totals.resultCount;
  t.is(await count(past), 1);
  t.is(await count(upToToday), 1);

  // Today's answer: the range up to today is computed again, the past one is served as cached.
  await ingest([answer(x.promptIds[0], `${today}T00:00:01Z`, 'Acme')]);
  const before = reads;
  t.is(await count(past), 1);
  const pastReads = reads - before;
  t.is(await count(upToToday), 2);
  if (day(0) !== today) return t.log('the day changed during the test: the cache is not judged');
  t.is(pastReads, 0, 'the past range was read from ClickHouse again');
  t.true(reads > before);

  // An answer of a day inside the past range: its figures are computed again.
  await ingest([answer(x.promptIds[0], `${day(-2)}T06:00:00Z`, 'Acme')]);
  t.is(await count(past), 2);
  t.is(await count(upToToday), 3);
});

test('cursor paging walks 500 cards in pages of 7 without loss or repeats, with shared timestamps', async (t) => {
  const x = await seedTenant(server);
  // 100 shopping answers of 5 cards each: every 5 cards share their answer's timestamp, and every
  // 10 answers share one too.
  const answers = Array.from({ length: 100 }, (_, i) => ({
    ...answer(x.promptIds[0], `2026-11-${String(1 + Math.floor(i / 10)).padStart(2, '0')}T06:00:00Z`, 'shop'),
    id: `6d0c1f3e-0000-4000-8000-${String(i).padStart(12, '0')}`,
    mode: 'shopping',
    products: Array.from({ length: 5 }, (_, p) => ({
      position: p + 1,
      title: `Product ${i}-${p}`,
      brand: p === 0 ? 'Acme' : 'Other',
      price: 10 + p,
    })),
  }));
  const r = await ingest(answers);
  t.is(r.inserted, 100);
  const seen: string[] = [];
  const times: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = `/api/v1/shopping-cards?brand_id=${x.brandId}&limit=7${cursor ? `&cursor=${cursor}` : ''}`;
    const page = (await get(server, query, x.key)).body;
    t.true(page.cards.length <= 7);
    for (const c of page.cards) {
      seen.push(c.id);
      times.push(c.created_at);
    }
    cursor = page.next_cursor;
    pages++;
  } while (cursor && pages < 100);
  t.is(pages, 72); // 71 full pages and one of 3
  t.is(seen.length, 500);
  t.is(new Set(seen).size, 500);
  t.deepEqual(times, [...times].sort().reverse(), 'newest first');
  const own = (await get(server, `/api/v1/shopping-cards?brand_id=${x.brandId}&role=own&limit=200`, x.key)).body;
  t.is(own.cards.length, 100);
  t.truthy(own.next_cursor === null);
});

test('a replaced answer counts once in the daily rollup too, before and after merges', async (t) => {
  const x = await seedTenant(server);
  const id = '7e0c1f3e-0000-4000-8000-000000000001';
  const url = `/api/v1/competitor-comparison?brand_id=${x.brandId}&date_from=2026-11-01&date_to=2026-11-30`;
  await ingest([
    {
      ...answer(x.promptIds[0], '2026-11-01T06:00:00Z', 'Acme and Acme'),
      id,
      citations: [{ url: 'https://acme.example/a' }, { url: 'https://news.example/b' }],
    },
  ]);
  t.deepEqual((await get(server, url, x.key)).body.brand.total_mentions, 2);
  const cited = (await get(server, `/api/v1/citations?brand_id=${x.brandId}`, x.key)).body.totals;
  t.deepEqual(cited, { domains: 2, urls: 2, citations: 2, results_with_citations: 1, avg_citations_per_result: 2 });
  await ingest([{ ...answer(x.promptIds[0], '2026-11-02T06:00:00Z', 'Globex only'), id }]);
  const check = async () => {
    const body = (await get(server, url, x.key)).body;
    t.is(body.brand.total_mentions, 0);
    t.is(body.brand.appearance_count, 0);
    t.deepEqual(body.share_of_voice.total_competitor_mentions, 1);
    const citations = (await get(server, `/api/v1/citations?brand_id=${x.brandId}`, x.key)).body;
    t.deepEqual(citations.totals, {
      domains: 0,
      urls: 0,
      citations: 0,
      results_with_citations: 0,
      avg_citations_per_result: 0,
    });
    t.deepEqual([citations.top_domains, citations.top_urls], [[], []]);
    const trend = (
      await get(server, `/api/v1/visibility-trend?brand_id=${x.brandId}&date_from=2026-11-01&date_to=2026-11-30`, x.key)
    ).body;
    t.deepEqual(
      trend.buckets.map((b: any) => [b.date, b.result_count]),
      [['2026-11-02', 1]],
    );
  };
  await check();
  for (const table of ['answer_entities', 'entity_daily'])
    await server.stores.ch.command({ query: `OPTIMIZE TABLE ${table} FINAL` });
  // A wider range is a new cache key, so this reads the merged tables.
  const body = (
    await get(
      server,
      `/api/v1/competitor-comparison?brand_id=${x.brandId}&date_from=2026-10-01&date_to=2026-11-30`,
      x.key,
    )
  ).body;
  t.is(body.brand.total_mentions, 0);
  t.is(body.share_of_voice.total_competitor_mentions, 1);
});
