// /healthz, /readyz and /metrics on a running server: no key, outside the rate limit; readiness
// reports a ClickHouse outage by name and recovers with the store; the metrics carry the request,
// store, ingest, webhook and job counters once something happened.
import test from 'ava';
import pino from 'pino';
import { call, get, seedTenant, startTestServer, uniq, type TestServer } from '../helpers/server.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { ingestLines } from '../../src/tracking/ingest/file.ts';
import { runClaimed } from '../../jobs/schedule.ts';
import { defineJob } from '../../jobs/registry.ts';
import { readiness } from '../../src/http/health.ts';
import { observeStores } from '../../src/stores/observe.ts';
import { storeOutage } from '../../src/stores/outage.ts';
import type { Stores } from '../../src/stores/index.ts';
import { storedAnswerPlaces } from '../../src/stores/scoped-query.ts';
import { engineClientsForTests } from '../../src/stores/clickhouse.ts';

let server: TestServer;
let receiver: Receiver;
test.before(async () => {
  receiver = await startReceiver();
  // A small limit, so the test can show the probes are outside it; each test calls from its own
  // address (X-Forwarded-For, trusted here), as tests in a file run concurrently.
  server = await startTestServer({
    RATE_LIMIT_MAX: '5',
    TRUST_PROXY: '1',
    ALLOW_PRIVATE_URLS: '1',
    WEBHOOK_RETRY_SCHEDULE_MS: '0',
  });
});
test.after.always(async () => {
  await server?.stop();
  await receiver?.close();
});

/** GET from a given client address. */
const from = (address: string, path: string, key?: string) =>
  call(server, 'GET', path, { key, headers: { 'x-forwarded-for': address } });

const refused = () => Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:8123'), { code: 'ECONNREFUSED' });

// Serial tests run first, alone: this one breaks the shared server's ClickHouse for a moment.
test.serial(
  'a ClickHouse outage: /readyz names it, analytics fail fast with a clear 500, and both recover',
  async (t) => {
    const tenant = await seedTenant(server);
    const summary = `/api/v1/visibility-summary?brand_id=${tenant.brandId}`;
    t.is((await from('10.1.0.1', summary, tenant.key)).status, 200);

    // The embedded chDB cannot go down; its clients failing like an unreachable server is the same
    // to the app (reads run on connections of their own, the readiness probe on the main one).
    const clients = engineClientsForTests(server.stores.ch);
    const originals = clients.map((c) => c.query);
    for (const c of clients) c.query = (() => Promise.reject(refused())) as typeof c.query;
    try {
      const ready = await get(server, '/readyz');
      t.is(ready.status, 503);
      t.is(ready.body.status, 'not ready');
      t.false(ready.body.checks.clickhouse.ok);
      t.true(ready.body.checks.postgres.ok);
      const started = Date.now();
      // A range not asked for before: the result cache cannot answer it.
      const failed = await from('10.1.0.1', `${summary}&date_from=2020-01-01`, tenant.key);
      t.is(failed.status, 500);
      t.deepEqual(failed.body, { error: 'Analytics store unavailable' });
      // Not retried until the query budget (10 s) runs out.
      t.true(Date.now() - started < 10_000);
    } finally {
      clients.forEach((c, i) => {
        c.query = originals[i];
      });
    }
    t.is((await get(server, '/readyz')).status, 200);
    t.is((await from('10.1.0.1', `${summary}&date_from=2020-01-01`, tenant.key)).status, 200);
  },
);

test('/healthz and /readyz answer without a key and outside the rate limit', async (t) => {
  for (let i = 0; i < 8; i++) {
    const health = await get(server, '/healthz');
    t.is(health.status, 200);
    t.deepEqual(health.body, { status: 'ok' });
  }
  const ready = await get(server, '/readyz');
  t.is(ready.status, 200, JSON.stringify(ready.body));
  t.is(ready.body.status, 'ready');
  t.like(ready.body.checks, { postgres: { ok: true }, clickhouse: { ok: true }, migrations: { ok: true } });
  // The API from the same address is limited (RATE_LIMIT_MAX=5); the probes still answer.
  const { key } = await seedTenant(server);
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) statuses.push((await from('10.2.0.1', '/api/v1/whoami', key)).status);
  t.true(statuses.includes(429));
  t.is((await from('10.2.0.1', '/readyz')).status, 200);
  t.is((await from('10.2.0.1', '/metrics')).status, 200);
});

test('readiness gives up on a store that does not answer, and names it', async (t) => {
  const hung = {
    ...server.stores,
    ch: { ...server.stores.ch, system: () => new Promise<never>(() => {}) },
  } as unknown as Stores;
  // The store never answers: readiness answering at all is its giving up.
  const result = await readiness(hung, { timeoutMs: 300, log: pino({ level: 'silent' }) });
  t.is(result.status, 'not ready');
  t.deepEqual(result.checks.clickhouse, { ok: false, error: 'no answer within 300 ms' });
  t.true(result.checks.postgres.ok);
});

