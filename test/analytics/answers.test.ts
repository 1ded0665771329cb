// The answers explorer (docs/api.md section 11) against the running service: each answer shows
// exactly the analysis the tests of src/tracking/analysis/analyze.ts expect for its text, paging over equal
// timestamps neither skips nor repeats, the mentioned and domain filters, tenancy, the three surfaces, bad input.
// test-process: shared
import { randomBytes, randomUUID } from 'node:crypto';
import test from 'ava';
import { get, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { IngestCache, ingestBatch } from '../../src/tracking/ingest/batch.ts';
import { validateAnswer } from '../../src/tracking/ingest/answer-schema.ts';
import { toolsByName } from '../../src/mcp/tools.ts';
import { connect, restTwin } from '../mcp/client.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
});
test.after.always(async () => {
  await server?.stop();
});

/** The entities of test/tracking/analyze.test.ts: Acme (the brand), Globex and Initech. */
const ANALYSIS_BRAND = {
  name: 'Acme',
  slug: 'acme',
  industry: 'Software',
  region: 'US',
  domains: ['acme.com'],
  aliases: ['Acme CRM', 'AcmeSoft'],
  competitors: [
    { name: 'Globex', aliases: ['Globex Corporation'], domains: ['globex.com', 'globex.io'] },
    { name: 'Initech', aliases: [], domains: ['initech.net'] },
  ],
  topics: [{ name: 'CRM', prompts: [{ text: 'best crm for startups', platforms: ['chatgpt'], regions: ['US'] }] }],
};

async function ingest(lines: object[]) {
  const answers = lines.map((l) => {
    const v = validateAnswer(l);
    if (!v.ok) throw new Error(v.error);
    return v.answer;
  });
  return ingestBatch(server.stores, new IngestCache(server.stores), answers);
}

/** An answer line; `more` overrides or adds fields (an id, citations, a mode...). */
const line = (tenant: Tenant, at: string, text: string, more: Record<string, unknown> = {}): Record<string, any> => ({
  prompt_id: tenant.promptIds[0],
  platform: 'chatgpt',
  model: 'gpt-4o',
  region: 'US',
  collected_at: at,
  text,
  citations: [],
  ...more,
});

/** Every page of a list, following next_cursor. */
async function walk(tenant: Tenant, query: string, limit: number): Promise<any[]> {
  const seen: any[] = [];
  let cursor: string | null = null;
  do {
    const r = await get(
      server,
      `/api/mcp/answers?brand_id=${tenant.brandId}&limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`,
      tenant.key,
    );
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    seen.push(...r.body.answers);
    cursor = r.body.next_cursor;
  } while (cursor);
  return seen;
}

// [mentions, position, citations, score] per entity, as analyze.test.ts states them (position 0 there is null here).
type Expected = Record<'acme' | 'globex' | 'initech', [number, number | null, number, number]>;

