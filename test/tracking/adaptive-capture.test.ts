// The daily capture plans each (prompt, platform, region) by its brand's sampling: adaptive, a cell
// whose 28-day mention-rate interval is wide gets max_samples, a narrow one min_samples, one without
// history max_samples; fixed, the brand's samples. Each slot keeps why (capture_runs.reason), the
// job's summary counts them, and the plan's daily and monthly capture limits cut what is planned.
// The capture preview's fixed and adaptive columns equal the same plans, priced from the table.
// test-process: shared
import test from 'ava';
import pino from 'pino';
import type { JobContext } from '../../jobs/registry.ts';
import { trackPrompts } from '../../jobs/track-prompts.ts';
import type { CaptureSummary } from '../../src/tracking/capture/capture.ts';
import { planSlots } from '../../src/tracking/capture/plan.ts';
import { captureProgress } from '../../src/tracking/capture/capture-now.ts';
import { answerCost, priceTable } from '../../src/tracking/capture/prices.ts';
import { captureSampler } from '../../src/operations/capture-sampling.ts';
import { CAPTURE_LIMITS } from '../../src/tenancy/capture-limits.ts';
import { addDays, isoDay } from '../../src/instant.ts';
import { call, get, ingestLines, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ TRACKING_ENGINE: 'simulated', TRACKING_SAMPLES: '2' });
});
test.after.always(async () => {
  await server?.stop();
});

const DAY = '2026-11-20';
const ctx = (): JobContext => ({
  stores: server.stores,
  config: server.config,
  log: pino({ level: 'silent' }),
  now: () => new Date(`${DAY}T06:00:00Z`),
});

function brand(sampling: object | undefined, prompts: string[], platforms = ['chatgpt']) {
  return [
    {
      name: 'Acme',
      slug: 'acme',
      region: 'US',
      domains: ['acme.example'],
      ...(sampling ? { sampling } : {}),
      topics: [{ name: 'CRM', prompts: prompts.map((text) => ({ text, platforms, regions: ['US'] })) }],
    },
  ];
}

/** `n` chatgpt answers to a prompt over the 28 days before DAY, `named` of them naming Acme. */
function history(promptId: string, n: number, named: number, day = (i: number) => addDays(DAY, -1 - (i % 28))) {
  return Array.from({ length: n }, (_, i) => ({
    prompt_id: promptId,
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: `${day(i)}T10:00:${String(i % 60).padStart(2, '0')}Z`,
    text: i < named ? `Answer ${i}: Acme is a good pick.` : `Answer ${i}: Globex is a good pick.`,
    citations: [],
  }));
}

async function reasons(brandId: string) {
  const { rows } = await server.stores.pg.query<{ text: string; reason: string; n: number }>(
    `SELECT p.text, c.reason, count(*)::int AS n FROM capture_runs c JOIN prompts p ON p.id = c.prompt_id
      WHERE c.brand_id = $1 AND c.day = $2 GROUP BY p.text, c.reason ORDER BY p.text`,
    [brandId, DAY],
  );
  return rows;
}

const ADAPTIVE = { mode: 'adaptive', min_samples: 1, max_samples: 4, target_half_width: 5 };

