// citation-gap against the running service: the gap computed again here from the stored answers as
// GET /answers lists them (who each answer names, what it cites), for all competitors and for one;
// order, limit, totals and top URLs with titles; the brand's own domains and shopping answers left
// out; a re-import counted once; the surfaces alike; bad input and another organization's brand.
// test-process: shared
import test from 'ava';
import { get, ingestLines, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { connect } from '../mcp/client.ts';
import { applyWorkspace, parseWorkspace } from '../../src/tenancy/workspace.ts';
import { startReanalysis } from '../../src/tenancy/reanalysis-queue.ts';
import { reanalyzeBrand } from '../../src/tracking/reanalysis/reanalyze.ts';
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
  competitors: [
    { name: 'Globex', domains: ['globex.example'] },
    { name: 'Initech', domains: ['initech.example'] },
  ],
  topics: [{ name: 'CRM', prompts: [{ text: 'best crm' }, { text: 'cheap crm' }] }],
};

let minute = 0;
const line = (x: Tenant, text: string, urls: [string, string?][], extra: object = {}) => {
  minute++;
  return {
    prompt_id: x.promptIds[minute % 2],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: `2026-06-0${1 + (minute % 5)}T${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00Z`,
    text,
    citations: urls.map(([url, title]) => ({ url, ...(title ? { title } : {}) })),
    ...extra,
  };
};

/**
 * Eight answers (and a shopping one, left out), five of them gap answers (a competitor named, Acme
 * not). review.example: cited by three gap answers (Globex 3, Initech 1, two URLs), never beside Acme.
 * forum.example: by one gap answer and one naming Acme: in the gap at 50%. news.example: by two
 * naming Initech. blog.example: cited only by an answer naming nobody: not listed. Globex's own
 * domain: a gap domain of category competitor. acme.example: the brand's own, left out.
 */
async function seeded(): Promise<Tenant> {
  const x = await seedTenant(server, [BRAND]);
  await ingestLines(server, [
    line(x, 'Globex is the pick.', [['https://review.example/top-crm', 'Top CRM'], ['https://globex.example/']]),
    line(x, 'Globex again.', [['https://review.example/top-crm', 'Top CRM 2026'], ['https://forum.example/t/1']]),
    line(x, 'Globex and Initech.', [['https://www.review.example/globex-vs-initech']]),
    line(x, 'Acme is good.', [['https://forum.example/t/2'], ['https://acme.example/']]),
    line(x, 'Initech leads.', [['https://news.example/a'], ['https://news.example/b']]),
    line(x, 'Initech wins.', [['https://news.example/a']]),
    line(x, 'Nobody named.', [['https://blog.example/x'], ['https://review.example/top-crm']]),
    line(x, 'Globex, says Acme.', [['https://acme.example/vs-globex']]),
    line(x, 'Globex shopping.', [['https://shop.example/p']], { mode: 'shopping' }),
  ]);
  return x;
}

async function gap(x: Tenant, query = '', surface = 'mcp') {
  const r = await get(server, `/api/${surface}/citation-gap?brand_id=${x.brandId}${query}`, x.key);
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return figuresOnly(r.body);
}

interface ListedAnswer {
  entities: { entity_id: string; name: string; is_brand: boolean; mentions: number }[];
  citations: { url: string; domain: string; category: string; title: string | null }[];
}

/**
 * The gap from the answers as listed, by the contract's definitions (docs/api.md section 24): the
 * gap answers name a competitor (that one, with competitorId) and not the brand; per domain
 * outside the brand's, the gap answers and the answers naming the brand citing it.
 */
