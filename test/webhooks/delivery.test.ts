// Webhooks end to end against a local receiver: registration, Standard Webhooks signatures
// (checked with the reference library), retries after 500 and timeout, the transactional outbox,
// the daily digest, and tenancy. ALLOW_PRIVATE_URLS=1 lets the service reach 127.0.0.1.
// test-process: shared
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import test from 'ava';
import { figuresOnly } from '../helpers/figures.ts';
import { Webhook } from 'standardwebhooks';
import { call, get, seedTenant, startTestServer, uniq, type TestServer } from '../helpers/server.ts';
import { eventually, startReceiver, type Receiver } from './receiver.ts';
import { enqueueEvent } from '../../src/webhooks/outbox.ts';
import { ingestFile } from '../../src/tracking/ingest/file.ts';
import { findJob } from '../../jobs/index.ts';

let server: TestServer;
let receiver: Receiver;
test.before(async () => {
  server = await startTestServer({
    ALLOW_PRIVATE_URLS: '1',
    WEBHOOK_RETRY_SCHEDULE_MS: '300,300,300',
    WEBHOOK_TIMEOUT_MS: '1000',
  });
  receiver = await startReceiver();
});
test.after.always(async () => {
  await server?.stop();
  await receiver?.close();
});

async function register(key: string, url: string, events = ['webhook.test', 'opportunity.sent', 'digest.daily']) {
  const r = await call(server, 'POST', '/api/mcp/webhooks', { key, body: { url, events } });
  if (r.status !== 200) throw new Error(`register: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string; url: string; events: string[]; secret: string; created_at: string };
}

const deliveries = async (key: string, id: string) =>
  (await get(server, `/api/mcp/webhooks/${id}/deliveries`, key)).body;

/** Waits until the endpoint's newest delivery has reached a final status. */
const settled = (key: string, id: string) =>
  eventually(async () => {
    const list = await deliveries(key, id);
    return list[0] && ['succeeded', 'failed'].includes(list[0].status) ? list[0] : null;
  });

test('register, list without secrets, delete; the secret is a Standard Webhooks secret', async (t) => {
  const x = await seedTenant(server);
  const hook = receiver.hook();
  const created = await register(x.key, hook.url, ['digest.daily', 'digest.daily']);
  t.regex(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  t.deepEqual(created.events, ['digest.daily']);
  t.is(created.url, hook.url);
  const list = await get(server, '/api/mcp/webhooks', x.key);
  t.deepEqual(list.body, [
    { id: created.id, url: hook.url, events: ['digest.daily'], format: 'standard', created_at: created.created_at },
  ]);
  t.false(JSON.stringify(list.body).includes(created.secret));
  const del = await call(server, 'DELETE', `/api/mcp/webhooks/${created.id}`, { key: x.key });
  t.deepEqual([del.status, del.body], [200, { id: created.id, deleted: true }]);
  t.deepEqual((await get(server, '/api/mcp/webhooks', x.key)).body, []);
  const again = await call(server, 'DELETE', `/api/mcp/webhooks/${created.id}`, { key: x.key });
  t.deepEqual([again.status, again.body], [404, { error: 'Webhook not found' }]);
});

test('bad registrations are 400s naming the problem', async (t) => {
  const x = await seedTenant(server);
  const cases: [unknown, string][] = [
    [{ events: ['webhook.test'] }, 'url is required'],
    [{ url: 'ftp://example.com/x', events: ['webhook.test'] }, 'url must be an http(s) URL'],
    [{ url: 'not a url', events: ['webhook.test'] }, 'url must be an http(s) URL'],
    [
      { url: 'https://user:pw@example.com/x', events: ['webhook.test'] },
      'url must not contain a user name or password',
    ],
    [{ url: 'https://example.com/x' }, 'events is required'],
    [
      { url: 'https://example.com/x', events: [] },
      'events must be a non-empty list of: opportunity.sent, digest.daily, webhook.test, alert.fired',
    ],
    [
      { url: 'https://example.com/x', events: ['opportunity.created'] },
      'events must be a non-empty list of: opportunity.sent, digest.daily, webhook.test, alert.fired',
    ],
    [
      { url: 'https://example.com/x', events: 'webhook.test' },
      'events must be a non-empty list of: opportunity.sent, digest.daily, webhook.test, alert.fired',
    ],
  ];
  for (const [body, error] of cases) {
    const r = await call(server, 'POST', '/api/mcp/webhooks', { key: x.key, body });
    t.deepEqual([r.status, r.body], [400, { error }], JSON.stringify(body));
  }
});

test("another organization's webhook does not exist for the caller", async (t) => {
  const a = await seedTenant(server);
  const b = await seedTenant(server);
  const hook = receiver.hook();
  const created = await register(a.key, hook.url);
  t.deepEqual((await get(server, '/api/mcp/webhooks', b.key)).body, []);
  for (const [method, p] of [
    ['DELETE', `/api/mcp/webhooks/${created.id}`],
    ['POST', `/api/mcp/webhooks/${created.id}/test`],
    ['GET', `/api/mcp/webhooks/${created.id}/deliveries`],
    ['GET', '/api/mcp/webhooks/not-a-uuid/deliveries'],
    ['POST', '/api/mcp/webhooks/00000000-0000-4000-8000-000000000000/test'],
  ]) {
    const r = await call(server, method, p, { key: b.key });
    t.deepEqual([r.status, r.body], [404, { error: 'Webhook not found' }], `${method} ${p}`);
  }
  t.is((await get(server, '/api/mcp/webhooks', a.key)).body.length, 1);
  t.is(hook.received.length, 0);
});

test('a test event arrives signed per Standard Webhooks and is listed with its attempt', async (t) => {
  const x = await seedTenant(server);
  const hook = receiver.hook(() => ({ status: 204, body: '' }));
  const created = await register(x.key, hook.url, ['digest.daily']);
  const sent = await call(server, 'POST', `/api/mcp/webhooks/${created.id}/test`, { key: x.key });
  t.is(sent.status, 200);
  t.like(sent.body, { type: 'webhook.test', status: 'pending' });
  const [req] = await receiver.waitFor(hook, 1);
  t.is(req.headers['content-type'], 'application/json');
  t.is(req.headers['webhook-id'], sent.body.delivery_id);
  t.regex(String(req.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
  t.true(Math.abs(Number(req.headers['webhook-timestamp']) - Date.now() / 1000) < 30);
  // The reference verification, as a receiver would run it.
  const payload = new Webhook(created.secret).verify(req.body, req.headers as Record<string, string>) as any;
  t.is(payload.type, 'webhook.test');
  t.is(payload.data.endpoint_id, created.id);
  t.is(new Date(payload.timestamp).toISOString(), payload.timestamp);
  t.deepEqual(Object.keys(payload), ['type', 'timestamp', 'data']);
  t.throws(() =>
    new Webhook(created.secret).verify(
      req.body.replace('webhook.test', 'webhook.tesT'),
      req.headers as Record<string, string>,
    ),
  );
  const other = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  t.throws(() => new Webhook(other).verify(req.body, req.headers as Record<string, string>));

  const d = await settled(x.key, created.id);
  t.like(d, {
    id: sent.body.delivery_id,
    type: 'webhook.test',
    status: 'succeeded',
    attempt_count: 1,
    next_attempt_at: null,
  });
  t.is(d.attempts.length, 1);
  t.like(d.attempts[0], { attempt: 1, status_code: 204, response_excerpt: '', error: null });
  t.true(d.attempts[0].latency_ms >= 0);
});

test('a 500 is retried on the schedule with the same id, then succeeds', async (t) => {
  const x = await seedTenant(server);
  const hook = receiver.hook((n) =>
    n < 2 ? { status: 500, body: 'receiver broke' } : { status: 200, body: 'than\u0000ks' },
  );
  const created = await register(x.key, hook.url);
  await call(server, 'POST', `/api/mcp/webhooks/${created.id}/test`, { key: x.key });
  const reqs = await receiver.waitFor(hook, 3);
  t.is(new Set(reqs.map((r) => r.headers['webhook-id'])).size, 1);
  t.is(new Set(reqs.map((r) => r.body)).size, 1);
  for (const r of reqs)
    t.notThrows(() => new Webhook(created.secret).verify(r.body, r.headers as Record<string, string>));
  // At least the configured wait between attempts.
  t.true(reqs[1].at - reqs[0].at >= 250 && reqs[2].at - reqs[1].at >= 250);
  const d = await settled(x.key, created.id);
  t.is(d.status, 'succeeded');
  t.deepEqual(
    d.attempts.map((a: any) => [a.attempt, a.status_code, a.error, a.response_excerpt]),
    [
      [1, 500, 'HTTP 500 Internal Server Error', 'receiver broke'],
      [2, 500, 'HTTP 500 Internal Server Error', 'receiver broke'],
      [3, 200, null, 'thanks'],
    ],
  );
});

test('a receiver slower than the timeout gets a retry', async (t) => {
  const x = await seedTenant(server);
  const hook = receiver.hook((n) => (n === 0 ? { delayMs: 10_000 } : {}));
  const created = await register(x.key, hook.url);
  await call(server, 'POST', `/api/mcp/webhooks/${created.id}/test`, { key: x.key });
  await receiver.waitFor(hook, 2);
  const d = await settled(x.key, created.id);
  t.is(d.status, 'succeeded');
  t.is(d.attempts.length, 2);
  t.like(d.attempts[0], { attempt: 1, status_code: null });
  t.regex(d.attempts[0].error, /^Timed out after 1 s/);
  // Given up after the 1-s timeout, long before the receiver's 10-s answer.
  t.true(d.attempts[0].latency_ms >= 900 && d.attempts[0].latency_ms < 10_000);
  t.like(d.attempts[1], { attempt: 2, status_code: 200, error: null });
});

test('after the last retry the delivery is failed and never sent again', async (t) => {
  const x = await seedTenant(server);
  const hook = receiver.hook(() => ({ status: 503 }));
  const created = await register(x.key, hook.url);
  await call(server, 'POST', `/api/mcp/webhooks/${created.id}/test`, { key: x.key });
  const d = await settled(x.key, created.id);
  t.like(d, { status: 'failed', attempt_count: 4, next_attempt_at: null });
  t.deepEqual(
    d.attempts.map((a: any) => a.status_code),
    [503, 503, 503, 503],
  );
  await new Promise((r) => setTimeout(r, 1500));
  t.is(hook.received.length, 4);
});

test('the outbox is transactional: a rolled-back enqueue emits nothing', async (t) => {
  const x = await seedTenant(server);
  const hook = receiver.hook();
  const digestOnly = receiver.hook();
  await register(x.key, hook.url, ['opportunity.sent']);
  await register(x.key, digestOnly.url, ['digest.daily']);
  const event = (id: string) => ({ organizationId: x.organizationId, type: 'opportunity.sent' as const, data: { id } });
  await t.throwsAsync(
    server.stores.pg.tx(async (client) => {
      t.is(await enqueueEvent(client, event('rolled-back')), 1);
      throw new Error('status update failed');
    }),
    { message: 'status update failed' },
  );
  t.is(await server.stores.pg.tx((client) => enqueueEvent(client, event('committed'))), 1);
  const [req] = await receiver.waitFor(hook, 1);
  t.like(JSON.parse(req.body), { type: 'opportunity.sent', data: { id: 'committed' } });
  await new Promise((r) => setTimeout(r, 1500));
  t.is(hook.received.length, 1);
  t.is(digestOnly.received.length, 0);
  // Nobody subscribed: nothing queued.
  const y = await seedTenant(server);
  t.is(
    await server.stores.pg.tx((client) => enqueueEvent(client, { ...event('x'), organizationId: y.organizationId })),
    0,
  );
});

test('deleting an endpoint drops its pending deliveries', async (t) => {
  const x = await seedTenant(server);
  const hook = receiver.hook(() => ({ status: 500 }));
  const created = await register(x.key, hook.url);
  await call(server, 'POST', `/api/mcp/webhooks/${created.id}/test`, { key: x.key });
  await receiver.waitFor(hook, 1);
  await call(server, 'DELETE', `/api/mcp/webhooks/${created.id}`, { key: x.key });
  // A retry the worker claimed before the delete (they come every 300 ms here) may still land;
  // what must not happen is a new attempt from the dropped rows, so count from after that one.
  await new Promise((r) => setTimeout(r, 500));
  const before = hook.received.length;
  await new Promise((r) => setTimeout(r, 1500));
  t.is(hook.received.length, before);
  const { rows } = await server.stores.pg.query(
    'SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1',
    [created.id],
  );
  t.is(rows[0].n, 0);
});

test('the daily digest carries the figures the API returns for that day, once per brand and day', async (t) => {
  const x = await seedTenant(server, [
    {
      name: 'Acme',
      slug: 'acme',
      domains: ['acme.example'],
      competitors: [
        { name: 'Globex', domains: ['globex.example'] },
        { name: 'Initech', domains: ['initech.example'] },
      ],
      topics: [{ name: 'CRM', prompts: [{ text: 'best crm' }, { text: 'cheap crm' }] }],
    },
  ]);
  const [p1, p2] = x.promptIds;
  const line = (prompt: string, at: string, text: string, platform = 'chatgpt', model = 'gpt-4o') => ({
    prompt_id: prompt,
    platform,
    model,
    region: 'US',
    collected_at: at,
    text,
    citations: [],
  });
  const file = path.join(server.dataDir, `${uniq('digest')}.jsonl`);
  fs.writeFileSync(
    file,
    [
      // 2026-03-09: the day before.
      line(p1, '2026-03-09T08:00:00Z', 'Globex is the pick; Acme is fine.'),
      line(p2, '2026-03-09T09:00:00Z', 'Initech and Globex.'),
      line(p2, '2026-03-09T10:00:00Z', 'Acme wins.', 'perplexity', 'sonar'),
      // 2026-03-10: the digested day.
      line(p1, '2026-03-10T08:00:00Z', 'Acme first, then Globex. Acme again.'),
      line(p1, '2026-03-10T12:00:00Z', 'Acme.', 'perplexity', 'sonar'),
      line(p2, '2026-03-10T09:00:00Z', 'Globex, Initech and Acme.'),
      line(p2, '2026-03-10T23:59:59Z', 'Initech only.'),
      // Outside both days.
      line(p1, '2026-03-11T00:00:00Z', 'Acme Acme Acme.'),
    ]
      .map((l) => JSON.stringify(l))
      .join('\n'),
  );
  t.is((await ingestFile(server.stores, file)).rejected.length, 0);

  // Opportunities created on the digested day are listed; others are not.
  const opportunity = async (title: string, createdAt: string) => {
    const id = randomUUID();
    await server.stores.pg.query(
      `INSERT INTO content_opportunities (id, organization_id, brand_id, prompt_id, type, title, description, impact,
         opportunity_score, source_data, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'owned', $5, 'd', 'high', 72.5, '{}', $6, $6)`,
      [id, x.organizationId, x.brandId, p1, title, createdAt],
    );
    return id;
  };
  const fresh = await opportunity('Compare CRMs', '2026-03-10T05:00:00Z');
  await opportunity('Too old', '2026-03-09T23:59:59Z');
  await opportunity('Too new', '2026-03-11T00:00:00Z');

  const hook = receiver.hook();
  await register(x.key, hook.url, ['digest.daily']);
  const job = findJob('daily-digest')!;
  const ctx = { stores: server.stores, config: server.config, log: server.log, now: () => new Date() };
  t.deepEqual(await job.run(ctx, { date: '2026-03-11', brandId: x.brandId }), {
    day: '2026-03-10',
    digests: 1,
    deliveries: 1,
  });
  // Idempotent per brand and day.
  t.deepEqual(await job.run(ctx, { date: '2026-03-11', brandId: x.brandId }), {
    day: '2026-03-10',
    digests: 0,
    deliveries: 0,
  });

  const [req] = await receiver.waitFor(hook, 1);
  const { type, data } = JSON.parse(req.body);
  t.is(type, 'digest.daily');
  t.is(data.date, '2026-03-10');
  const summary = await get(
    server,
    `/api/mcp/visibility-summary?brand_id=${x.brandId}&date_from=2026-03-10&date_to=2026-03-10`,
    x.key,
  );
  // The digest carries the figures; the API adds the analysis versions they come from.
  t.deepEqual(data.summary, figuresOnly(summary.body));
  t.is(data.summary.totals.resultCount, 4);
  const before = await get(
    server,
    `/api/mcp/visibility-summary?brand_id=${x.brandId}&date_from=2026-03-09&date_to=2026-03-09`,
    x.key,
  );
  t.is(data.change.resultCount, 4 - before.body.totals.resultCount);
  t.is(data.change.totalMentions, summary.body.totals.totalMentions - before.body.totals.totalMentions);

  // Prompt movers: the prompt-performance figures of each day.
  const perf = async (day: string) =>
    new Map(
      (
        await get(server, `/api/mcp/prompt-performance?brand_id=${x.brandId}&date_from=${day}&date_to=${day}`, x.key)
      ).body.prompts.map((p: any) => [p.prompt_id, p.avg_visibility]),
    );
  const [today, yesterday] = [await perf('2026-03-10'), await perf('2026-03-09')];
  t.true(data.top_movers.prompts.length > 0);
  for (const m of data.top_movers.prompts) {
    t.is(m.avg_visibility, today.get(m.prompt_id));
    t.is(m.previous_avg_visibility, yesterday.get(m.prompt_id));
  }
  // Competitor movers: the competitor-comparison figures of each day.
  const comp = async (day: string) =>
    new Map<string, any>(
      (
        await get(server, `/api/mcp/competitor-comparison?brand_id=${x.brandId}&date_from=${day}&date_to=${day}`, x.key)
      ).body.competitors.map((c: any) => [c.competitor_id, c]),
    );
  const [cToday, cYesterday] = [await comp('2026-03-10'), await comp('2026-03-09')];
  t.true(data.top_movers.competitors.length > 0);
  for (const m of data.top_movers.competitors) {
    t.is(m.ai_visibility_score, cToday.get(m.competitor_id).ai_visibility_score);
    t.is(m.previous_ai_visibility_score, cYesterday.get(m.competitor_id).ai_visibility_score);
    t.is(m.total_mentions, cToday.get(m.competitor_id).total_mentions);
  }
  t.deepEqual(data.new_opportunities, [
    {
      id: fresh,
      title: 'Compare CRMs',
      type: 'owned',
      impact: 'high',
      opportunity_score: 72.5,
      status: 'new',
      prompt_id: p1,
      prompt_text: 'best crm',
      created_at: '2026-03-10T05:00:00.000Z',
    },
  ]);
  await new Promise((r) => setTimeout(r, 1200));
  t.is(hook.received.length, 1);
});
