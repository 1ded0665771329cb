// The REST rate limit covers /api/mcp: its POSTs count in the same per-address window, and the one
// over the limit gets the 429 with Retry-After before the transport runs.
// test-process: shared
import test from 'ava';
import { call, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { initialize, post } from './client.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '4', RATE_LIMIT_WINDOW_S: '60', TRUST_PROXY: '1' });
});
test.after.always(async () => {
  await server?.stop();
});

test('MCP requests share the REST window; the one over the limit gets 429 with Retry-After', async (t) => {
  const { key } = await seedTenant(server);
  const from = { authorization: `Bearer ${key}`, 'x-forwarded-for': '203.0.113.20' };
  t.is((await post(server, initialize, from)).status, 200);
  t.is((await post(server, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, from)).status, 200);
  t.is((await call(server, 'GET', '/api/mcp/whoami', { headers: from })).status, 200);
  t.is(
    (
      await post(
        server,
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_brands', arguments: {} } },
        from,
      )
    ).status,
    200,
  );
  const over = await post(server, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, from);
  t.is(over.status, 429);
  t.regex(over.body.error, /Too many requests/);
  const retry = Number(over.headers.get('retry-after'));
  t.true(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After ${retry}`);
  // Another address still gets through.
  t.is((await post(server, initialize, { ...from, 'x-forwarded-for': '203.0.113.21' })).status, 200);
});
