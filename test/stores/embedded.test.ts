// The embedded path end to end: PGlite served by pglite-socket and chDB, both in DATA_DIR.
import test from 'ava';
import { call, get, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({}, { embeddedPostgres: true });
});
test.after.always(async () => {
  await server?.stop();
});

test('the service runs on PGlite and chDB alone', async (t) => {
  t.true(server.stores.pg.embedded);
  t.true(server.stores.ch.embedded);
  const tenants = await Promise.all([seedTenant(server), seedTenant(server), seedTenant(server)]);
  const replies = await Promise.all(tenants.map((x) => get(server, '/api/v1/whoami', x.key)));
  t.deepEqual(
    replies.map((r) => r.body.organizationId),
    tenants.map((x) => x.organizationId),
  );
  const topics = await get(server, `/api/mcp/topics?brand_id=${tenants[0].brandId}`, tenants[0].key);
  t.is(topics.status, 200);
  t.is(topics.body[0].prompt_count, 1);
  const tables = await server.stores.ch.system<{ name: string }>(
    'SELECT name FROM system.tables WHERE database = currentDatabase() ORDER BY name',
  );
  t.deepEqual(
    tables
      .map((r) => r.name)
      .filter((n) =>
        ['answers', 'answer_entities', 'answer_citations', 'shopping_cards', 'ai_visits', 'schema_migrations'].includes(
          n,
        ),
      ),
    ['ai_visits', 'answer_citations', 'answer_entities', 'answers', 'schema_migrations', 'shopping_cards'],
  );
  t.is((await call(server, 'GET', '/api/v1/whoami')).status, 401);
});

test('chDB answers timestamps as ISO text and 64-bit counts as numbers, with or without bound values', async (t) => {
  // The output settings are set once on chDB's session (src/stores/clickhouse.ts), not sent per
  // query: they must hold for every read, an insert and a failed query notwithstanding.
  const read = (params?: Record<string, unknown>) =>
    server.stores.ch.system<{ at: string; n: number; p?: number }>(
      `SELECT toDateTime64('2026-01-02 03:04:05.678', 3, 'UTC') AS at, toUInt64(4294967296 * 3) AS n${params ? ', {p:UInt64} AS p' : ''}`,
      params,
    );
  const want = { at: '2026-01-02T03:04:05.678Z', n: 12884901888 };
  t.deepEqual(await read(), [want]);
  await server.stores.ch.insert('ai_visits_daily', [
    { brand_id: '00000000-0000-4000-8000-000000000001', day: '2026-01-02', dim: 'path', key: '/', visits: 1 },
  ]);
  await t.throwsAsync(server.stores.ch.system('SELECT no_such_column'));
  t.deepEqual(await read({ p: 7 }), [{ ...want, p: 7 }]);
});