test('every field of an answer is what the analysis tests expect for its text', async (t) => {
  const tenant = await seedTenant(server, [ANALYSIS_BRAND]);
  const [globexId, initechId] = tenant.competitorIds;
  const ids = { acme: tenant.brandId, globex: globexId, initech: initechId };
  const citationCase = [
    { url: 'https://www.acme.com/blog/?utm_source=chatgpt.com', title: '' },
    { url: 'https://acme.com/blog', title: 'Acme blog' },
    { url: 'https://docs.acme.com/start', title: 'Getting started' },
    { url: 'https://notacme.com/acme-review', title: null },
    { url: 'https://other.com/?ref=acme.com' },
    { url: 'https://globex.io/pricing#plans', title: 'Pricing' },
    { url: 'ftp://acme.com/file', title: 'dropped' },
    { url: 'garbage', title: 'dropped' },
    { url: 'https://old.reddit.com/r/crm/comments/1/acme', title: ' Is Acme good? ' },
    { url: 'https://ACME.com/blog#top', title: 'Later title' },
  ];
  const cases: {
    text: string;
    citations?: object[];
    expected: Expected;
    citationRows: object[];
    /** Sentiment of an entity named with a judgement; any other named entity is neutral. */
    judged?: { acme?: string };
  }[] = [
    {
      text:
        'For startups, Acme CRM is the easiest. Globex Corporation targets enterprises, while acme.com offers a free trial. ' +
        'AcmeSoft and ACME are the same vendor; globex is not.',
      expected: { acme: [4, 1, 0, 75], globex: [2, 2, 0, 67.5], initech: [0, null, 0, 0] },
      judged: { acme: 'positive' },
      citationRows: [],
    },
    {
      text: 'Initech, then Globex, then Acme, then Initech again.',
      // Named third: 60 + 15/3 = 65.
      expected: { acme: [1, 3, 0, 65], globex: [1, 2, 0, 67.5], initech: [2, 1, 0, 75] },
      citationRows: [],
    },
    {
      text: 'Initech, Globex, Acme.',
      citations: [{ url: 'https://acme.com/x' }],
      expected: { acme: [1, 3, 1, 90], globex: [1, 2, 0, 67.5], initech: [1, 1, 0, 75] },
      citationRows: [
        { url: 'https://acme.com/x', domain: 'acme.com', category: 'you', article_type: 'other', title: '' },
      ],
    },
    {
      text: 'Acme is named.',
      citations: citationCase,
      expected: { acme: [1, 1, 2, 100], globex: [0, null, 1, 25], initech: [0, null, 0, 0] },
      // analyze.test.ts's citations, in the stored order: the answer's first citation first, then by URL.
      citationRows: [
        {
          url: 'https://acme.com/blog',
          domain: 'acme.com',
          category: 'you',
          article_type: 'other',
          title: 'Acme blog',
        },
        {
          url: 'https://docs.acme.com/start',
          domain: 'docs.acme.com',
          category: 'you',
          article_type: 'documentation',
          title: 'Getting started',
        },
        {
          url: 'https://globex.io/pricing',
          domain: 'globex.io',
          category: 'competitor',
          article_type: 'other',
          title: 'Pricing',
        },
        {
          url: 'https://notacme.com/acme-review',
          domain: 'notacme.com',
          category: 'other',
          article_type: 'review',
          title: '',
        },
        {
          url: 'https://old.reddit.com/r/crm/comments/1/acme',
          domain: 'old.reddit.com',
          category: 'forum',
          article_type: 'discussion',
          title: 'Is Acme good?',
        },
        { url: 'https://other.com/', domain: 'other.com', category: 'other', article_type: 'homepage', title: '' },
      ],
    },
    {
      // "Acme" of "Acme Inc", "AcmeSoft" and "acme.com"; a competitor's product page (analyze.test.ts).
      text: 'Initech, Globex, Acme Inc and AcmeSoft; then acme.com.',
      citations: [{ url: 'https://shop.initech.net/products/widget', title: 'Widget' }],
      expected: { acme: [3, 3, 0, 65], globex: [1, 2, 0, 67.5], initech: [1, 1, 1, 100] },
      citationRows: [
        {
          url: 'https://shop.initech.net/products/widget',
          domain: 'shop.initech.net',
          category: 'competitor',
          article_type: 'product',
          title: 'Widget',
        },
      ],
    },
  ];
  const lines = cases.map((c, i) =>
    line(tenant, `2026-10-0${i + 1}T08:00:00.000Z`, c.text, { id: randomUUID(), citations: c.citations ?? [] }),
  );
  await ingest(lines);
  const listed = await walk(tenant, '', 100);
  t.is(listed.length, cases.length);
  // Newest first: the last line is the first answer.
  for (const [i, c] of [...cases].reverse().entries()) {
    const a = listed[i];
    const source = lines[cases.length - 1 - i];
    t.like(a, {
      id: source.id,
      prompt_id: tenant.promptIds[0],
      prompt_text: 'best crm for startups',
      platform: 'chatgpt',
      model_used: 'gpt-4o',
      region: 'US',
      mode: 'standard',
      collected_at: source.collected_at,
      text: c.text,
    });
    t.deepEqual(
      a.entities,
      (['acme', 'globex', 'initech'] as const).map((k) => ({
        entity_id: ids[k],
        name: { acme: 'Acme', globex: 'Globex', initech: 'Initech' }[k],
        is_brand: k === 'acme',
        mentions: c.expected[k][0],
        position: c.expected[k][1],
        citations: c.expected[k][2],
        score: c.expected[k][3],
        // Null where not named (docs/analysis.md, "Sentiment").
        sentiment: c.expected[k][0] > 0 ? ((c.judged as Record<string, string> | undefined)?.[k] ?? 'neutral') : null,
      })),
      c.text,
    );
    t.deepEqual(a.citations, c.citationRows, c.text);
    t.is(a.search_queries, null, 'a line without search_queries: unknown');
    // The single read is the same object.
    const one = await get(server, `/api/mcp/answers/${a.id}`, tenant.key);
    t.is(one.status, 200);
    t.deepEqual(one.body, a);
  }
});

