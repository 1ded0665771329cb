// With ALLOW_PRIVATE_URLS=0 (the default), webhook URLs that lead to loopback, private, link-local
// or metadata addresses are refused at registration, and again at delivery time after DNS
// resolution (an endpoint whose address changed after it was registered).
// test-process: shared
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { call, get, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { eventually, startReceiver, type Receiver } from './receiver.ts';
import { fakeNames } from '../audits/fixtures/names.ts';

// Names that resolve inward, as a deployment's internal names do (`vm`, `db`, ...).
fakeNames({ 'intranet.test': '10.0.0.5', 'vm.test': '127.0.0.1' });

let server: TestServer;
let receiver: Receiver;
test.before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_URLS: '0' });
  receiver = await startReceiver();
});
test.after.always(async () => {
  await server?.stop();
  await receiver?.close();
});

test('registration refuses non-public addresses', async (t) => {
  const x = await seedTenant(server);
  const cases: [string, RegExp][] = [
    ['http://127.0.0.1:8080/hook', /^url is not allowed: the host is a loopback address; webhooks can only be sent/],
    ['http://localhost/hook', /^url is not allowed: localhost resolves to a loopback address; webhooks can only/],
    ['http://[::1]/hook', /^url is not allowed: the host is a loopback address;/],
    ['https://10.1.2.3/hook', /: the host is a private address;/],
    ['https://192.168.0.10/hook', /: the host is a private address;/],
    ['http://169.254.169.254/latest/meta-data', /: the host is a link-local address;/],
    ['http://[fe80::1]/hook', /: the host is a link-local address;/],
    ['http://[::ffff:127.0.0.1]/hook', /: the host is a loopback address;/],
    ['http://0.0.0.0/hook', /: the host is a reserved address;/],
    ['http://intranet.test/hook', /^url is not allowed: intranet\.test resolves to a private address;/],
    ['http://vm.test:19160/', /^url is not allowed: vm\.test resolves to a loopback address;/],
    ['https://no-such-host.invalid/hook', /^url host no-such-host\.invalid could not be resolved$/],
  ];
  for (const [url, error] of cases) {
    const r = await call(server, 'POST', '/api/mcp/webhooks', { key: x.key, body: { url, events: ['webhook.test'] } });
    t.is(r.status, 400, url);
    t.regex(r.body.error, error, url);
    // docs/api.md section 9: the class of the address, never the address (typed or resolved).
    if (!url.includes('.invalid')) t.notRegex(r.body.error, /\d|::/, url);
  }
  t.deepEqual((await get(server, '/api/mcp/webhooks', x.key)).body, []);
  // A public address is accepted (nothing is sent until an event).
  const ok = await call(server, 'POST', '/api/mcp/webhooks', {
    key: x.key,
    body: { url: 'https://93.184.215.14/hook', events: ['digest.daily'] },
  });
  t.is(ok.status, 200);
});

/** Stores an endpoint as if its host resolved to a public address when it was registered. */
async function endpointAt(organizationId: string, url: string): Promise<string> {
  const id = randomUUID();
  await server.stores.pg.query(
    `INSERT INTO webhook_endpoints (id, organization_id, url, events, secret)
     VALUES ($1, $2, $3, '{webhook.test}', $4)`,
    [id, organizationId, url, `whsec_${Buffer.alloc(32, 1).toString('base64')}`],
  );
  return id;
}

const ONLY_PUBLIC = '; only public addresses can be fetched';

test('delivery re-checks the address after DNS resolution and sends nothing to a private one', async (t) => {
  const x = await seedTenant(server);
  const direct = receiver.hook();
  const named = receiver.hook();
  // As if the endpoints were registered while their hosts resolved to public addresses.
  const ids: string[] = [];
  for (const url of [direct.url, named.url.replace('127.0.0.1', 'localhost')]) {
    const id = await endpointAt(x.organizationId, url);
    t.is((await call(server, 'POST', `/api/mcp/webhooks/${id}/test`, { key: x.key })).status, 200);
    ids.push(id);
  }
  const first = async (id: string) =>
    eventually(async () => {
      const [d] = (await get(server, `/api/mcp/webhooks/${id}/deliveries`, x.key)).body;
      return d?.attempts.length ? d : null;
    });
  const [a, b] = [await first(ids[0]), await first(ids[1])];
  t.is(a.status, 'pending');
  t.like(a.attempts[0], { attempt: 1, status_code: null });
  t.is(a.attempts[0].error, `Blocked address: the host is a loopback address${ONLY_PUBLIC}`);
  t.is(b.attempts[0].error, `Blocked address: localhost resolves to a loopback address${ONLY_PUBLIC}`);
  t.truthy(a.next_attempt_at);
  t.is(direct.received.length + named.received.length, 0);
});

test('a delivery refused after DNS resolution tells the tenant the class, never the resolved address', async (t) => {
  const x = await seedTenant(server);
  const id = await endpointAt(x.organizationId, 'http://intranet.test/hook');
  t.is((await call(server, 'POST', `/api/mcp/webhooks/${id}/test`, { key: x.key })).status, 200);
  const delivery = await eventually(async () => {
    const [d] = (await get(server, `/api/mcp/webhooks/${id}/deliveries`, x.key)).body;
    return d?.attempts.length ? d : null;
  });
  const error = delivery.attempts[0].error;
  t.is(error, `Blocked address: intranet.test resolves to a private address${ONLY_PUBLIC}`);
  t.notRegex(error, /\d/);
});