test('adaptive: a wide interval gets max_samples, a narrow one min_samples, no history max_samples; reasons kept', async (t) => {
  const x = await seedTenant(server, brand(ADAPTIVE, ['a wide', 'b narrow', 'c new']));
  await ingestLines(server, [
    // 10 of 20 name Acme: 50% within about ±21 points, wider than 5.
    ...history(x.promptIds[0], 20, 10),
    // None of 300: 0-1.3%, half-width 0.6.
    ...history(x.promptIds[1], 300, 0),
    // The day itself and the day before the window are not the cell's history.
    ...history(x.promptIds[2], 2, 1, (i) => (i ? DAY : addDays(DAY, -29))),
  ]);
  const summary = (await trackPrompts.run(ctx(), { brandId: x.brandId, date: DAY })) as CaptureSummary;
  t.like(summary, { planned: 9, answers: 9, failed: [] });
  t.deepEqual(summary.by_reason, { interval_wide: 4, interval_narrow: 1, no_history: 4 });
  t.deepEqual(await reasons(x.brandId), [
    { text: 'a wide', reason: 'interval_wide', n: 4 },
    { text: 'b narrow', reason: 'interval_narrow', n: 1 },
    { text: 'c new', reason: 'no_history', n: 4 },
  ]);
  // Capture progress (the capture-progress operation's reading, here on the test's day rather than
  // the clock's), where a person follows the day's slots, counts them by reason too.
  const progress = await captureProgress(server.stores.pg, x.brandId, {
    now: ctx().now(),
    sampler: captureSampler(ctx()),
  });
  t.like(progress, { day: DAY, planned: 9, answered: 9, by_reason: summary.by_reason });
});

test("fixed: the brand's samples, else TRACKING_SAMPLES; reason fixed", async (t) => {
  const own = await seedTenant(server, brand({ mode: 'fixed', samples: 3 }, ['best crm']));
  const server_ = await seedTenant(server, brand(undefined, ['best crm']));
  for (const [x, n] of [
    [own, 3],
    [server_, 2],
  ] as const) {
    const summary = (await trackPrompts.run(ctx(), { brandId: x.brandId, date: DAY })) as CaptureSummary;
    t.like(summary, { planned: n, answers: n });
    t.deepEqual(await reasons(x.brandId), [{ text: 'best crm', reason: 'fixed', n }]);
  }
});