test('500 answers of one instant: pages of any size neither skip nor repeat, while answers arrive', async (t) => {
  const tenant = await seedTenant(server);
  const at = '2026-09-15T12:00:00.000Z';
  const lines = Array.from({ length: 500 }, (_, i) =>
    line(tenant, at, `Answer ${i} about Acme.`, { id: randomUUID() }),
  );
  await ingest(lines);
  const expected = lines.map((l) => l.id).sort((a, b) => (a < b ? 1 : -1));
  for (const limit of [1, 7, 20, 100]) {
    if (limit === 1) {
      // Only the first 30 one-answer pages: enough to cross many cursors at one instant.
      const r = await get(server, `/api/v1/answers?brand_id=${tenant.brandId}&limit=1`, tenant.key);
      t.deepEqual(
        r.body.answers.map((a: any) => a.id),
        expected.slice(0, 1),
      );
      continue;
    }
    const ids = (await walk(tenant, '', limit)).map((a) => a.id);
    t.deepEqual(ids, expected, `limit ${limit}`);
  }

  // An id below the random ones above, and this run's own (other files' answers share the store).
  const lowest = `00000000-0000-4000-8000-${randomBytes(6).toString('hex')}`;
  // Mid-walk: an answer already passed is re-imported (same id and instant), a newer one and one of
  // the same instant arrive. The walk still shows each of the 500 once.
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r = await get(
      server,
      `/api/mcp/answers?brand_id=${tenant.brandId}&limit=50${cursor ? `&cursor=${cursor}` : ''}`,
      tenant.key,
    );
    seen.push(...r.body.answers.map((a: any) => a.id));
    cursor = r.body.next_cursor;
    if (++pages === 3) {
      const passed = lines.find((l) => l.id === seen[10])!;
      await ingest([
        { ...passed, text: `${passed.text} Edited.` },
        line(tenant, '2026-09-16T00:00:00.000Z', 'Newer', { id: randomUUID() }),
        line(tenant, at, 'Same instant', { id: lowest }),
      ]);
    }
  } while (cursor);
  t.is(new Set(seen).size, seen.length, 'no answer twice');
  for (const id of expected) t.true(seen.includes(id), id);
  // The late answer of the same instant sorts after every page passed, so it is read; the newer one is not.
  t.is(seen.length, 501);
  t.is(seen[500], lowest);
});

