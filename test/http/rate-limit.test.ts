// test-process: shared
import test from 'ava';
import { call, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_S: '60', TRUST_PROXY: '1' });
});
test.after.always(async () => {
  await server?.stop();
});

const from = (ip: string, key?: string) => ({ key, headers: { 'x-forwarded-for': ip } });

test('the request over the limit gets 429 with Retry-After in seconds, on every surface', async (t) => {
  const { key } = await seedTenant(server);
  const paths = ['/api/v1/whoami', '/api/mcp/whoami', '/api/mcp/brands', '/api/v1/brands', '/api/mcp/whoami'];
  for (const p of paths) t.is((await call(server, 'GET', p, from('203.0.113.7', key))).status, 200, p);
  const over = await call(server, 'GET', '/api/v1/brands', from('203.0.113.7', key));
  t.is(over.status, 429);
  const retry = Number(over.headers.get('retry-after'));
  t.true(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After ${retry}`);
  t.regex(over.body.error, /Too many requests/);
  // The limit counts requests, whoever sends them: unauthenticated ones too.
  t.is((await call(server, 'GET', '/api/v1/whoami', from('203.0.113.7'))).status, 429);
});

test('each client address has its own window (X-Forwarded-For believed with TRUST_PROXY=1)', async (t) => {
  const { key } = await seedTenant(server);
  for (let i = 0; i < 5; i++) await call(server, 'GET', '/api/v1/whoami', from('198.51.100.1', key));
  t.is((await call(server, 'GET', '/api/v1/whoami', from('198.51.100.1', key))).status, 429);
  t.is((await call(server, 'GET', '/api/v1/whoami', from('198.51.100.2', key))).status, 200);
});

test('RATE_LIMIT_STORE=postgres: instances on one database share each address window', async (t) => {
  const { createLimiter } = await import('../../src/runtime/rate-limit.ts');
  const opts = { max: 3, windowS: 60, store: 'postgres' as const, keyPrefix: `shared-${Date.now()}` };
  // Two limiters stand for two API processes; with embedded PGlite they share its one session.
  const [one, two] = [await createLimiter(opts, server.stores.pg), await createLimiter(opts, server.stores.pg)];
  await one.consume('203.0.113.50');
  await two.consume('203.0.113.50');
  await one.consume('203.0.113.50');
  const rejected = await two.consume('203.0.113.50').then(
    () => undefined,
    (r) => r,
  );
  t.truthy(rejected, 'the fourth request in the window is refused by the other instance');
  t.true(rejected.msBeforeNext > 0 && rejected.msBeforeNext <= 60_000);
});