test("the plan's daily and monthly capture limits cut the plan, narrowest cells first", async (t) => {
  // Starter: 500 a day. 13 prompts x 2 platforms x 20 samples want 520.
  const prompts = Array.from({ length: 13 }, (_, i) => `prompt ${String(i).padStart(2, '0')}`);
  const x = await seedTenant(
    server,
    brand({ mode: 'fixed', samples: 20 }, prompts, ['chatgpt', 'perplexity']),
    'starter',
  );
  const plan = () => planSlots(server.stores.pg, { brandId: x.brandId, day: DAY, sampler: captureSampler(ctx()) });
  const day = await plan();
  t.is(day.length, CAPTURE_LIMITS.starter.daily);
  // The later cells are cut first, each only as much as needed: the last cell gives 19 and the one before 1.
  t.is(day.filter((s) => s.reason === 'limit').length, 1 + 19);
  t.is(day.filter((s) => s.reason === 'fixed').length, 24 * 20);

  // The month: the organization's slots of other days this month count; 100 are left.
  await server.stores.pg.query(
    `INSERT INTO capture_runs (id, organization_id, brand_id, prompt_id, platform, region, day, sample)
     SELECT gen_random_uuid(), $1, $2, $3, 'chatgpt', 'US', $4::date - (1 + g / 500), g % 500
       FROM generate_series(0, $5::int - 101) g`,
    [x.organizationId, x.brandId, x.promptIds[0], DAY, CAPTURE_LIMITS.starter.monthly],
  );
  const left = await plan();
  t.is(left.length, 100);
  t.true(left.some((s) => s.reason === 'limit'));
  // A run records no more than the plan, with the reasons planned.
  const summary = (await trackPrompts.run(ctx(), { brandId: x.brandId, date: DAY })) as CaptureSummary;
  t.is(summary.planned, 100);
  const { rows } = await server.stores.pg.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM capture_runs WHERE organization_id = $1 AND day >= '2026-11-01'`,
    [x.organizationId],
  );
  t.is(rows[0].n, CAPTURE_LIMITS.starter.monthly);
});

test('the preview: fixed and adaptive captures and cost equal the plans, priced from the table', async (t) => {
  const x = await seedTenant(server, brand(ADAPTIVE, ['a wide', 'b narrow', 'c new'], ['chatgpt', 'perplexity']));
  // The preview plans the clock's today: the history sits 2 to 27 days before it, inside the window
  // even if the day turns during the test.
  const today = isoDay(new Date());
  const before = (i: number) => addDays(today, -2 - (i % 26));
  await ingestLines(server, [...history(x.promptIds[0], 20, 10, before), ...history(x.promptIds[1], 300, 0, before)]);
  const r = await get(server, `/api/mcp/capture-estimate?brand_id=${x.brandId}`, x.key);
  t.is(r.status, 200);
  t.is(r.body.sampling, 'adaptive');
  // The fixed column: TRACKING_SAMPLES (2), the brand storing no fixed samples of its own.
  t.is(r.body.samples, 2);
  t.is(r.body.captures_per_day, 3 * 2 * 2);
  // Adaptive: the history is chatgpt's only, so perplexity's cells have none (max 4 each);
  // chatgpt: wide 4, narrow 1, new 4.
  t.deepEqual(r.body.adaptive.by_reason, { interval_wide: 4, interval_narrow: 1, no_history: 4 + 3 * 4 });
  t.is(r.body.adaptive.captures_per_day, 9 + 12);
  t.is(r.body.adaptive.captures_per_month, 21 * 30);
  const table = priceTable(server.config.tracking);
  const cost = (provider: 'openai' | 'perplexity', perDay: number) =>
    Math.round(answerCost(table, provider)! * (perDay * 30) * 100) / 100;
  t.deepEqual(
    r.body.adaptive.platforms.map((p: any) => [p.platform, p.captures_per_day, p.monthly_cost_usd]),
    [
      ['chatgpt', 9, cost('openai', 9)],
      ['perplexity', 12, cost('perplexity', 12)],
    ],
  );
  t.is(r.body.adaptive.monthly_cost_usd, Math.round((cost('openai', 9) + cost('perplexity', 12)) * 100) / 100);
  t.is(r.body.monthly_cost_usd, Math.round((cost('openai', 6) + cost('perplexity', 6)) * 100) / 100);
  // Another adaptive setting asked for: max 2, target 50 points (every cell with history narrow).
  const q = await get(
    server,
    `/api/mcp/capture-estimate?brand_id=${x.brandId}&max_samples=2&target_half_width=50`,
    x.key,
  );
  t.deepEqual(q.body.adaptive.by_reason, { interval_narrow: 2, no_history: 4 * 2 });
});

test('sampling is set through update-brand and listed by list_brands; bad values are refused by name', async (t) => {
  const x = await seedTenant(server, brand(undefined, ['best crm']));
  const patch = (sampling: unknown) =>
    call(server, 'PATCH', `/api/mcp/brands/${x.brandId}`, { key: x.key, body: { sampling } });
  const listed = async () =>
    (await get(server, '/api/mcp/brands', x.key)).body.find((b: any) => b.id === x.brandId).sampling;
  t.deepEqual(await listed(), { mode: 'fixed', samples: 2 });
  const set = await patch({ mode: 'adaptive', max_samples: 6 });
  t.is(set.status, 200);
  t.deepEqual(set.body.sampling, { mode: 'adaptive', min_samples: 1, max_samples: 6, target_half_width: 5 });
  t.deepEqual(await listed(), set.body.sampling);
  const bad = await patch({ mode: 'adaptive', min_samples: 5, max_samples: 3 });
  t.is(bad.status, 400);
  t.is(bad.body.error, 'sampling.max_samples: max_samples must be at least min_samples');
  t.is(
    (await patch({ mode: 'fixed', samples: 0 })).body.error,
    'sampling.samples: samples must be a whole number from 1 to 20',
  );
  t.is((await patch({ mode: 'fixed', samples: 4 })).status, 200);
  t.deepEqual(await listed(), { mode: 'fixed', samples: 4 });
});
