// The daily track-prompts job on the real stores: plan limits, idempotent re-runs, crash recovery,
// concurrent instances, and failed captures kept out of the figures. Live captures go to one fake
// provider server on 127.0.0.1 (fixtures of test/fixtures/engines); no test reaches the network.
// test-process: shared
import test from 'ava';
import pino from 'pino';
import type { TrackingConfig } from '../../src/config.ts';
import { runClaimed } from '../../jobs/schedule.ts';
import type { JobContext } from '../../jobs/registry.ts';
import { trackPrompts } from '../../jobs/track-prompts.ts';
import { runCommand } from '../../src/cli/commands.ts';
import { openPostgres } from '../../src/stores/postgres.ts';
import { runCapture, type CaptureSummary } from '../../src/tracking/capture/capture.ts';
import { captureSampler } from '../../src/operations/capture-sampling.ts';
import { simulatedEngines } from '../../src/tracking/capture/engines/registry.ts';
import { PLATFORMS } from '../../src/tenancy/tracked.ts';
import { get, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { fixtureText, startFake, type FakeServer } from './engines/fake-server.ts';

let server: TestServer;
let ai: FakeServer;

// One fake for every live provider, told apart by path. A prompt containing FAIL breaks ChatGPT;
// Google shows no AI Overview for it.
function provider(req: { method: string; path: string; query: URLSearchParams; body: any }) {
  const text = JSON.stringify(req.body ?? '') + (req.query.get('q') ?? '');
  if (req.path === '/openai/responses') {
    return text.includes('FAIL')
      ? { status: 500, body: fixtureText('openai', 'server-error.json') }
      : { body: fixtureText('openai', 'good.json') };
  }
  if (req.path === '/perplexity/chat/completions') return { body: fixtureText('perplexity', 'good.json') };
  if (req.path === '/serpapi/search.json') {
    const engine = req.query.get('engine');
    if (engine === 'google')
      return {
        body: fixtureText(
          'serpapi',
          text.includes('FAIL') ? 'google-no-ai-overview.json' : 'google-ai-overview-inline.json',
        ),
      };
    if (engine === 'google_ai_mode') return { body: fixtureText('serpapi', 'google-ai-mode.json') };
    return { body: fixtureText('serpapi', 'bing-copilot.json') };
  }
  return { status: 404, body: { error: { message: `no fake for ${req.path}` } } };
}

test.before(async () => {
  ai = await startFake(provider);
  // Gemini, Anthropic and xAI have no key here: their platforms are "not configured".
  server = await startTestServer({
    OPENAI_API_KEY: 'test-openai',
    OPENAI_BASE_URL: `${ai.url}/openai`,
    PERPLEXITY_API_KEY: 'test-pplx',
    PERPLEXITY_BASE_URL: `${ai.url}/perplexity`,
    SERPAPI_API_KEY: 'test-serp',
    SERPAPI_BASE_URL: `${ai.url}/serpapi`,
    TRACKING_MAX_ATTEMPTS: '2',
    TRACKING_RETRY_BASE_MS: '1',
  });
});
test.after.always(async () => {
  await server?.stop();
  await ai?.close();
});

const DAY = '2026-11-01';

function ctxFor(tracking: Partial<TrackingConfig> = {}, day = DAY): JobContext {
  return {
    stores: server.stores,
    config: { ...server.config, tracking: { ...server.config.tracking, ...tracking } },
    log: pino({ level: 'silent' }),
    now: () => new Date(`${day}T06:00:00Z`),
  };
}
const simulated = (over: Partial<TrackingConfig> = {}) => ctxFor({ engine: 'simulated', ...over });
const run = (ctx: JobContext, brandId: string, date = DAY) =>
  trackPrompts.run(ctx, { brandId, date }) as Promise<CaptureSummary>;

function brand(prompts: { text: string; platforms: string[]; regions?: string[] }[], region = 'US') {
  return [
    {
      name: 'Acme',
      slug: 'acme',
      region,
      domains: ['acme.example'],
      aliases: [],
      competitors: [{ name: 'Globex', domains: ['globex.example'] }],
      topics: [{ name: 'CRM', prompts: prompts.map((p) => ({ regions: [], ...p })) }],
    },
  ];
}

async function storedAnswers(brandId: string): Promise<number> {
  const [r] = await server.stores.ch.system<{ n: number }>(
    'SELECT sum(sign) AS n FROM answers WHERE brand_id = {b:UUID}',
    { b: brandId },
  );
  return Number(r?.n ?? 0);
}

async function runs(brandId: string) {
  const { rows } = await server.stores.pg.query(
    `SELECT c.platform, c.region, c.sample, c.status, c.engine, c.attempts, c.error_kind, c.error, c.answer_id = c.id AS has_answer, p.text
       FROM capture_runs c JOIN prompts p ON p.id = c.prompt_id WHERE c.brand_id = $1 ORDER BY p.text COLLATE "C", c.platform, c.region, c.sample`,
    [brandId],
  );
  return rows;
}

test('plan limits: a starter brand is asked on chatgpt and perplexity only, a growth brand on all platforms but grok', async (t) => {
  const starter = await seedTenant(
    server,
    brand([{ text: 'best crm', platforms: ['chatgpt', 'perplexity', 'gemini', 'grok'], regions: ['US', 'GB'] }]),
    'starter',
  );
  const growth = await seedTenant(server, brand([{ text: 'best crm', platforms: [...PLATFORMS] }], 'DE'), 'growth');
  const a = await run(simulated(), starter.brandId);
  t.like(a, { engine: 'simulated', planned: 4, answers: 4, skipped: 0, failed: [], not_configured: [] });
  t.deepEqual([...new Set((await runs(starter.brandId)).map((r) => r.platform))], ['chatgpt', 'perplexity']);
  const b = await run(simulated(), growth.brandId);
  t.like(b, { planned: 7, answers: 7 });
  const rows = await runs(growth.brandId);
  t.deepEqual(rows.map((r) => r.platform).sort(), PLATFORMS.filter((p) => p !== 'grok').sort());
  // No regions on the prompt: the brand's own region.
  t.true(rows.every((r) => r.region === 'DE' && r.status === 'succeeded' && r.engine === 'simulated' && r.has_answer));
  t.is(await storedAnswers(growth.brandId), 7);
});

test('idempotent: a second run of the day skips what succeeded; samples are separate answers', async (t) => {
  const x = await seedTenant(server, brand([{ text: 'best crm for startups', platforms: ['chatgpt', 'perplexity'] }]));
  const ctx = simulated({ samples: 3 });
  t.like(await run(ctx, x.brandId), { planned: 6, answers: 6, skipped: 0 });
  t.is(await storedAnswers(x.brandId), 6);
  t.like(await run(ctx, x.brandId), { planned: 6, answers: 0, skipped: 6 });
  t.is(await storedAnswers(x.brandId), 6);
  t.deepEqual(
    (await runs(x.brandId)).map((r) => r.sample),
    [0, 1, 2, 0, 1, 2],
  );
});

test('a crash mid-run is resumed without duplicates: stale claims are taken over, live ones left alone', async (t) => {
  const x = await seedTenant(
    server,
    brand([{ text: 'best crm for startups', platforms: ['chatgpt', 'perplexity'], regions: ['US', 'GB'] }]),
  );
  t.like(await run(simulated(), x.brandId), { answers: 4 });
  // A worker died after storing two answers but before marking them; another never got to its slot;
  // a fourth slot is held by a worker that is still alive.
  const ids = (
    await server.stores.pg.query('SELECT id FROM capture_runs WHERE brand_id = $1 ORDER BY platform, region', [
      x.brandId,
    ])
  ).rows.map((r) => r.id);
  await server.stores.pg.query(
    `UPDATE capture_runs SET status = 'running', claim_token = gen_random_uuid(), claimed_at = now() - interval '1 hour' WHERE id = ANY($1::uuid[])`,
    [ids.slice(0, 2)],
  );
  await server.stores.pg.query(`UPDATE capture_runs SET status = 'pending', answer_id = NULL WHERE id = $1`, [ids[2]]);
  await server.stores.pg.query(
    `UPDATE capture_runs SET status = 'running', claim_token = gen_random_uuid(), claimed_at = now() WHERE id = $1`,
    [ids[3]],
  );
  const resumed = await run(simulated(), x.brandId);
  t.like(resumed, { planned: 4, answers: 3, skipped: 0, in_progress: 1 });
  t.is(await storedAnswers(x.brandId), 4, 're-captured slots replaced their answers');
  await server.stores.pg.query(`UPDATE capture_runs SET claimed_at = now() - interval '1 hour' WHERE id = $1`, [
    ids[3],
  ]);
  t.like(await run(simulated(), x.brandId), { answers: 1, skipped: 3, in_progress: 0 });
  t.is(await storedAnswers(x.brandId), 4);
  t.deepEqual(
    (await runs(x.brandId)).map((r) => [r.status, r.attempts]),
    [
      ['succeeded', 2],
      ['succeeded', 2],
      ['succeeded', 2],
      ['succeeded', 2],
    ],
  );
});

test('an adapter that throws mid-run fails only its slot, and the next run completes the day', async (t) => {
  const x = await seedTenant(
    server,
    brand([{ text: 'best crm for startups', platforms: ['chatgpt', 'perplexity', 'gemini'] }]),
  );
  const ctx = simulated();
  const { loadSimBrands } = await import('../../src/tracking/capture/simulated/brands.ts');
  const [sim] = await loadSimBrands(server.stores.pg, [x.brandId]);
  const real = simulatedEngines(() => sim).forPlatform('chatgpt');
  const flaky = {
    kind: 'simulated' as const,
    forPlatform: () => ({
      ...real,
      capture: async (req: any) => {
        if (req.platform === 'perplexity') throw new Error('socket hang up');
        return real.capture(req);
      },
    }),
  };
  const first = await runCapture(ctx, { brandId: x.brandId, date: DAY, engines: flaky, sampler: captureSampler(ctx) });
  t.like(first, {
    answers: 2,
    failed: [
      { platform: 'perplexity', region: 'US', sample: 0, error: 'the adapter failed unexpectedly: socket hang up' },
    ],
  });
  t.is(await storedAnswers(x.brandId), 2);
  t.like(await run(ctx, x.brandId), { answers: 1, skipped: 2, failed: [] });
  t.is(await storedAnswers(x.brandId), 3);
});

test('two instances ticking at once: one runs the day, every answer is stored once', async (t) => {
  const x = await seedTenant(
    server,
    brand([{ text: 'best crm for startups', platforms: ['chatgpt', 'perplexity'], regions: ['US', 'GB', 'FR'] }]),
  );
  // On a real server the second instance is a second connection pool.
  const other = process.env.DATABASE_URL
    ? { ...server.stores, pg: await openPostgres({ url: server.env.DATABASE_URL, dataDir: server.dataDir }) }
    : server.stores;
  t.teardown(() => (other !== server.stores ? other.pg.close() : undefined));
  const outcomes = await Promise.all([
    runClaimed(simulated(), trackPrompts, DAY, x.brandId),
    runClaimed({ ...simulated(), stores: other }, trackPrompts, DAY, x.brandId),
  ]);
  t.deepEqual(outcomes.map((o) => o.ran).sort(), [false, true]);
  t.is(await storedAnswers(x.brandId), 6);
  // Runs that bypass the scheduler (a manual run beside the scheduled one) still split the slots.
  const y = await seedTenant(
    server,
    brand([{ text: 'best crm for startups', platforms: ['chatgpt', 'perplexity'], regions: ['US', 'GB', 'FR'] }]),
  );
  const both = await Promise.all([
    run(simulated({ concurrency: 1 }), y.brandId),
    run({ ...simulated({ concurrency: 1 }), stores: other }, y.brandId),
  ]);
  t.is(both[0].answers + both[1].answers, 6);
  t.is(await storedAnswers(y.brandId), 6);
});

test('live: failed captures are reported with their reason and never stored, so the figures count only real answers', async (t) => {
  const x = await seedTenant(
    server,
    brand([
      {
        text: 'best crm for startups',
        platforms: ['chatgpt', 'perplexity', 'gemini', 'claude', 'google_ai_overviews'],
      },
      { text: 'FAIL on purpose', platforms: ['chatgpt', 'perplexity', 'google_ai_overviews'] },
    ]),
  );
  const summary = await run(ctxFor(), x.brandId);
  t.like(summary, { engine: 'live', planned: 8, answers: 4, skipped: 0, no_answer: 1, in_progress: 0 });
  t.deepEqual(summary.failed, [
    {
      prompt_id: x.promptIds[1],
      platform: 'chatgpt',
      region: 'US',
      sample: 0,
      reason: 'fixed',
      error:
        'OpenAI answered HTTP 500: The server had an error while processing your request. Sorry about that! (after 2 attempts)',
    },
  ]);
  t.deepEqual(summary.not_configured, ['gemini', 'claude']);
  t.deepEqual(
    (await runs(x.brandId)).map((r) => [r.text, r.platform, r.status, r.engine, r.error_kind]),
    [
      ['FAIL on purpose', 'chatgpt', 'failed', 'openai', 'http_error'],
      ['FAIL on purpose', 'google_ai_overviews', 'no_answer', 'serpapi', 'no_answer'],
      ['FAIL on purpose', 'perplexity', 'succeeded', 'perplexity', null],
      ['best crm for startups', 'chatgpt', 'succeeded', 'openai', null],
      ['best crm for startups', 'claude', 'not_configured', 'anthropic', 'not_configured'],
      ['best crm for startups', 'gemini', 'not_configured', 'gemini', 'not_configured'],
      ['best crm for startups', 'google_ai_overviews', 'succeeded', 'serpapi', null],
      ['best crm for startups', 'perplexity', 'succeeded', 'perplexity', null],
    ],
  );
  const figures = (await get(server, `/api/v1/visibility-summary?brand_id=${x.brandId}`, x.key)).body;
  t.is(figures.totals.resultCount, 4);
  t.is(figures.totals.mentionAnswers, 4, 'every stored answer is a real one that names the brand');
  const [model] = await server.stores.ch.system<{ model: string }>(
    `SELECT model FROM answers WHERE brand_id = {b:UUID} AND platform = 'chatgpt' GROUP BY model HAVING sum(sign) > 0`,
    { b: x.brandId },
  );
  t.is(model.model, 'gpt-4o-2024-08-06');
  // The searches go with the answer: ChatGPT's response lists its query; Perplexity's and SerpApi's say none.
  const searches = await server.stores.ch.system<{ platform: string; q: string[]; known: number }>(
    `SELECT toString(platform) AS platform, search_queries AS q, search_queries_known AS known FROM answers
     WHERE brand_id = {b:UUID} GROUP BY platform, search_queries, search_queries_known HAVING sum(sign) > 0
     ORDER BY platform`,
    { b: x.brandId },
  );
  t.deepEqual(
    searches.map((r) => [r.platform, r.q, Number(r.known)]),
    [
      ['chatgpt', ['best crm for startups'], 1],
      ['google_ai_overviews', [], 0],
      ['perplexity', [], 0], // both of its answers
    ],
  );
  const fanOut = (await get(server, `/api/v1/search-queries?brand_id=${x.brandId}`, x.key)).body;
  t.like(fanOut.totals, { answers: 4, answers_known: 1, answers_with_search: 1, trigger_rate: 100, queries: 1 });
  // A re-run tries the failed slot again (and only it); it still fails and is still not stored.
  const again = await run(ctxFor(), x.brandId);
  t.like(again, { answers: 0, skipped: 5, no_answer: 0, failed: [{ platform: 'chatgpt' }] });
  t.is(await storedAnswers(x.brandId), 4);
});

test("live answers are today's: another day is refused; an unknown brand too", async (t) => {
  const x = await seedTenant(server);
  await t.throwsAsync(run(ctxFor(), x.brandId, '2026-10-30'), {
    message: /captures live answers for today only \(2026-11-01\), not 2026-10-30/,
  });
  await t.throwsAsync(run(simulated(), '00000000-0000-4000-8000-00000000dead'), {
    message: 'Unknown brand 00000000-0000-4000-8000-00000000dead',
  });
});

test('answerscope jobs run track-prompts prints the summary', async (t) => {
  const x = await seedTenant(server);
  const ctx = simulated();
  const out = (await runCommand({ ...ctx, cwd: process.cwd() }, [
    'jobs',
    'run',
    'track-prompts',
    '--brand',
    x.brandId,
    '--date',
    DAY,
  ])) as CaptureSummary;
  t.deepEqual(out, {
    date: DAY,
    engine: 'simulated',
    planned: 2,
    by_reason: { fixed: 2 },
    answers: 2,
    skipped: 0,
    no_answer: 0,
    in_progress: 0,
    failed: [],
    not_configured: [],
  });
});