test('mentioned: the brand, one competitor, or no tracked entity; bad values are 400s', async (t) => {
  const tenant = await seedTenant(server, [ANALYSIS_BRAND]);
  const [globex, initech] = tenant.competitorIds;
  const texts = ['Acme only.', 'Globex only.', 'Acme and Initech.', 'Nobody at all.', 'Cited only.'];
  const lines = texts.map((text, i) =>
    line(tenant, `2026-08-0${i + 1}T00:00:00.000Z`, text, {
      id: randomUUID(),
      // Cited but not named: it names no entity.
      citations: text === 'Cited only.' ? [{ url: 'https://acme.com/' }] : [],
    }),
  );
  await ingest(lines);
  const texts_ = async (q: string) => (await walk(tenant, q, 100)).map((a) => a.text);
  t.deepEqual(await texts_('&mentioned=brand'), ['Acme and Initech.', 'Acme only.']);
  t.deepEqual(await texts_(`&mentioned=${globex}`), ['Globex only.']);
  t.deepEqual(await texts_(`&mentioned=${initech.toUpperCase()}`), ['Acme and Initech.']);
  t.deepEqual(await texts_('&mentioned=none'), ['Cited only.', 'Nobody at all.']);
  t.deepEqual(await texts_('&mentioned=none&date_to=2026-08-04'), ['Nobody at all.']);
  t.deepEqual(
    (await walk(tenant, '&mentioned=brand', 1)).map((a) => a.text),
    ['Acme and Initech.', 'Acme only.'],
  );

  const other = await seedTenant(server);
  const message = 'mentioned must be brand, none or a competitor id of the brand';
  for (const bad of ['Brand', 'globex', 'not-a-uuid']) {
    const r = await get(server, `/api/mcp/answers?brand_id=${tenant.brandId}&mentioned=${bad}`, tenant.key);
    t.is(r.status, 400, bad);
    t.deepEqual(r.body, { error: message }, bad);
  }
  // An id that is not one of the brand's competitors (the brand's own, another organization's, an
  // unknown one) names a competitor that is not there: 404, as every resource (docs/api.md section 28, Errors).
  for (const missing of [tenant.brandId, other.competitorIds[0], randomUUID()]) {
    const r = await get(server, `/api/mcp/answers?brand_id=${tenant.brandId}&mentioned=${missing}`, tenant.key);
    t.is(r.status, 404, missing);
    t.deepEqual(r.body, { error: 'Competitor not found' }, missing);
  }
});

test('domain: the answers citing it, as citations counts them, with the mentioned filter too, on every surface', async (t) => {
  const tenant = await seedTenant(server, [ANALYSIS_BRAND]);
  const [globex] = tenant.competitorIds;
  const cite = (...urls: string[]) => urls.map((url) => ({ url }));
  const rows: [string, { url: string }[]][] = [
    ['Globex leads.', cite('https://www.reviews.example/crm', 'https://reviews.example/other')],
    ['Acme wins.', cite('https://reviews.example/acme')],
    ['Nobody here.', cite('https://forum.example/t/1')],
    ['Globex again.', cite('https://sub.reviews.example/x')],
  ];
  await ingest(
    rows.map(([text, citations], i) => line(tenant, `2026-09-0${i + 1}T00:00:00.000Z`, text, { citations })),
  );
  const texts = async (q: string) => (await walk(tenant, q, 1)).map((a) => a.text);
  // Exactly that domain (a sub-domain is a domain of its own, as in citations), whatever case or www.
  t.deepEqual(await texts('&domain=reviews.example'), ['Acme wins.', 'Globex leads.']);
  t.deepEqual(await texts('&domain=WWW.Reviews.Example'), ['Acme wins.', 'Globex leads.']);
  t.deepEqual(await texts(`&domain=reviews.example&mentioned=${globex}`), ['Globex leads.']);
  t.deepEqual(await texts('&domain=reviews.example&mentioned=none'), []);
  t.deepEqual(await texts('&domain=forum.example&mentioned=none'), ['Nobody here.']);
  t.deepEqual(await texts('&domain=unknown.example'), []);
  // The figure a domain link comes from: citations' results_citing is the explorer's count.
  const figures = await get(server, `/api/mcp/citations?brand_id=${tenant.brandId}`, tenant.key);
  for (const d of figures.body.top_domains) {
    t.is((await walk(tenant, `&domain=${d.domain}`, 100)).length, d.results_citing, d.domain);
  }
  for (const bad of ['not a domain', '://']) {
    const r = await get(
      server,
      `/api/mcp/answers?brand_id=${tenant.brandId}&domain=${encodeURIComponent(bad)}`,
      tenant.key,
    );
    t.is(r.status, 400, bad);
    t.deepEqual(r.body, { error: 'domain must be a domain, e.g. example.com' }, bad);
  }
  // One declaration: REST, the Metrics API and MCP take it alike.
  const client = await connect(server, tenant.key);
  t.teardown(() => client.close());
  const list = toolsByName.get('list_answers')!;
  const argSets: Record<string, string>[] = [
    { brand_id: tenant.brandId, domain: 'reviews.example' },
    { brand_id: tenant.brandId, domain: 'reviews.example', mentioned: globex },
    { brand_id: tenant.brandId, domain: 'not a domain' },
  ];
  for (const args of argSets) {
    const rest = await restTwin(server, list, args, tenant.key);
    const v1 = await get(server, `/api/v1/answers?${new URLSearchParams(args)}`, tenant.key);
    t.is(v1.status, rest.status);
    t.deepEqual(v1.body, rest.body);
    const result: any = await client.callTool({ name: 'list_answers', arguments: args });
    if (rest.status === 200) t.deepEqual(result.structuredContent, rest.body, JSON.stringify(args));
    else t.is(result.content[0].text, rest.body.error, JSON.stringify(args));
  }
});

