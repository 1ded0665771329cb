// test-process: shared
import test from 'ava';
import { call, get, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { revokeKey } from '../../src/tenancy/keys.ts';
import { removeMember, addMember } from '../../src/tenancy/members.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

const MALFORMED = { error: 'Missing or malformed API key' };
const INVALID = { error: 'Invalid API key' };

for (const surface of ['/api/mcp', '/api/v1']) {
  test(`${surface}: every malformed credential gets 401 ${MALFORMED.error}`, async (t) => {
    const { key } = await seedTenant(server);
    const cases: [string, Record<string, string>, string][] = [
      ['no header', {}, '/whoami'],
      ['basic scheme', { authorization: `Basic ${Buffer.from(`x:${key}`).toString('base64')}` }, '/whoami'],
      ['token scheme', { authorization: `Token ${key}` }, '/whoami'],
      ['no ans_ prefix', { authorization: `Bearer ${key.slice(4)}` }, '/whoami'],
      ['bearer without token', { authorization: 'Bearer' }, '/whoami'],
      ['key in the query string', {}, `/whoami?api_key=${key}`],
      ['key in another header', { 'x-api-key': key }, '/whoami'],
    ];
    for (const [label, headers, p] of cases) {
      const r = await call(server, 'GET', `${surface}${p}`, { headers });
      t.is(r.status, 401, label);
      t.deepEqual(r.body, MALFORMED, label);
    }
  });
}

test('an unknown key gets 401 Invalid API key', async (t) => {
  const r = await get(server, '/api/v1/whoami', 'ans_thisKeyDoesNotExist000000000000000000000');
  t.is(r.status, 401);
  t.deepEqual(r.body, INVALID);
});

test('whoami answers with the identity of the key', async (t) => {
  const tenant = await seedTenant(server);
  for (const surface of ['/api/mcp', '/api/v1']) {
    const r = await get(server, `${surface}/whoami`, tenant.key);
    t.is(r.status, 200);
    t.deepEqual(Object.keys(r.body).sort(), ['email', 'organizationId', 'userId']);
    t.is(r.body.email, tenant.email);
    t.is(r.body.organizationId, tenant.organizationId);
  }
});

test('a revoked key is refused on the very next request', async (t) => {
  const tenant = await seedTenant(server);
  t.is((await get(server, '/api/mcp/brands', tenant.key)).status, 200);
  await revokeKey(server.stores.pg, tenant.keyId);
  const r = await get(server, '/api/mcp/brands', tenant.key);
  t.is(r.status, 401);
  t.deepEqual(r.body, INVALID);
});

test('a key acts on its own organization only, while its owner is a member of it', async (t) => {
  const a = await seedTenant(server);
  const b = await seedTenant(server);
  t.is((await get(server, `/api/mcp/topics?brand_id=${a.brandId}`, a.key)).status, 200);
  // Joining another organization changes nothing for the key: it stays with its own.
  await addMember(server.stores.pg, a.email, b.organizationId);
  t.deepEqual(
    (await get(server, '/api/v1/brands', a.key)).body.map((x: any) => x.id),
    [a.brandId],
  );
  t.is((await get(server, `/api/mcp/topics?brand_id=${b.brandId}`, a.key)).status, 404);
  await removeMember(server.stores.pg, a.email, a.organizationId);
  t.deepEqual((await get(server, '/api/mcp/brands', a.key)).body, []);
  t.deepEqual((await get(server, `/api/mcp/topics?brand_id=${a.brandId}`, a.key)).body, { error: 'Brand not found' });
  t.is((await get(server, '/api/v1/whoami', a.key)).body.organizationId, null);
  // Back in its organization, the key acts on it again; never on the other one.
  await addMember(server.stores.pg, a.email, a.organizationId);
  t.deepEqual(
    (await get(server, '/api/v1/brands', a.key)).body.map((x: any) => x.id),
    [a.brandId],
  );
});

test("another organization's brand does not exist for a key", async (t) => {
  const a = await seedTenant(server);
  const b = await seedTenant(server);
  const mine = (await get(server, '/api/mcp/brands', a.key)).body;
  t.deepEqual(
    mine.map((x: any) => x.id),
    [a.brandId],
  );
  for (const p of [`/api/mcp/topics?brand_id=${b.brandId}`, `/api/mcp/prompts?brand_id=${b.brandId}`]) {
    const r = await get(server, p, a.key);
    t.is(r.status, 404, p);
    t.deepEqual(r.body, { error: 'Brand not found' });
  }
});

test.serial('a request naming its brand reads the key and the brand in one statement', async (t) => {
  // Serial, so no other test's statements are counted.
  const tenant = await seedTenant(server);
  const pg = server.stores.pg;
  const sent: string[] = [];
  const query = pg.query;
  pg.query = ((sql: string, ...rest: unknown[]) => {
    sent.push(sql);
    return (query as (...args: unknown[]) => unknown).call(pg, sql, ...rest);
  }) as typeof pg.query;
  try {
    const r = await get(server, `/api/v1/visibility-summary?brand_id=${tenant.brandId}`, tenant.key);
    t.is(r.status, 200);
  } finally {
    pg.query = query;
  }
  const brandReads = sent.filter((sql) => /\bbrands\b/.test(sql));
  t.is(brandReads.length, 1, brandReads.join('\n---\n'));
  t.regex(brandReads[0], /\bapi_keys\b/);
});
