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
