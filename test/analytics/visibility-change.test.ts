// visibility-change against the running service. Every figure is computed again here from the
// stored answers as GET /answers lists them (each entity's mentions, position, citations and
// sentiment): the values and changes exactly, the rates' intervals by a second implementation of
// Newcombe's method, the others' against a plain bootstrap that draws every answer (within sampling
// noise). The values agree with the endpoints that serve each metric; the verdicts follow the rules;
// the surfaces answer alike; bad input is a 400 naming the problem; new answers are never served
// from an older cache entry.
// test-process: shared
import test from 'ava';
import { get, ingestLines, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { connect } from '../mcp/client.ts';
import { newcombeBySearch, plainDifferenceBootstrap } from '../helpers/second-intervals.ts';
import { changePeriods } from '../../src/operations/visibility-change.ts';

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

const NAMED = [
  'Acme is excellent and reliable. Globex is fine.',
  'Globex is popular, and Acme is terrible at support.',
  'Initech, Globex and Acme are all options.',
  'Acme Acme: the best choice, loved by teams.',
];
const UNNAMED = ['Globex and Initech are the usual picks.', 'Nothing stands out here.', 'Initech is awful.'];

/**
 * `n` answers over the 7 days from `firstDay`: the first `named` name Acme (texts in turn), the
 * first `cited` of all cite acme.example, the rest cite an editorial site.
 */
function period(x: Tenant, firstDay: string, n: number, named: number, cited: number) {
  return Array.from({ length: n }, (_, i) => {
    const day = new Date(Date.parse(`${firstDay}T00:00:00Z`) + (i % 7) * 86_400_000).toISOString().slice(0, 10);
    return {
      prompt_id: x.promptIds[i % 2],
      platform: i % 3 ? 'chatgpt' : 'perplexity',
      model: i % 3 ? 'gpt-4o' : 'sonar',
      region: 'US',
      collected_at: `${day}T${String(1 + Math.floor(i / 7)).padStart(2, '0')}:00:00Z`,
      text: i < named ? NAMED[i % NAMED.length] : UNNAMED[i % UNNAMED.length],
      citations: [{ url: i < cited ? `https://acme.example/p${i}` : `https://news.example/a${i}` }],
    };
  });
}

/** Previous week (May 1-7): 30 answers, 8 naming Acme, 20 citing it; current (May 8-14): 28, 24 naming, 2 citing. */
async function twoWeeks(): Promise<Tenant> {
  const x = await seedTenant(server, [BRAND]);
  await ingestLines(server, [...period(x, '2026-05-01', 30, 8, 20), ...period(x, '2026-05-08', 28, 24, 2)]);
  return x;
}

const WEEK = '&date_from=2026-05-08&date_to=2026-05-14';

async function change(x: Tenant, query = WEEK, surface = 'mcp') {
  const r = await get(server, `/api/${surface}/visibility-change?brand_id=${x.brandId}${query}`, x.key);
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

interface Entity {
  is_brand: boolean;
  mentions: number;
  position: number | null;
  citations: number;
  sentiment: string | null;
}

/** The answers of a period as GET /answers lists them: the brand's row and the competitors' mentions. */
async function answersOf(x: Tenant, from: string, to: string) {
  const r = await get(
    server,
    `/api/mcp/answers?brand_id=${x.brandId}&date_from=${from}&date_to=${to}&limit=100`,
    x.key,
  );
  return (r.body.answers as { entities: Entity[] }[]).map((a) => {
    const brand = a.entities.find((e) => e.is_brand)!;
    const others = a.entities.filter((e) => !e.is_brand).reduce((acc, e) => acc + e.mentions, 0);
    return { brand, others };
  });
}

type Answer = Awaited<ReturnType<typeof answersOf>>[number];

/** The six metrics from per-answer rows, as docs/api.md section 3 and 21 define them (unrounded). */
const FIGURES: Record<string, (a: Answer[]) => number | null> = {
  ai_visibility_score: (a) => {
    const named = a.filter((x) => x.brand.mentions > 0);
    const pf = named.length ? named.reduce((acc, x) => acc + 1 / x.brand.position!, 0) / named.length : 0;
    return (
      100 *
      (0.6 * (named.length / a.length) + 0.25 * (a.filter((x) => x.brand.citations > 0).length / a.length) + 0.15 * pf)
    );
  },
  mention_rate: (a) => (100 * a.filter((x) => x.brand.mentions > 0).length) / a.length,
  citation_rate: (a) => (100 * a.filter((x) => x.brand.citations > 0).length) / a.length,
  share_of_voice: (a) => {
    const b = a.reduce((acc, x) => acc + x.brand.mentions, 0);
    const c = a.reduce((acc, x) => acc + x.others, 0);
    return b + c === 0 ? 0 : (100 * b) / (b + c);
  },
  average_position: (a) => {
    const named = a.filter((x) => x.brand.mentions > 0);
    return named.length ? named.reduce((acc, x) => acc + x.brand.position!, 0) / named.length : null;
  },
  net_sentiment: (a) => {
    const named = a.filter((x) => x.brand.mentions > 0);
    const score = (s: string) => named.filter((x) => x.brand.sentiment === s).length;
    return named.length ? (100 * (score('positive') - score('negative'))) / named.length : null;
  },
};
const DIGITS: Record<string, number> = { average_position: 2 };
const roundTo = (x: number, d: number) => Math.round(x * 10 ** d * (1 + 2 ** -40)) / 10 ** d + 0;

test('every figure equals an independent computation from the stored answers', async (t) => {
  const x = await twoWeeks();
  const body = await change(x);
  t.deepEqual(body.current, { date_from: '2026-05-08', date_to: '2026-05-14', n: 28 });
  t.deepEqual(body.previous, { date_from: '2026-05-01', date_to: '2026-05-07', n: 30 });
  const current = await answersOf(x, '2026-05-08', '2026-05-14');
  const previous = await answersOf(x, '2026-05-01', '2026-05-07');
  t.is(current.length, 28);
  t.is(previous.length, 30);
  t.deepEqual(
    body.metrics.map((m: { metric: string }) => m.metric),
    Object.keys(FIGURES),
  );
  for (const m of body.metrics) {
    const d = DIGITS[m.metric] ?? 1;
    const [c, p] = [FIGURES[m.metric](current), FIGURES[m.metric](previous)];
    t.is(m.current, roundTo(c!, d), m.metric);
    t.is(m.previous, roundTo(p!, d), m.metric);
    t.is(m.change, roundTo(c! - p!, d), `${m.metric}: change computed unrounded, then rounded`);
    if (m.metric === 'mention_rate' || m.metric === 'citation_rate') {
      const hit = (a: Answer) => (m.metric === 'mention_rate' ? a.brand.mentions : a.brand.citations) > 0;
      const [lo, hi] = newcombeBySearch(current.filter(hit).length, 28, previous.filter(hit).length, 30);
      t.deepEqual(m.ci95, [roundTo(100 * lo, 1), roundTo(100 * hi, 1)], m.metric);
    } else {
      const [lo, hi] = plainDifferenceBootstrap(current, previous, FIGURES[m.metric]);
      const width = hi - lo;
      // Two bootstraps of the same data differ by the noise of their percentiles: a fifth of the width.
      t.true(
        Math.abs(m.ci95[0] - lo) <= 0.2 * width + 0.01 && Math.abs(m.ci95[1] - hi) <= 0.2 * width + 0.01,
        `${m.metric}: ${m.ci95} against ${lo}-${hi}`,
      );
    }
  }
  // The rules: the mention rate rose from 8/30 to 24/28 and the citation rate fell from 20/30 to 2/28.
  const by = Object.fromEntries(body.metrics.map((m: { metric: string }) => [m.metric, m]));
  t.is(by.mention_rate.verdict, 'up');
  t.is(by.citation_rate.verdict, 'down');
  for (const m of body.metrics) {
    const expected = m.ci95[0] > 0 ? 'up' : m.ci95[1] < 0 ? 'down' : 'within_noise';
    t.is(m.verdict, expected, m.metric);
  }
});

test('the values are those the endpoints serving each metric give for the same days', async (t) => {
  const x = await twoWeeks();
  const body = await change(x);
  const by = Object.fromEntries(body.metrics.map((m: { metric: string }) => [m.metric, m]));
  const q = `brand_id=${x.brandId}&date_from=2026-05-08&date_to=2026-05-14`;
  const summary = (await get(server, `/api/mcp/visibility-summary?${q}`, x.key)).body;
  const comparison = (await get(server, `/api/mcp/competitor-comparison?${q}`, x.key)).body;
  const sentiment = (await get(server, `/api/mcp/sentiment?${q}`, x.key)).body;
  const confidence = (await get(server, `/api/mcp/visibility-confidence?${q}`, x.key)).body;
  t.is(by.ai_visibility_score.current, summary.totals.aiVisibilityScore);
  t.is(by.share_of_voice.current, comparison.share_of_voice.overall_sov_pct);
  t.is(by.net_sentiment.current, sentiment.entities[0].net_sentiment);
  t.is(by.mention_rate.current, confidence.entities[0].mention_rate.value);
  t.is(by.citation_rate.current, confidence.entities[0].citation_rate.value);
});

test('fewer than 20 answers in a period, or a metric null in one, is not_enough_data', async (t) => {
  const x = await seedTenant(server, [BRAND]);
  // Previous week 30 answers, none naming Acme (no position, no sentiment); current week 19.
  await ingestLines(server, [...period(x, '2026-05-01', 30, 0, 0), ...period(x, '2026-05-08', 19, 10, 5)]);
  const thin = await change(x);
  t.is(thin.current.n, 19);
  t.true(thin.metrics.every((m: { verdict: string }) => m.verdict === 'not_enough_data'));
  await ingestLines(
    server,
    period(x, '2026-05-08', 21, 21, 0).map((l, i) => ({
      ...l,
      collected_at: l.collected_at.replace(/T\d\d/, `T${String(10 + Math.floor(i / 7)).padStart(2, '0')}`),
    })),
  );
  const body = await change(x);
  t.is(body.current.n, 40, 'new answers are served at once (the cache is keyed by data version)');
  const by = Object.fromEntries(body.metrics.map((m: { metric: string }) => [m.metric, m]));
  for (const metric of ['average_position', 'net_sentiment']) {
    t.like(by[metric], { previous: null, change: null, ci95: null, verdict: 'not_enough_data' }, metric);
  }
  t.is(by.mention_rate.verdict, 'up');
  t.is(by.mention_rate.previous, 0);
});

test('a period against itself is within noise; the default is the last 7 complete days', async (t) => {
  const x = await seedTenant(server, [BRAND]);
  await ingestLines(server, [...period(x, '2026-05-01', 28, 14, 7), ...period(x, '2026-05-08', 28, 14, 7)]);
  const body = await change(x);
  for (const m of body.metrics) {
    t.is(m.change, 0, m.metric);
    t.is(m.verdict, 'within_noise', m.metric);
  }
  const { current, previous } = changePeriods(undefined, undefined, new Date());
  const fallback = await change(x, '');
  t.deepEqual(
    [fallback.current.date_from, fallback.current.date_to, fallback.previous.date_from, fallback.previous.date_to],
    [current.from, current.to, previous.from, previous.to].map((d) => d.toISOString().slice(0, 10)),
  );
  t.is(
    Date.parse(`${fallback.current.date_to}T00:00:00Z`),
    Date.parse(new Date().toISOString().slice(0, 10)) - 86_400_000,
  );
  const [from, to] = [Date.parse(fallback.previous.date_from), Date.parse(fallback.previous.date_to)];
  t.is((to - from) / 86_400_000, 6, 'seven days before');
});

test('REST, the Metrics API and MCP answer alike; another organization is 404', async (t) => {
  const x = await twoWeeks();
  const rest = await change(x);
  t.deepEqual(await change(x, WEEK, 'v1'), rest);
  const client = await connect(server, x.key);
  const result: any = await client.callTool({
    name: 'get_visibility_change',
    arguments: { brand_id: x.brandId, date_from: '2026-05-08', date_to: '2026-05-14' },
  });
  t.falsy(result.isError, JSON.stringify(result.content));
  t.deepEqual(result.structuredContent, rest);
  const foreign = await seedTenant(server);
  const denied: any = await client.callTool({
    name: 'get_visibility_change',
    arguments: { brand_id: foreign.brandId },
  });
  t.deepEqual([denied.isError, denied.content[0].text], [true, 'Brand not found']);
  await client.close();
});

test('bad input is a 400 naming the problem', async (t) => {
  const x = await seedTenant(server, [BRAND]);
  const status = async (query: string) => {
    const r = await get(server, `/api/mcp/visibility-change?${query}`, x.key);
    return [r.status, r.body.error];
  };
  t.deepEqual(await status(''), [400, 'brand_id is required']);
  t.deepEqual(await status(`brand_id=${x.brandId}&date_from=2026-05-09&date_to=2026-05-08`), [
    400,
    'date_from must not be after date_to',
  ]);
  t.deepEqual(await status(`brand_id=${x.brandId}&date_from=2030-01-01`), [400, 'date_from must not be after date_to']);
  const [code, message] = await status(`brand_id=${x.brandId}&date_from=2026-02-30`);
  t.is(code, 400);
  t.regex(message, /date_from/);
  t.deepEqual(await status(`brand_id=${x.brandId}&date_from=2024-01-01&date_to=2025-12-31`), [
    400,
    'date_from to date_to must span at most 366 days',
  ]);
  t.deepEqual(await status(`brand_id=${x.brandId}&topic_id=00000000-0000-4000-8000-000000000000`), [
    404,
    'Topic not found',
  ]);
});

test("each competitor's mention rate moves as the brand's does: values, Newcombe interval and verdict", async (t) => {
  const x = await twoWeeks();
  const body = await change(x);
  const r = async (from: string, to: string) =>
    (await get(server, `/api/mcp/answers?brand_id=${x.brandId}&date_from=${from}&date_to=${to}&limit=100`, x.key)).body
      .answers as { entities: (Entity & { entity_id: string })[] }[];
  const [current, previous] = [await r('2026-05-08', '2026-05-14'), await r('2026-05-01', '2026-05-07')];
  t.deepEqual(
    body.competitors.map((c: { name: string }) => c.name),
    ['Globex', 'Initech'],
  );
  for (const c of body.competitors) {
    const naming = (list: typeof current) =>
      list.filter((a) => a.entities.some((e) => e.entity_id === c.competitor_id && e.mentions > 0)).length;
    const [k1, k2] = [naming(current), naming(previous)];
    t.is(c.metric, 'mention_rate');
    t.is(c.current, roundTo((100 * k1) / current.length, 1), c.name);
    t.is(c.previous, roundTo((100 * k2) / previous.length, 1), c.name);
    t.is(c.change, roundTo((100 * k1) / current.length - (100 * k2) / previous.length, 1), c.name);
    const [lo, hi] = newcombeBySearch(k1, current.length, k2, previous.length);
    t.deepEqual(c.ci95, [roundTo(100 * lo, 1), roundTo(100 * hi, 1)], c.name);
    t.is(c.verdict, c.ci95[0] > 0 ? 'up' : c.ci95[1] < 0 ? 'down' : 'within_noise', c.name);
  }
  // Globex is named in 4 of 4 NAMED texts and 1 of 3 UNNAMED: it rises with the brand's named answers.
  t.is(body.competitors[0].verdict, 'up');
});