test("another organization's answer, an unknown id and a malformed one are 404 Answer not found", async (t) => {
  const mine = await seedTenant(server);
  const theirs = await seedTenant(server);
  const id = randomUUID();
  await ingest([line(theirs, '2026-07-01T00:00:00.000Z', 'Acme secret.', { id })]);
  t.is((await get(server, `/api/mcp/answers/${id}`, theirs.key)).status, 200);
  for (const path of [`/api/mcp/answers/${id}`, `/api/mcp/answers/${randomUUID()}`, '/api/mcp/answers/not-an-id']) {
    const r = await get(server, path, mine.key);
    t.is(r.status, 404, path);
    t.deepEqual(r.body, { error: 'Answer not found' }, path);
  }
  // Nor is it listed under the caller's own brand, nor readable by naming the other brand.
  t.deepEqual((await get(server, `/api/mcp/answers?brand_id=${mine.brandId}`, mine.key)).body, {
    answers: [],
    total: 0,
    next_cursor: null,
  });
  const foreign = await get(server, `/api/mcp/answers?brand_id=${theirs.brandId}`, mine.key);
  t.is(foreign.status, 404);
  t.deepEqual(foreign.body, { error: 'Brand not found' });
});

test('REST, the Metrics API and MCP give the same answers and the same errors', async (t) => {
  const tenant = await seedTenant(server);
  const ids = [randomUUID(), randomUUID(), randomUUID()];
  await ingest([
    line(tenant, '2026-06-01T00:00:00.000Z', 'Acme and Globex.', { id: ids[0] }),
    line(tenant, '2026-06-02T00:00:00.000Z', 'Globex.', { id: ids[1], platform: 'perplexity', model: 'sonar' }),
    {
      ...line(tenant, '2026-06-03T00:00:00.000Z', 'Products', { id: ids[2], mode: 'shopping' }),
      products: [{ position: 1, title: 'Acme CRM Pro', brand: 'Acme', price: '$99' }],
    },
  ]);
  const client = await connect(server, tenant.key);
  t.teardown(() => client.close());
  const list = toolsByName.get('list_answers')!;
  const one = toolsByName.get('get_answer')!;
  const argSets: Record<string, unknown>[] = [
    { brand_id: tenant.brandId },
    { brand_id: tenant.brandId, limit: 1 },
    { brand_id: tenant.brandId, mode: 'shopping' },
    { brand_id: tenant.brandId, platform: 'perplexity', model: ['sonar'] },
    { brand_id: tenant.brandId, mentioned: 'brand', date_from: '2026-06-01', date_to: '2026-06-30' },
    { brand_id: tenant.brandId, cursor: 'bm9wZQ' },
    { brand_id: tenant.brandId, mentioned: 'someone' },
    { brand_id: tenant.brandId, prompt_id: randomUUID() },
  ];
  for (const args of argSets) {
    const rest = await restTwin(server, list, args, tenant.key);
    const query = new URLSearchParams(
      Object.entries(args).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
    );
    const v1 = await get(server, `/api/v1/answers?${query}`, tenant.key);
    t.is(v1.status, rest.status);
    t.deepEqual(v1.body, rest.body);
    const result: any = await client.callTool({ name: 'list_answers', arguments: args });
    if (rest.status === 200) t.deepEqual(result.structuredContent, rest.body, JSON.stringify(args));
    else t.is(result.content[0].text, rest.body.error, JSON.stringify(args));
  }
  for (const answer_id of [...ids, randomUUID()]) {
    const rest = await restTwin(server, one, { answer_id }, tenant.key);
    const result: any = await client.callTool({ name: 'get_answer', arguments: { answer_id } });
    if (rest.status === 200) t.deepEqual(result.structuredContent, rest.body);
    else t.deepEqual([result.isError, result.content[0].text], [true, 'Answer not found']);
  }
  // The shopping answer is listed in its mode only, without analysis.
  const shopping = (await restTwin(server, list, { brand_id: tenant.brandId, mode: 'shopping' }, tenant.key)).body;
  t.deepEqual(
    shopping.answers.map((a: any) => [a.id, a.mode, a.entities, a.citations]),
    [[ids[2], 'shopping', [], []]],
  );
  const standard = (await restTwin(server, list, { brand_id: tenant.brandId }, tenant.key)).body;
  t.deepEqual(
    standard.answers.map((a: any) => a.id),
    [ids[1], ids[0]],
  );
});

