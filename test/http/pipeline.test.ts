// test-process: shared
import test from 'ava';
import { call, get, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
test.before(async () => {
  // A server of its own: one test renames the brands table.
  server = await startTestServer({}, { ownServer: true });
});
test.after.always(async () => {
  await server?.stop();
});

test('a missing or malformed brand_id is a 400 naming it', async (t) => {
  const { key } = await seedTenant(server);
  t.deepEqual((await get(server, '/api/mcp/topics', key)).body, { error: 'brand_id is required' });
  const bad = await get(server, '/api/mcp/prompts?brand_id=acme', key);
  t.is(bad.status, 400);
  t.deepEqual(bad.body, { error: 'brand_id must be a UUID' });
  const unknown = await get(server, '/api/mcp/topics?brand_id=00000000-0000-4000-8000-000000000000', key);
  t.is(unknown.status, 404);
  t.deepEqual(unknown.body, { error: 'Brand not found' });
});

test('topics oldest first with prompt counts; prompts newest first with filters and a clamped limit', async (t) => {
  const tenant = await seedTenant(server, [
    {
      name: 'Acme',
      slug: 'acme',
      domains: ['acme.example'],
      topics: [
        {
          name: 'CRM',
          prompts: [
            { text: 'p1', platforms: ['chatgpt'] },
            { text: 'p2', platforms: ['claude'], is_active: false },
          ],
        },
        { name: 'Empty' },
      ],
      prompts: [{ text: 'loose', platforms: ['grok'], regions: ['DE'] }],
    },
  ]);
  const topics = await get(server, `/api/v1/topics?brand_id=${tenant.brandId}`, tenant.key);
  t.is(topics.status, 404, 'topics is not on the Metrics API');
  const list = (await get(server, `/api/mcp/topics?brand_id=${tenant.brandId}`, tenant.key)).body;
  t.deepEqual(
    list.map((x: any) => [x.name, x.prompt_count, x.is_active]),
    [
      ['CRM', 2, true],
      ['Empty', 0, true],
    ],
  );

  const all = (await get(server, `/api/mcp/prompts?brand_id=${tenant.brandId}`, tenant.key)).body;
  t.deepEqual(
    all.map((p: any) => p.text),
    ['loose', 'p2', 'p1'],
  );
  t.deepEqual(Object.keys(all[0]).sort(), [
    'created_at',
    'id',
    'is_active',
    'models',
    'platforms',
    'regions',
    'text',
    'topic_id',
    'topic_name',
  ]);
  t.is(all[0].topic_id, null);
  t.deepEqual(all[0].regions, ['DE']);
  const crm = list[0].id;
  const inTopic = (
    await get(server, `/api/mcp/prompts?brand_id=${tenant.brandId}&topic_id=${crm}&is_active=true`, tenant.key)
  ).body;
  t.deepEqual(
    inTopic.map((p: any) => [p.text, p.topic_name]),
    [['p1', 'CRM']],
  );
  t.is((await get(server, `/api/mcp/prompts?brand_id=${tenant.brandId}&limit=0`, tenant.key)).body.length, 1);
  t.is((await get(server, `/api/mcp/prompts?brand_id=${tenant.brandId}&limit=100000`, tenant.key)).body.length, 3);
  const other = await seedTenant(server);
  const foreignTopic = await get(
    server,
    `/api/mcp/prompts?brand_id=${tenant.brandId}&topic_id=${other.topicIds[0]}`,
    tenant.key,
  );
  t.is(foreignTopic.status, 404);
  t.deepEqual(foreignTopic.body, { error: 'Topic not found' });
});

test('prompts added at once list newest first in the order given, though they share a millisecond', async (t) => {
  // PGlite's clock has millisecond resolution: prompts inserted in one request share created_at,
  // and the order must still be the order they were made in (postgres/092_insertion_order.sql).
  const tenant = await seedTenant(server, [{ name: 'Acme', slug: 'acme', domains: ['acme.example'] }]);
  const texts = Array.from({ length: 30 }, (_, i) => `burst prompt ${String(i).padStart(2, '0')}`);
  const added = await call(server, 'POST', '/api/mcp/prompts', {
    key: tenant.key,
    body: { brand_id: tenant.brandId, prompts: texts.map((text) => ({ text })) },
  });
  t.is(added.status, 200, JSON.stringify(added.body));
  const listed = (await get(server, `/api/mcp/prompts?brand_id=${tenant.brandId}`, tenant.key)).body;
  t.deepEqual(
    listed.map((p: any) => p.text),
    [...texts].reverse(),
  );
});

test('unknown paths and methods answer JSON errors; every response has a request id', async (t) => {
  const { key } = await seedTenant(server);
  const missing = await get(server, '/api/mcp/nope', key);
  t.is(missing.status, 404);
  t.deepEqual(missing.body, { error: 'Not found' });
  t.truthy(missing.headers.get('x-request-id'));
  const wrong = await call(server, 'DELETE', '/api/mcp/brands', { key });
  t.is(wrong.status, 405);
  t.regex(wrong.body.error, /not allowed/);
  const echoed = await call(server, 'GET', '/api/v1/whoami', { key, headers: { 'x-request-id': 'trace-123' } });
  t.is(echoed.headers.get('x-request-id'), 'trace-123');
});

test.serial('an unexpected failure is a 500 that names no stack or SQL', async (t) => {
  const tenant = await seedTenant(server);
  // Break the store under the request: the brands table is renamed away for a moment (serial
  // tests run before the concurrent ones, so no other test sees it).
  await server.stores.pg.query('ALTER TABLE brands RENAME TO brands_away');
  try {
    const r = await get(server, '/api/mcp/brands', tenant.key);
    t.is(r.status, 500);
    t.deepEqual(Object.keys(r.body), ['error']);
    t.notRegex(r.body.error, /brands_away|relation|SELECT|at .*\.ts/);
    t.regex(r.body.error, /^Internal server error \(request [\w-]+\)$/);
  } finally {
    await server.stores.pg.query('ALTER TABLE brands_away RENAME TO brands');
  }
});
