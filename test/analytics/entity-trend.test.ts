// entity-trend against the running service: every value of every bucket equals what
// visibility-summary (the brand) and competitor-comparison (a competitor) give for that bucket's
// dates, by day and by ISO week (a week counting only the range's days), for each metric and with
// a filter; a day without answers is a bucket of nulls, never a zero; the default competitors are
// the most mentioned; the surfaces answer alike; bad input is a 400 naming the field. It is in
// .ci/run's ClickHouse-server list (test/analytics/*), so both branches of the store hold it.
// test-process: shared
import test from 'ava';
import { get, ingestLines, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
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

const TEXTS = [
  'Acme is excellent. Globex is fine.',
  'Globex is popular, and Acme is fair.',
  'Initech, Globex and Acme are all options.',
  'Globex and Initech are the usual picks.',
  'Nothing stands out here.',
  'Globex leads; Initech follows.',
];

/** Answers on 2026-05-06 .. 05-19 except the 10th, 11th and 15th (gaps), a varying number per day. */
const DAYS = ['06', '07', '08', '09', '12', '13', '14', '16', '17', '18', '19'];
async function seeded(): Promise<Tenant> {
  const x = await seedTenant(server, [BRAND]);
  const lines = DAYS.flatMap((day, d) =>
    Array.from({ length: 2 + (d % 4) }, (_, i) => ({
      prompt_id: x.promptIds[i % 2],
      platform: (i + d) % 3 ? 'chatgpt' : 'perplexity',
      model: (i + d) % 3 ? 'gpt-4o' : 'sonar',
      region: 'US',
      collected_at: `2026-05-${day}T${String(1 + i).padStart(2, '0')}:00:00Z`,
      text: TEXTS[(i * 5 + d) % TEXTS.length],
      citations: [
        { url: (i + d) % 2 ? 'https://acme.example/p' : 'https://globex.example/q' },
        ...((i + d) % 5 === 0 ? [{ url: 'https://initech.example/r' }] : []),
      ],
    })),
  );
  await ingestLines(server, lines);
  return x;
}

async function body(x: Tenant, op: string, query: string, surface = 'mcp') {
  const r = await get(server, `/api/${surface}/${op}?brand_id=${x.brandId}${query}`, x.key);
  if (r.status !== 200) throw new Error(`${op} ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** What the summary and the comparison give for [from, to], as the trend's values for `metric`. */
async function expected(x: Tenant, from: string, to: string, metric: string, filter: string) {
  const q = `&date_from=${from}&date_to=${to}${filter}`;
  const [summary, comparison] = await Promise.all([
    body(x, 'visibility-summary', q),
    body(x, 'competitor-comparison', q),
  ]);
  const n = summary.totals.resultCount as number;
  const rate = (k: number) => (n ? Math.round((1000 * k) / n) / 10 : null);
  const values: Record<string, number | null> = {};
  values[x.brandId] =
    metric === 'ai_visibility_score'
      ? summary.totals.aiVisibilityScore
      : rate(metric === 'mention_rate' ? summary.totals.mentionAnswers : summary.totals.citationAnswers);
  for (const c of comparison.competitors) {
    if (metric === 'ai_visibility_score') values[c.competitor_id] = c.ai_visibility_score;
    if (metric === 'mention_rate') values[c.competitor_id] = rate(c.appearance_count);
  }
  return { n, values };
}

for (const granularity of ['day', 'week'] as const)
  for (const metric of ['ai_visibility_score', 'mention_rate', 'citation_rate'])
    test(`each ${granularity} bucket's ${metric} equals the summary's and the comparison's for its dates`, async (t) => {
      const x = await seeded();
      const from = '2026-05-05';
      const to = '2026-05-19';
      for (const filter of ['', '&model=gpt-4o']) {
        const trend = await body(
          x,
          'entity-trend',
          `&date_from=${from}&date_to=${to}&granularity=${granularity}&metric=${metric}${filter}`,
        );
        t.deepEqual(
          trend.entities.map((e: any) => [e.name, e.role]),
          [
            ['Acme', 'own'],
            ['Globex', 'competitor'],
            ['Initech', 'competitor'],
          ],
        );
        // One bucket for every day (every ISO week the range touches), oldest first.
        const expectedDates: string[] = [];
        for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`); ms += DAY) {
          const date = granularity === 'day' ? iso(ms) : iso(ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY);
          if (expectedDates.at(-1) !== date) expectedDates.push(date);
        }
        t.deepEqual(
          trend.buckets.map((b: any) => b.date),
          expectedDates,
        );
        for (const b of trend.buckets) {
          // The bucket's dates: its day, or its week's days inside the range.
          const start = b.date < from ? from : b.date;
          const sunday = granularity === 'day' ? b.date : iso(Date.parse(`${b.date}T00:00:00Z`) + 6 * DAY);
          const end = sunday > to ? to : sunday;
          const want = await expected(x, start, end, metric, filter);
          t.is(b.answers, want.n, `${b.date} answers`);
          for (const e of trend.entities) {
            if (metric === 'citation_rate' && e.role === 'competitor') {
              // competitor-comparison gives no cited-answer count: checked against the answers list below.
              continue;
            }
            t.is(b.values[e.entity_id], want.values[e.entity_id], `${b.date} ${e.name} ${metric}${filter}`);
          }
          if (want.n === 0)
            t.true(
              Object.values(b.values).every((v) => v === null),
              `${b.date} is a gap`,
            );
        }
      }
    });

test("a competitor's citation rate counts the answers citing its domains, as the answers list shows them", async (t) => {
  const x = await seeded();
  const trend = await body(x, 'entity-trend', '&date_from=2026-05-06&date_to=2026-05-09&metric=citation_rate');
  for (const b of trend.buckets) {
    const list = await body(x, 'answers', `&date_from=${b.date}&date_to=${b.date}&limit=100`);
    for (const e of trend.entities) {
      const cited = list.answers.filter((a: any) =>
        a.entities.some((ae: any) => ae.entity_id === e.entity_id && ae.citations > 0),
      ).length;
      t.is(b.values[e.entity_id], Math.round((1000 * cited) / list.answers.length) / 10, `${b.date} ${e.name}`);
    }
  }
});

test('a day without answers is a gap (null for every entity), never a zero', async (t) => {
  const x = await seeded();
  const trend = await body(x, 'entity-trend', '&date_from=2026-05-09&date_to=2026-05-12');
  t.deepEqual(
    trend.buckets.map((b: any) => [b.date, b.answers, Object.values(b.values).every((v) => v === null)]),
    [
      ['2026-05-09', 5, false],
      ['2026-05-10', 0, true],
      ['2026-05-11', 0, true],
      ['2026-05-12', 2, false],
    ],
  );
  // Without dates: the first to the last day with answers, gaps included.
  const all = await body(x, 'entity-trend', '');
  t.is(all.buckets[0].date, '2026-05-06');
  t.is(all.buckets.at(-1).date, '2026-05-19');
  t.is(all.buckets.length, 14);
});

test('competitors: the most mentioned by default, or those asked for; the surfaces answer alike', async (t) => {
  const x = await seeded();
  const [globex, initech] = x.competitorIds;
  const one = await body(x, 'entity-trend', `&date_from=2026-05-06&date_to=2026-05-08&competitor_id=${initech}`);
  t.deepEqual(
    one.entities.map((e: any) => e.name),
    ['Acme', 'Initech'],
  );
  t.deepEqual(Object.keys(one.buckets[0].values).sort(), [x.brandId, initech].sort());
  const both = await body(
    x,
    'entity-trend',
    `&date_from=2026-05-06&date_to=2026-05-08&competitor_id=${initech}&competitor_id=${globex}`,
  );
  t.deepEqual(
    both.entities.map((e: any) => e.name),
    ['Acme', 'Globex', 'Initech'],
  );
  const q = '&date_from=2026-05-06&date_to=2026-05-12&granularity=week';
  const rest = await body(x, 'entity-trend', q);
  t.deepEqual(await body(x, 'entity-trend', q, 'v1'), rest);
  const mcp = await connect(server, x.key);
  try {
    const r: any = await mcp.callTool({
      name: 'get_entity_trend',
      arguments: { brand_id: x.brandId, date_from: '2026-05-06', date_to: '2026-05-12', granularity: 'week' },
    });
    t.falsy(r.isError, JSON.stringify(r.content));
    t.deepEqual(r.structuredContent, rest);
  } finally {
    await mcp.close();
  }
});

test('bad input is a 400 naming the field; a competitor not the brand is a 404', async (t) => {
  const x = await seeded();
  const other = await seedTenant(server, [{ ...BRAND, slug: 'other' }]);
  const ask = (q: string) => get(server, `/api/mcp/entity-trend?brand_id=${x.brandId}${q}`, x.key);
  for (const [q, field] of [
    ['&metric=share', 'metric'],
    ['&granularity=month', 'granularity'],
    ['&competitor_id=nope', 'competitor_id'],
    ['&date_from=2026-13-01', 'date_from'],
  ]) {
    const r = await ask(q);
    t.is(r.status, 400, q);
    t.regex(r.body.error, new RegExp(`^${field}`), q);
  }
  const r = await ask(`&competitor_id=${other.competitorIds[0]}`);
  t.is(r.status, 404);
  t.is(r.body.error, 'Competitor not found');
});

test("competitor-comparison's platforms: each entity's mention rate per platform, counted from the answers", async (t) => {
  const x = await seeded();
  const q = '&date_from=2026-05-06&date_to=2026-05-19';
  const comparison = await body(x, 'competitor-comparison', q);
  const list = (await body(x, 'answers', `${q}&limit=100`)).answers as any[];
  const platforms = [...new Set(list.map((a) => a.platform))].sort();
  t.deepEqual(
    comparison.platforms.map((p: any) => p.platform),
    platforms,
  );
  for (const p of comparison.platforms) {
    const on = list.filter((a) => a.platform === p.platform);
    t.is(p.answers, on.length);
    const ids = [x.brandId, ...x.competitorIds];
    t.deepEqual(Object.keys(p.mention_rates).sort(), ids.sort());
    for (const id of ids) {
      const named = on.filter((a) => a.entities.some((e: any) => e.entity_id === id && e.mentions > 0)).length;
      t.is(p.mention_rates[id], Math.round((1000 * named) / on.length) / 10, `${p.platform} ${id}`);
    }
  }
});

test("prompt-performance: each prompt's brand beside its best competitor on one basis, from the prompt's answers", async (t) => {
  const x = await seeded();
  const q = '&date_from=2026-05-06&date_to=2026-05-19';
  const perf = await body(x, 'prompt-performance', q);
  t.is(perf.prompts.length, 2);
  const figures = (answers: any[], id: string) => {
    const rows = answers.map((a) => a.entities.find((e: any) => e.entity_id === id));
    const named = rows.filter((e) => e.mentions > 0);
    const pf = named.length ? named.reduce((acc, e) => acc + 1 / e.position, 0) / named.length : 0;
    const n = answers.length;
    const score =
      100 * (0.6 * (named.length / n) + 0.25 * (rows.filter((e) => e.citations > 0).length / n) + 0.15 * pf);
    const r1 = (v: number) => Math.round(v * 10 * (1 + 2 ** -40)) / 10;
    return { ai_visibility_score: r1(score), mention_rate: r1((100 * named.length) / n) };
  };
  for (const p of perf.prompts) {
    const answers = (await body(x, 'answers', `${q}&prompt_id=${p.prompt_id}&limit=100`)).answers as any[];
    t.is(p.result_count, answers.length);
    const brand = figures(answers, x.brandId);
    t.is(p.ai_visibility_score, brand.ai_visibility_score);
    t.is(p.mention_rate, brand.mention_rate);
    const rivals = x.competitorIds
      .map((id, i) => ({ competitor_id: id, name: ['Globex', 'Initech'][i], ...figures(answers, id) }))
      .sort((a, b) => b.ai_visibility_score - a.ai_visibility_score || a.name.localeCompare(b.name));
    t.deepEqual(p.best_competitor, rivals[0]);
  }
});