test('bad input: cursor, limit bounds, dates, prompt and topic filters', async (t) => {
  const tenant = await seedTenant(server);
  const other = await seedTenant(server);
  await ingest(
    Array.from({ length: 120 }, (_, i) =>
      line(
        tenant,
        `2026-05-01T00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`,
        'Acme',
        {
          id: randomUUID(),
        },
      ),
    ),
  );
  const b = `/api/mcp/answers?brand_id=${tenant.brandId}`;
  const cases: [string, number, string][] = [
    [`${b}&cursor=bm9wZQ`, 400, 'cursor is invalid'],
    [`${b}&cursor=${Buffer.from('["2026-05-01T00:00:00.000Z","x"]').toString('base64url')}`, 400, 'cursor is invalid'],
    [`${b}&limit=lots`, 400, 'limit must be an integer'],
    [`${b}&mode=fancy`, 400, 'mode must be one of: standard, shopping'],
    [`${b}&date_from=2026-02-30`, 400, 'date_from must be a date (YYYY-MM-DD) or an ISO 8601 timestamp'],
    [`${b}&date_from=2026-05-02&date_to=2026-05-01`, 400, 'date_from must not be after date_to'],
    [`${b}&prompt_id=abc`, 400, 'prompt_id must be a UUID'],
    [`${b}&prompt_id=${other.promptIds[0]}`, 404, 'Prompt not found'],
    [`${b}&topic_id=${other.topicIds[0]}`, 404, 'Topic not found'],
    ['/api/mcp/answers', 400, 'brand_id is required'],
  ];
  for (const [url, status, message] of cases) {
    const r = await get(server, url, tenant.key);
    t.is(r.status, status, url);
    t.deepEqual(r.body, { error: message }, url);
  }
  // Limits outside 1-100 are clamped; 20 by default.
  const count = async (q: string) => (await get(server, `${b}${q}`, tenant.key)).body.answers.length;
  t.is(await count(''), 20);
  t.is(await count('&limit=0'), 1);
  t.is(await count('&limit=101'), 100);
  t.is(await count('&limit=100'), 100);
  // The brand's own prompt and topic filter; a cursor of another filter still only pages.
  t.is(await count(`&prompt_id=${tenant.promptIds[0]}&topic_id=${tenant.topicIds[0]}&limit=100`), 100);
  t.is(await count('&date_from=2026-05-01T00:01:00Z&limit=100'), 60);
});

test('search_queries: the searches the line carried, [] when none were run, null when unknown', async (t) => {
  const tenant = await seedTenant(server);
  const ids = [randomUUID(), randomUUID(), randomUUID()];
  await ingest([
    line(tenant, '2026-04-01T00:00:00.000Z', 'Acme.', { id: ids[0], search_queries: ['best crm', 'acme vs globex'] }),
    line(tenant, '2026-04-02T00:00:00.000Z', 'Acme.', { id: ids[1], search_queries: [] }),
    line(tenant, '2026-04-03T00:00:00.000Z', 'Acme.', { id: ids[2] }),
  ]);
  const listed = await walk(tenant, '', 100);
  t.deepEqual(
    listed.map((a) => [a.id, a.search_queries]),
    [
      [ids[2], null],
      [ids[1], []],
      [ids[0], ['best crm', 'acme vs globex']],
    ],
  );
  t.deepEqual((await get(server, `/api/mcp/answers/${ids[0]}`, tenant.key)).body.search_queries, [
    'best crm',
    'acme vs globex',
  ]);
});
