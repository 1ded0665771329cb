// A separate file: chDB allows one data directory per process, so one server per test file.
// test-process: shared
import test from 'ava';
import { call, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_S: '60' });
});
test.after.always(async () => {
  await server?.stop();
});

test('without TRUST_PROXY, X-Forwarded-For is ignored', async (t) => {
  const { key } = await seedTenant(server);
  const statuses = [];
  for (let i = 0; i < 4; i++) {
    statuses.push(
      (await call(server, 'GET', '/api/v1/whoami', { key, headers: { 'x-forwarded-for': `192.0.2.${i}` } })).status,
    );
  }
  t.deepEqual(statuses, [200, 200, 200, 429]);
});
