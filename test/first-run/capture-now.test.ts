// `Capture now` (docs/app.md "The first answers today") over the API, with the simulated engine:
// requests at once start one capture and the others answer 409 saying when it can run again; the
// progress counts the day's answers up to the plan's; a brand with nothing to ask is refused
// without using up its day; before any capture the progress says when the daily one runs.
// test-process: shared
import test from 'ava';
import { call, get, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { NOTHING_TO_CAPTURE } from '../../src/tracking/capture/capture-now.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ TRACKING_ENGINE: 'simulated' });
});
test.after.always(async () => {
  await server?.stop();
});

const progress = async (key: string, brandId: string) =>
  (await get(server, `/api/mcp/capture-progress?brand_id=${brandId}`, key)).body;

test('requests at once start one capture; the others are 409 until the next UTC day', async (t) => {
  const tenant = await seedTenant(server);
  const before = await progress(tenant.key, tenant.brandId);
  t.is(before.capture_now, null);
  t.is(before.can_run_again_at, null);
  t.is(before.answered, 0);
  t.is(before.planned, 2); // one prompt on ChatGPT and Perplexity, one region, one sample
  t.regex(before.next_scheduled_at, /T05:00:00\.000Z$/);
  t.true(Date.parse(before.next_scheduled_at) > Date.now());

  const replies = await Promise.all(
    Array.from({ length: 6 }, () =>
      call(server, 'POST', '/api/mcp/capture-now', { key: tenant.key, body: { brand_id: tenant.brandId } }),
    ),
  );
  const ok = replies.filter((r) => r.status === 200);
  const refused = replies.filter((r) => r.status === 409);
  t.is(ok.length, 1);
  t.is(refused.length, 5);
  t.like(ok[0].body, { brand_id: tenant.brandId, planned: 2, status: 'running' });
  const tomorrow = new Date(Date.parse(`${ok[0].body.day}T00:00:00.000Z`) + 86_400_000).toISOString();
  for (const r of refused) {
    t.is(r.body.error, `Capture now ran for this brand today; it can run again from ${tomorrow}`);
  }
  const done = await until(
    () => progress(tenant.key, tenant.brandId),
    (p) => p.capture_now?.finished_at !== null && p.capture_now !== null,
  );
  t.is(done.answered, 2);
  t.is(done.capture_now.error, null);
  t.is(done.can_run_again_at, tomorrow);
  // The answers are the brand's: the figures count them. The simulated engine answers a standard
  // question with a shopping answer now and then, which the figures leave to the shopping ones.
  const total = async (mode: string) =>
    (await get(server, `/api/mcp/answers?brand_id=${tenant.brandId}&mode=${mode}`, tenant.key)).body.total as number;
  const standard = await total('standard');
  t.is(standard + (await total('shopping')), 2);
  const summary = await get(server, `/api/mcp/visibility-summary?brand_id=${tenant.brandId}`, tenant.key);
  t.is(summary.status, 200);
  t.is(summary.body.totals.resultCount, standard);
});

test('a brand with no active prompt is refused and keeps its day', async (t) => {
  const tenant = await seedTenant(server, [{ name: 'Empty', slug: 'empty', domains: ['empty.example'] }]);
  const first = await call(server, 'POST', '/api/mcp/capture-now', {
    key: tenant.key,
    body: { brand_id: tenant.brandId },
  });
  t.is(first.status, 400);
  t.is(first.body.error, NOTHING_TO_CAPTURE);
  t.is((await progress(tenant.key, tenant.brandId)).capture_now, null);
});

test('another organization cannot start or read a brand’s capture', async (t) => {
  const a = await seedTenant(server);
  const b = await seedTenant(server);
  const r = await call(server, 'POST', '/api/mcp/capture-now', { key: b.key, body: { brand_id: a.brandId } });
  t.is(r.status, 404);
  t.is((await get(server, `/api/mcp/capture-progress?brand_id=${a.brandId}`, b.key)).status, 404);
});
