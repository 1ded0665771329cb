// /api/mcp at the HTTP level: the REST 401 bodies, 405 for GET and DELETE, 403 for a foreign
// Origin, a stateless JSON answer per POST, and JSON-RPC errors for a body that is not JSON-RPC.
// test-process: shared
import test from 'ava';
import { seedTenant, startTestServer, call, type TestServer } from '../helpers/server.ts';
import { connect, initialize, post } from './client.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000', MCP_ALLOWED_ORIGINS: 'https://app.example.com' });
});
test.after.always(async () => {
  await server?.stop();
});

test('a missing or bad key is refused before the transport, with the REST 401 bodies', async (t) => {
  const none = await post(server, initialize);
  t.is(none.status, 401);
  t.deepEqual(none.body, { error: 'Missing or malformed API key' });
  const bad = await post(server, initialize, { authorization: 'Bearer ans_not_a_key' });
  t.is(bad.status, 401);
  t.deepEqual(bad.body, { error: 'Invalid API key' });
  const wrongScheme = await post(server, initialize, { authorization: 'Basic ans_x' });
  t.deepEqual([wrongScheme.status, wrongScheme.body], [401, { error: 'Missing or malformed API key' }]);
  // The SDK's client gives up on the 401 too.
  await t.throwsAsync(connect(server, 'ans_not_a_key'));
});

test("a POST is answered statelessly in JSON: no session id, the request id, the server's instructions", async (t) => {
  const { key } = await seedTenant(server);
  const init = await post(server, initialize, { authorization: `Bearer ${key}` });
  t.is(init.status, 200);
  t.regex(init.headers.get('content-type') ?? '', /application\/json/);
  t.is(init.headers.get('mcp-session-id'), null);
  t.truthy(init.headers.get('x-request-id'));
  t.is(init.body.result.serverInfo.name, 'answerscope');
  t.truthy(init.body.result.capabilities.tools);
  t.regex(init.body.result.instructions, /list_brands/);
  // Stateless: a request stands alone, without an initialize before it on this "connection".
  const list = await post(
    server,
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-06-18' },
  );
  t.is(list.status, 200);
  t.true(list.body.result.tools.some((x: any) => x.name === 'list_brands'));
  const note = await post(
    server,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { authorization: `Bearer ${key}` },
  );
  t.is(note.status, 202);
});

test('GET and DELETE answer 405 in JSON', async (t) => {
  const { key } = await seedTenant(server);
  for (const method of ['GET', 'DELETE']) {
    const res = await call(server, method, '/api/mcp', { key, headers: { accept: 'text/event-stream' } });
    t.is(res.status, 405, method);
    t.is(res.headers.get('allow'), 'POST');
    t.regex(res.body.error, /not allowed/);
  }
});

test('an Origin that is not allowed gets 403; localhost and MCP_ALLOWED_ORIGINS pass', async (t) => {
  const { key } = await seedTenant(server);
  const auth = { authorization: `Bearer ${key}` };
  for (const origin of [
    'http://evil.example.com',
    'https://app.example.com.evil.net',
    'null',
    'http://app.example.com',
  ]) {
    const res = await post(server, initialize, { ...auth, origin });
    t.is(res.status, 403, origin);
    t.deepEqual(res.body, { error: 'Origin not allowed' });
  }
  // Refused before the key is even looked at; GET gets the 403 too.
  t.is((await post(server, initialize, { origin: 'http://evil.example.com' })).status, 403);
  t.is((await call(server, 'GET', '/api/mcp', { headers: { origin: 'http://evil.example.com' } })).status, 403);
  for (const origin of ['http://localhost:6274', 'http://127.0.0.1', 'http://[::1]:3000', 'https://app.example.com']) {
    t.is((await post(server, initialize, { ...auth, origin })).status, 200, origin);
  }
  // A browser on the server's own host name is not trusted for that alone (DNS rebinding).
  const rebound = await post(server, initialize, {
    ...auth,
    origin: 'http://rebound.example',
    host: 'rebound.example',
  });
  t.is(rebound.status, 403);
});

test('a body that is not JSON-RPC gets a JSON-RPC error', async (t) => {
  const { key } = await seedTenant(server);
  const malformed = await post(server, '{"jsonrpc": "2.0", "id": 1, "method": ', {
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
  });
  t.is(malformed.status, 400);
  t.is(malformed.body.error.code, -32700);
  const notRpc = await post(server, { hello: 'world' }, { authorization: `Bearer ${key}` });
  t.is(notRpc.status, 400);
  t.is(notRpc.body.jsonrpc, '2.0');
});