test('store failures are named by the store they came from', async (t) => {
  const fake = {
    pg: { query: () => Promise.reject(refused()), tx: () => Promise.reject(new Error('Query read timeout')) },
    ch: { rows: () => Promise.reject(refused()), insert: () => Promise.reject(new Error('Timeout error.')) },
  } as unknown as Stores;
  const seen: string[] = [];
  const stores = observeStores(fake, (store, call, _s, failed) => seen.push(`${store}.${call}:${failed}`));
  const outage = (p: Promise<unknown>) => p.then(() => undefined, storeOutage);
  t.is(await outage(stores.pg.query('SELECT 1')), 'Database unavailable');
  t.is(await outage(stores.pg.tx(async () => 1)), 'Database unavailable');
  t.is(await outage(stores.ch.rows(storedAnswerPlaces([]))), 'Analytics store unavailable');
  t.is(await outage(stores.ch.insert('answers', [{}])), 'Analytics store unavailable');
  t.deepEqual(seen, ['postgres.query:true', 'postgres.tx:true', 'clickhouse.rows:true', 'clickhouse.insert:true']);
  t.is(storeOutage(new Error('column "x" does not exist')), undefined);
});

const sample = (text: string, name: string, labels: string) =>
  Number(new RegExp(`^${name}\\{${labels}\\} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);

test('/metrics exposes request, store, ingest, webhook and job counters', async (t) => {
  const tenant = await seedTenant(server);
  await from('10.3.0.1', '/api/v1/whoami', tenant.key);
  await from('10.3.0.1', '/api/mcp/nope', tenant.key);
  // A raw endpoint (src/operations/raw-endpoints.ts) is labelled with its declared name.
  t.is((await fetch(`${server.url}/t.js`)).status, 200);

  // Ingest: one valid answer, one invalid line.
  const answer = {
    prompt_id: tenant.promptIds[0],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: '2026-11-01T06:00:00Z',
    text: 'Acme is fine.',
    citations: [],
  };
  async function* lines() {
    yield { line: 1, text: JSON.stringify(answer) };
    yield { line: 2, text: '{not json' };
  }
  const summary = await ingestLines(server.stores, lines());
  t.is(summary.inserted, 1);

  // A job run, and a skipped second claim of the same slot.
  const job = defineJob({
    name: uniq('metrics-job'),
    schedule: '0 3 * * *',
    description: 'counts',
    run: async () => ({ ok: true }),
  });
  const ctx = { stores: server.stores, config: server.config, log: server.log, now: () => new Date() };
  await runClaimed(ctx, job, '2026-11-01');
  await runClaimed(ctx, job, '2026-11-01');

  // A webhook test delivery to a local receiver, sent by the server's worker.
  const hook = receiver.hook();
  const headers = { 'x-forwarded-for': '10.3.0.2' };
  const created = await call(server, 'POST', '/api/mcp/webhooks', {
    key: tenant.key,
    headers,
    body: { url: hook.url, events: ['webhook.test'] },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.is(
    (await call(server, 'POST', `/api/mcp/webhooks/${created.body.id}/test`, { key: tenant.key, headers })).status,
    200,
  );
  await receiver.waitFor(hook, 1);

  const res = await fetch(`${server.url}/metrics`);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/plain/);
  let text = await res.text();
  // The delivery is recorded just after the receiver answered; give it a moment.
  for (let i = 0; i < 40 && !/answerscope_webhook_delivery_attempts_total\{outcome="succeeded"\}/.test(text); i++) {
    await new Promise((r) => setTimeout(r, 50));
    text = await (await fetch(`${server.url}/metrics`)).text();
  }
  t.true(sample(text, 'answerscope_http_requests_total', 'operation="whoami",method="GET",status="200"') >= 1);
  t.true(sample(text, 'answerscope_http_requests_total', 'operation="other",method="GET",status="404"') >= 1);
  t.true(sample(text, 'answerscope_http_requests_total', 'operation="tracking-script",method="GET",status="200"') >= 1);
  t.true(sample(text, 'answerscope_http_request_duration_seconds_count', 'operation="whoami",status="200"') >= 1);
  t.regex(text, /answerscope_http_request_duration_seconds_bucket\{le="0.1",operation="whoami",status="200"\} \d+/);
  t.true(
    sample(text, 'answerscope_store_call_duration_seconds_count', 'store="postgres",call="query",outcome="ok"') >= 1,
  );
  t.true(
    sample(text, 'answerscope_store_call_duration_seconds_count', 'store="clickhouse",call="insert",outcome="ok"') >= 1,
  );
  t.true(sample(text, 'answerscope_ingest_answers_total', 'outcome="inserted"') >= 1);
  t.true(sample(text, 'answerscope_ingest_answers_total', 'outcome="rejected"') >= 1);
  t.is(sample(text, 'answerscope_job_runs_total', `job="${job.name}",outcome="succeeded"`), 1);
  t.is(sample(text, 'answerscope_job_runs_total', `job="${job.name}",outcome="skipped"`), 1);
  t.true(sample(text, 'answerscope_webhook_delivery_attempts_total', 'outcome="succeeded"') >= 1);
  t.regex(text, /^answerscope_process_resident_memory_bytes \d+/m);
});
