// The answers explorer's filters of docs/api.md section 24 against the running service: cited (an
// entity's domains), sentiment (with mentioned), q (every word, any case), gap (a competitor
// named, the brand not) and url (each top page's count of citations and citation-gap), each the
// same answers as a filter applied here to the whole unfiltered list; total counts every match
// before paging, alone and with the older filters; bad input.
// test-process: shared
import test from 'ava';
import { get, ingestLines, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';

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

const TEXTS = [
  'Acme is excellent and reliable. Globex is fine.',
  'Globex is popular, and Acme is terrible at support.',
  'Initech, Globex and Acme are all options for a CRM.',
  'Globex and Initech are the usual picks for a small team.',
  'Nothing stands out here.',
  'Globex is awful. Initech is great for a TEAM.',
  'Acme is a solid crm.',
];
const URLS = [
  'https://acme.example/a',
  'https://globex.example/g',
  'https://initech.example/i',
  'https://news.example/n',
];

async function seeded(): Promise<Tenant> {
  const x = await seedTenant(server, [BRAND]);
  await ingestLines(
    server,
    Array.from({ length: 35 }, (_, i) => ({
      prompt_id: x.promptIds[i % 2],
      platform: i % 3 ? 'chatgpt' : 'perplexity',
      model: i % 3 ? 'gpt-4o' : 'sonar',
      region: 'US',
      collected_at: `2026-06-${String(1 + (i % 9)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:00:00Z`,
      text: TEXTS[i % TEXTS.length],
      citations: [{ url: URLS[i % 4] }, ...(i % 5 === 0 ? [{ url: URLS[(i + 1) % 4] }] : [])],
    })),
  );
  return x;
}

async function list(x: Tenant, query: string, limit = 100) {
  const r = await get(server, `/api/mcp/answers?brand_id=${x.brandId}&limit=${limit}${query}`, x.key);
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { answers: any[]; total: number; next_cursor: string | null };
}

const ids = (answers: any[]) => answers.map((a) => a.id).sort();
const entity = (a: any, id: string) => a.entities.find((e: any) => e.entity_id === id);

test('cited, sentiment, q and gap keep exactly the answers the whole list says they should', async (t) => {
  const x = await seeded();
  const [globex] = x.competitorIds;
  const all = (await list(x, '')).answers;
  t.is(all.length, 35);
  const cases: [string, (a: any) => boolean][] = [
    ['&cited=brand', (a) => entity(a, x.brandId).citations > 0],
    [`&cited=${globex}`, (a) => entity(a, globex).citations > 0],
    ['&mentioned=brand&sentiment=positive', (a) => entity(a, x.brandId).sentiment === 'positive'],
    ['&mentioned=brand&sentiment=negative', (a) => entity(a, x.brandId).sentiment === 'negative'],
    [`&mentioned=${globex}&sentiment=neutral`, (a) => entity(a, globex).sentiment === 'neutral'],
    ['&q=team%20GLOBEX', (a) => /team/i.test(a.text) && /globex/i.test(a.text)],
    ['&q=crm', (a) => /crm/i.test(a.text)],
    [
      '&gap=true',
      (a) => a.entities.some((e: any) => !e.is_brand && e.mentions > 0) && entity(a, x.brandId).mentions === 0,
    ],
    [`&gap=true&mentioned=${globex}`, (a) => entity(a, globex).mentions > 0 && entity(a, x.brandId).mentions === 0],
    [
      '&cited=brand&mentioned=brand&q=acme&platform=chatgpt',
      (a) => entity(a, x.brandId).citations > 0 && entity(a, x.brandId).mentions > 0 && a.platform === 'chatgpt',
    ],
    [
      '&gap=true&domain=news.example',
      (a) =>
        a.citations.some((c: any) => c.domain === 'news.example') &&
        entity(a, x.brandId).mentions === 0 &&
        a.entities.some((e: any) => !e.is_brand && e.mentions > 0),
    ],
    [
      '&mentioned=none&cited=brand',
      (a) => a.entities.every((e: any) => e.mentions === 0) && entity(a, x.brandId).citations > 0,
    ],
  ];
  for (const [query, keep] of cases) {
    const want = all.filter(keep);
    t.true(want.length > 0 || query.includes('none'), `${query} keeps some answers in this data`);
    const got = await list(x, query);
    t.deepEqual(ids(got.answers), ids(want), query);
    t.is(got.total, want.length, `${query} total`);
  }
});

test("url keeps exactly the answers each top page's count counts, on the citations page and in the gap", async (t) => {
  const x = await seeded();
  const [globex] = x.competitorIds;
  const range = '&date_from=2026-06-01&date_to=2026-06-30';
  const figures = async (op: string, query: string) => {
    const r = await get(server, `/api/mcp/${op}?brand_id=${x.brandId}&limit=200${range}${query}`, x.key);
    if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const all = (await list(x, range)).answers;
  const tops: { url: string; results_citing: number }[] = (await figures('citations', '')).top_urls;
  t.is(tops.length, URLS.length);
  for (const u of tops) {
    const got = await list(x, `${range}&url=${encodeURIComponent(u.url)}`);
    t.is(got.total, u.results_citing, u.url);
    t.deepEqual(ids(got.answers), ids(all.filter((a) => a.citations.some((c: any) => c.url === u.url))), u.url);
  }
  // The gap's top pages, for every competitor and for one: gap answers (naming that competitor) citing the page.
  for (const competitor of ['', globex]) {
    const gap = await figures('citation-gap', competitor ? `&competitor_id=${competitor}` : '');
    const pages = gap.domains.flatMap((d: any) => d.top_urls) as { url: string; gap_answers: number }[];
    t.true(pages.length > 0, 'the gap lists pages');
    for (const u of pages) {
      const query = `${range}&gap=true&url=${encodeURIComponent(u.url)}${competitor ? `&mentioned=${competitor}` : ''}`;
      t.is((await list(x, query)).total, u.gap_answers, query);
    }
  }
  // The page as engines spell it (case, www., a trailing slash, tracking) is the page citations list.
  const spelled = await list(x, `${range}&url=${encodeURIComponent('HTTPS://WWW.News.example/n/?utm_source=x')}`);
  t.is(spelled.total, tops.find((u) => u.url === 'https://news.example/n')!.results_citing);
});

test('total counts every match before paging, on every page', async (t) => {
  const x = await seeded();
  const first = await list(x, '&mentioned=brand', 4);
  const all = (await list(x, '&mentioned=brand')).answers;
  t.is(first.answers.length, 4);
  t.is(first.total, all.length);
  const second = await list(x, `&mentioned=brand&cursor=${first.next_cursor}`, 4);
  t.is(second.total, all.length);
  t.is((await list(x, '&date_from=2026-06-02&date_to=2026-06-02')).total, 4);
});

test('bad input is a 400 naming the field', async (t) => {
  const x = await seeded();
  const other = await seedTenant(server, [{ ...BRAND, slug: 'other' }]);
  const ask = (q: string) => get(server, `/api/mcp/answers?brand_id=${x.brandId}${q}`, x.key);
  for (const [q, error] of [
    ['&cited=nope', 'cited must be brand or a competitor id of the brand'],
    ['&sentiment=positive', 'sentiment needs mentioned: brand or a competitor id'],
    ['&mentioned=none&sentiment=positive', 'sentiment needs mentioned: brand or a competitor id'],
    ['&mentioned=brand&sentiment=happy', 'sentiment must be one of: positive, neutral, negative'],
    ['&gap=maybe', 'gap must be true or false'],
    [`&q=${'x'.repeat(201)}`, 'q must be at most 200 characters'],
    ['&url=not%20a%20page', 'url must be an http(s) URL, e.g. https://example.com/page'],
    ['&url=ftp%3A%2F%2Fnews.example%2Fn', 'url must be an http(s) URL, e.g. https://example.com/page'],
  ]) {
    const r = await ask(q);
    t.is(r.status, 400, q);
    t.is(r.body.error, error, q);
  }
  const r = await ask(`&cited=${other.competitorIds[0]}`);
  t.is(r.status, 404);
  t.is(r.body.error, 'Competitor not found');
});
