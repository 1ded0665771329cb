// The delivery worker's durability, with workers started and stopped by the test itself
// (WEBHOOK_WORKER=0 keeps the server's own out of the way): a stop mid-delivery resends nothing,
// a claim left by a dead worker is taken over after its lease, concurrent workers send each
// delivery once, and secrets are sealed at rest when WEBHOOK_SECRET_KEY is set. Serial tests:
// a "dead worker" claims every due row.
// test-process: shared
import test from 'ava';
import { Webhook } from 'standardwebhooks';
import { call, get, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { eventually, startReceiver, type Receiver } from './receiver.ts';
import { startWebhookWorker } from '../../src/webhooks/worker.ts';
import { claimDue } from '../../src/webhooks/delivery.ts';

let server: TestServer;
let receiver: Receiver;
test.before(async () => {
  server = await startTestServer({
    ALLOW_PRIVATE_URLS: '1',
    WEBHOOK_WORKER: '0',
    WEBHOOK_RETRY_SCHEDULE_MS: '100,100',
    WEBHOOK_SECRET_KEY: 'test-key-0123456789abcdef',
  });
  receiver = await startReceiver();
});
test.after.always(async () => {
  await server?.stop();
  await receiver?.close();
});

const worker = () =>
  startWebhookWorker({ stores: server.stores, config: server.config, log: server.log }, { pollMs: 100 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function endpointWithTest(answer?: Parameters<Receiver['hook']>[0]) {
  const x = await seedTenant(server);
  const hook = receiver.hook(answer);
  const created = (
    await call(server, 'POST', '/api/mcp/webhooks', { key: x.key, body: { url: hook.url, events: ['webhook.test'] } })
  ).body;
  const sent = (await call(server, 'POST', `/api/mcp/webhooks/${created.id}/test`, { key: x.key })).body;
  const delivery = async () => (await get(server, `/api/mcp/webhooks/${created.id}/deliveries`, x.key)).body[0];
  return { x, hook, created, deliveryId: sent.delivery_id as string, delivery };
}

test.serial('secrets are sealed at rest and still sign', async (t) => {
  const { hook, created } = await endpointWithTest();
  const { rows } = await server.stores.pg.query('SELECT secret FROM webhook_endpoints WHERE id = $1', [created.id]);
  t.regex(rows[0].secret, /^enc:v1:/);
  t.false(rows[0].secret.includes(created.secret.slice(6)));
  const w = worker();
  const [req] = await receiver.waitFor(hook, 1);
  await w.stop();
  t.notThrows(() => new Webhook(created.secret).verify(req.body, req.headers as Record<string, string>));
});

test.serial('a worker stopped mid-delivery lets the send finish; the next one sends nothing again', async (t) => {
  const { hook, delivery } = await endpointWithTest(() => ({ delayMs: 800 }));
  const first = worker();
  await receiver.waitFor(hook, 1);
  t.is((await delivery()).status, 'delivering');
  await first.stop();
  t.like(await delivery(), { status: 'succeeded', attempt_count: 1 });
  const second = worker();
  await second.tick();
  await sleep(600);
  await second.stop();
  t.is(hook.received.length, 1);
});

test.serial('a delivery claimed by a worker that died is sent once its lease lapses', async (t) => {
  const { hook, delivery, deliveryId } = await endpointWithTest();
  // The dead worker: claims with a short lease and never sends.
  const dead = await claimDue(server.stores.pg, 100, 1500);
  t.true(dead.some((c) => c.id === deliveryId));
  const w = worker();
  await sleep(500);
  t.is(hook.received.length, 0, 'not before the lease lapses');
  const [req] = await receiver.waitFor(hook, 1);
  t.is(req.headers['webhook-id'], deliveryId);
  const d = await eventually(async () => {
    const v = await delivery();
    return v.status === 'succeeded' ? v : null;
  });
  await w.stop();
  t.is(d.attempt_count, 2);
  t.deepEqual(
    d.attempts.map((a: any) => [a.attempt, a.status_code]),
    [[2, 200]],
  );
  t.is(hook.received.length, 1);
});

test.serial('claims that keep dying end in failed without a send', async (t) => {
  const { hook, delivery, deliveryId } = await endpointWithTest();
  // Three attempts are allowed (two retries); each claim lapses at once.
  for (let i = 0; i < 3; i++) t.true((await claimDue(server.stores.pg, 100, 0)).some((c) => c.id === deliveryId));
  const w = worker();
  const d = await eventually(async () => {
    const v = await delivery();
    return v.status === 'failed' ? v : null;
  });
  await w.stop();
  t.is(d.attempt_count, 4);
  t.is(hook.received.length, 0);
});

test.serial('two workers send each delivery exactly once', async (t) => {
  const x = await seedTenant(server);
  const hook = receiver.hook(() => ({ delayMs: 20 }));
  const created = (
    await call(server, 'POST', '/api/mcp/webhooks', { key: x.key, body: { url: hook.url, events: ['webhook.test'] } })
  ).body;
  for (let i = 0; i < 20; i++) await call(server, 'POST', `/api/mcp/webhooks/${created.id}/test`, { key: x.key });
  const workers = [worker(), worker()];
  await receiver.waitFor(hook, 20);
  await sleep(500);
  await Promise.all(workers.map((w) => w.stop()));
  t.is(hook.received.length, 20);
  t.is(new Set(hook.received.map((r) => r.headers['webhook-id'])).size, 20);
});