async function expectedGap(x: Tenant, competitorId?: string) {
  const r = await get(server, `/api/mcp/answers?brand_id=${x.brandId}&limit=100`, x.key);
  const answers = r.body.answers as ListedAnswer[];
  const namedCompetitors = (a: ListedAnswer) =>
    a.entities.filter((e) => !e.is_brand && e.mentions > 0 && (!competitorId || e.entity_id === competitorId));
  const namesBrand = (a: ListedAnswer) => a.entities.some((e) => e.is_brand && e.mentions > 0);
  const isGap = (a: ListedAnswer) => namedCompetitors(a).length > 0 && !namesBrand(a);
  const domains = new Map<string, { category: string; gap: ListedAnswer[]; brand: number }>();
  for (const a of answers) {
    for (const domain of new Set(a.citations.filter((c) => c.category !== 'you').map((c) => c.domain))) {
      const d = domains.get(domain) ?? { category: '', gap: [], brand: 0 };
      if (isGap(a)) {
        d.gap.push(a);
        d.category = a.citations.find((c) => c.domain === domain)!.category;
      }
      if (namesBrand(a)) d.brand++;
      domains.set(domain, d);
    }
  }
  const listed = [...domains.entries()].filter(([, d]) => d.gap.length > 0);
  return {
    totals: { answers: answers.length, gap_answers: answers.filter(isGap).length, domains: listed.length },
    domains: listed
      .map(([domain, d]) => {
        const byName = new Map<string, { competitor_id: string; name: string; answers: number }>();
        for (const a of d.gap)
          for (const e of namedCompetitors(a)) {
            const c = byName.get(e.entity_id) ?? { competitor_id: e.entity_id, name: e.name, answers: 0 };
            c.answers++;
            byName.set(e.entity_id, c);
          }
        const urls = new Map<string, number>();
        for (const a of d.gap)
          for (const url of new Set(a.citations.filter((c) => c.domain === domain).map((c) => c.url)))
            urls.set(url, (urls.get(url) ?? 0) + 1);
        return {
          domain,
          category: d.category,
          gap_answers: d.gap.length,
          brand_answers: d.brand,
          gap_share: Math.round((1000 * d.gap.length) / (d.gap.length + d.brand)) / 10,
          competitors: [...byName.values()].sort((a, b) => b.answers - a.answers || a.name.localeCompare(b.name)),
          top_urls: [...urls.entries()]
            .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
            .slice(0, 3)
            .map(([url, n]) => ({ url, gap_answers: n })),
        };
      })
      .sort((a, b) => b.gap_answers - a.gap_answers || (a.domain < b.domain ? -1 : 1)),
  };
}

const withoutTitles = (body: any) => ({
  ...body,
  domains: body.domains.map((d: any) => ({
    ...d,
    top_urls: d.top_urls.map(({ url, gap_answers }: any) => ({ url, gap_answers })),
  })),
});

test('the gap equals an independent computation from the stored answers, for all and for one competitor', async (t) => {
  const x = await seeded();
  const body = await gap(x);
  t.deepEqual(withoutTitles(body), await expectedGap(x));
  t.deepEqual(
    body.domains.map((d: any) => d.domain),
    ['review.example', 'news.example', 'forum.example', 'globex.example'],
  );
  t.deepEqual(
    body.domains.map((d: any) => [d.gap_answers, d.brand_answers, d.gap_share]),
    [
      [3, 0, 100],
      [2, 0, 100],
      [1, 1, 50],
      [1, 0, 100],
    ],
  );
  const review = body.domains[0];
  t.deepEqual(
    review.competitors.map((c: any) => [c.name, c.answers]),
    [
      ['Globex', 3],
      ['Initech', 1],
    ],
  );
  // The newest title of a URL.
  t.deepEqual(review.top_urls[0], { url: 'https://review.example/top-crm', title: 'Top CRM 2026', gap_answers: 2 });
  t.is(body.domains[3].category, 'competitor');
  // Every answer in range, and every gap answer (three naming Globex, two Initech alone).
  t.deepEqual(body.totals, { answers: 8, gap_answers: 5, domains: 4 });
  const [globex, initech] = x.competitorIds;
  const one = await gap(x, `&competitor_id=${initech}`);
  t.deepEqual(withoutTitles(one), await expectedGap(x, initech));
  t.deepEqual(
    one.domains.map((d: any) => [d.domain, d.gap_answers, d.competitors.length]),
    [
      ['news.example', 2, 1],
      ['review.example', 1, 1],
    ],
  );
  t.deepEqual((await gap(x, `&competitor_id=${globex}&limit=1`)).domains.length, 1);
  t.deepEqual((await gap(x, '&limit=1')).totals, body.totals, 'totals count every gap domain, not only those listed');
});

