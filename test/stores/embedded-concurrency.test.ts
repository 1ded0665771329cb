// The embedded default under concurrency. PGlite behind pglite-socket is ONE Postgres session: named
// statements, an open transaction and a replaced connection are shared by every client of the
// process (src/stores/postgres.ts). Many tenants with distinct keys ask over REST, the Metrics API
// and MCP at once, while store errors replace the connection, a transaction that rolls back holds
// a change no one else may see, and the command line reaches the server's stores through the admin
// channel: not one 500, and every answer is the asker's own.
import test from 'ava';
import { connect } from '../mcp/client.ts';
import { cli } from '../helpers/cli.ts';
import {
  get,
  startTestServer,
  tenantWithAnswers,
  type Reply,
  type Tenant,
  type TestServer,
} from '../helpers/server.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({}, { embeddedPostgres: true });
});
test.after.always(async () => {
  await server?.stop();
});

const TENANTS = 6;
const ROUNDS = 4;

test('a failed query does not cost the next requests their named statements', async (t) => {
  t.true(server.stores.pg.embedded);
  const tenant = await tenantWithAnswers(server, 1);
  const topics = () => get(server, `/api/mcp/topics?brand_id=${tenant.brandId}`, tenant.key);
  t.is((await topics()).status, 200);
  // pg-pool drops a connection whose query failed; the session keeps the statements it named.
  await t.throwsAsync(server.stores.pg.query('SELECT no_such_column FROM brands'));
  const after = await topics();
  t.is(after.status, 200, JSON.stringify(after.body));
  t.is(after.body[0].prompt_count, 1);
});

test('many clients at once over REST, the Metrics API and MCP, with the command line beside them', async (t) => {
  // Tenant i has i + 1 answers, so a figure that reached the wrong tenant shows.
  const tenants: Tenant[] = [];
  for (let i = 0; i < TENANTS; i++) tenants.push(await tenantWithAnswers(server, i + 1));
  const replies: { label: string; reply: Reply }[] = [];
  const ask = async (label: string, tenant: Tenant, path: string, check: (r: Reply) => void) => {
    const reply = await get(server, path, tenant.key);
    replies.push({ label, reply });
    check(reply);
  };

  const client = async (tenant: Tenant, i: number) => {
    const other = tenants[(i + 1) % TENANTS];
    const mcp = await connect(server, tenant.key);
    try {
      for (let round = 0; round < ROUNDS; round++) {
        await Promise.all([
          ask('whoami', tenant, '/api/v1/whoami', (r) => t.is(r.body.organizationId, tenant.organizationId)),
          ask('brands', tenant, '/api/mcp/brands', (r) =>
            t.deepEqual(
              r.body.map((b: any) => [b.id, b.name]),
              [[tenant.brandId, 'Acme']],
            ),
          ),
          ask('topics', tenant, `/api/mcp/topics?brand_id=${tenant.brandId}`, (r) => t.is(r.body[0].prompt_count, 1)),
          ask('summary', tenant, `/api/v1/visibility-summary?brand_id=${tenant.brandId}`, (r) =>
            t.is(r.body.totals.resultCount, i + 1, JSON.stringify(r.body)),
          ),
          ask('foreign brand', tenant, `/api/mcp/topics?brand_id=${other.brandId}`, (r) => {
            t.is(r.status, 404);
            t.deepEqual(r.body, { error: 'Brand not found' });
          }),
          ask('missing brand_id', tenant, '/api/mcp/topics', (r) =>
            t.deepEqual(r.body, { error: 'brand_id is required' }),
          ),
          (async () => {
            const result: any = await mcp.callTool({
              name: 'get_visibility_summary',
              arguments: { brand_id: tenant.brandId },
            });
            t.falsy(result.isError, JSON.stringify(result.content));
            t.is(result.structuredContent.totals.resultCount, i + 1);
          })(),
        ]);
      }
    } finally {
      await mcp.close();
    }
  };

  // Beside the clients: failing queries (each replaces the pool's connection), and transactions
  // that rename a brand and roll back: no client may ever see the name or wait on the transaction.
  const disturb = async () => {
    for (let round = 0; round < ROUNDS * 2; round++) {
      await t.throwsAsync(server.stores.pg.query('SELECT no_such_column FROM brands'));
      await t.throwsAsync(
        server.stores.pg.tx(async (c) => {
          await c.query("UPDATE brands SET name = 'Renamed' WHERE id = $1", [tenants[round % TENANTS].brandId]);
          throw new Error('rolled back on purpose');
        }),
        { message: 'rolled back on purpose' },
      );
    }
  };

  // The command line while the server runs: it goes through the admin channel to these stores.
  const commandLine = async () => {
    const created = await cli(['keys', 'create', '--email', tenants[0].email, '--name', 'stress'], server.env);
    t.is(created.code, 0, created.stderr);
    const who = await get(server, '/api/v1/whoami', created.json.key);
    replies.push({ label: 'command-line key', reply: who });
    t.is(who.body.organizationId, tenants[0].organizationId);
  };

  await Promise.all([...tenants.map(client), disturb(), commandLine()]);
  const failed = replies.filter((r) => r.reply.status >= 500);
  t.deepEqual(
    failed.map((r) => `${r.label}: ${r.reply.status} ${JSON.stringify(r.reply.body)}`),
    [],
  );
  t.is(replies.length, TENANTS * ROUNDS * 6 + 1);
});