test('a re-imported answer counts once; REST, the Metrics API and MCP answer alike', async (t) => {
  const x = await seeded();
  const before = await gap(x);
  // The same answer (same prompt, platform, moment) again, now naming Acme: it leaves the gap answers.
  const r = await get(server, `/api/mcp/answers?brand_id=${x.brandId}&limit=100`, x.key);
  const first = (r.body.answers as any[]).find((a) => a.text === 'Globex is the pick.');
  await ingestLines(server, [
    {
      id: first.id,
      prompt_id: first.prompt_id,
      platform: 'chatgpt',
      model: 'gpt-4o',
      region: 'US',
      collected_at: first.collected_at,
      text: 'Globex and Acme.',
      citations: [{ url: 'https://review.example/top-crm' }],
    },
  ]);
  const after = await gap(x);
  t.notDeepEqual(after, before);
  t.deepEqual(withoutTitles(after), await expectedGap(x));
  t.is(after.totals.gap_answers, before.totals.gap_answers - 1);
  t.is(after.domains.find((d: any) => d.domain === 'review.example').brand_answers, 1);
  t.deepEqual(await gap(x, '', 'v1'), after);
  const client = await connect(server, x.key);
  const result: any = await client.callTool({ name: 'get_citation_gap', arguments: { brand_id: x.brandId } });
  t.falsy(result.isError, JSON.stringify(result.content));
  t.deepEqual(figuresOnly(result.structuredContent), after);
  await client.close();
});

test('competitors changed: after the re-analysis the gap follows the answers as they read now', async (t) => {
  const x = await seeded();
  // "Nobody" added, whom the answer "Nobody named." now names: it becomes a gap answer, so
  // blog.example (cited only there) joins the gap, and review.example (cited there too) counts it.
  const workspace = structuredClone(x.workspace);
  workspace.organizations[0].brands[0] = {
    ...BRAND,
    competitors: [...BRAND.competitors, { name: 'Nobody', domains: ['nobody.example'] }],
  };
  await applyWorkspace(server.stores.pg, parseWorkspace(workspace));
  await startReanalysis(server.stores.pg, x.brandId, 'test');
  await reanalyzeBrand(server.stores, x.brandId);
  const after = await gap(x);
  t.deepEqual(withoutTitles(after), await expectedGap(x));
  t.deepEqual(
    after.domains.map((d: any) => [d.domain, d.gap_answers, d.competitors.map((c: any) => c.name)]),
    [
      ['review.example', 4, ['Globex', 'Initech', 'Nobody']],
      ['news.example', 2, ['Initech']],
      ['blog.example', 1, ['Nobody']],
      ['forum.example', 1, ['Globex']],
      ['globex.example', 1, ['Globex']],
    ],
  );
});

test('bad input is a 400 naming the parameter; unknown competitor and foreign brand are 404', async (t) => {
  const x = await seedTenant(server, [BRAND]);
  const foreign = await seedTenant(server, [BRAND]);
  const status = async (query: string) => {
    const r = await get(server, `/api/mcp/citation-gap?${query}`, x.key);
    return [r.status, r.body.error];
  };
  t.deepEqual(await status(''), [400, 'brand_id is required']);
  const [code, message] = await status(`brand_id=${x.brandId}&competitor_id=nope`);
  t.is(code, 400);
  t.regex(message, /competitor_id/);
  t.deepEqual(await status(`brand_id=${x.brandId}&competitor_id=${foreign.competitorIds[0]}`), [
    404,
    'Competitor not found',
  ]);
  t.deepEqual(await status(`brand_id=${foreign.brandId}`), [404, 'Brand not found']);
  t.deepEqual(await status(`brand_id=${x.brandId}&date_from=2026-07-02&date_to=2026-07-01`), [
    400,
    'date_from must not be after date_to',
  ]);
  const empty = await gap(x, '&limit=1000');
  t.deepEqual(
    empty,
    { totals: { answers: 0, gap_answers: 0, domains: 0 }, domains: [] },
    'limit is clamped, not refused',
  );
});
