// `answerscope warehouse grant`: the SQL it prints (there is no ClickHouse server with users here:
// chDB has none), that every statement parses, that its row-policy condition keeps exactly the
// organization's rows of every view, and the --apply path against a recording stand-in server.
// test-process: shared
import { createHash } from 'node:crypto';
import test from 'ava';
import { startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';
import { goldenTenant } from './fixture.ts';
import { grantStatements, warehouseGrant, WAREHOUSE_VIEWS } from '../../src/cli/warehouse.ts';
import { loadConfig } from '../../src/config.ts';
import { UserError } from '../../src/errors.ts';

let server: TestServer;
let acme: Tenant;
let other: Tenant;

test.before(async () => {
  server = await startTestServer();
  acme = await goldenTenant(server);
  other = await goldenTenant(server);
});
test.after.always(async () => {
  await server?.stop();
});

const grant = (args: string[]) => cli(['warehouse', 'grant', ...args], server.env);
const parses = async (statement: string) => server.stores.ch.system(`EXPLAIN AST ${statement}`);

test('prints the user, row policies and grants for one organization, in that order', async (t) => {
  const r = await grant(['--org', acme.organizationId, '--user', 'acme_analyst']);
  t.is(r.code, 0, r.stderr);
  const { user, password, sql, applied } = r.json;
  t.is(user, 'acme_analyst');
  t.false(applied);
  t.true(password.length >= 20);
  const hash = createHash('sha256').update(password).digest('hex');
  t.is(sql.length, 1 + 2 * WAREHOUSE_VIEWS.length);
  t.is(
    sql[0],
    `CREATE USER OR REPLACE \`acme_analyst\` IDENTIFIED WITH sha256_hash BY '${hash}' DEFAULT DATABASE \`answerscope\` SETTINGS readonly = 2`,
  );
  t.false(sql.join('\n').includes(password), 'the password itself is never in the SQL');
  const policies = sql.slice(1, 1 + WAREHOUSE_VIEWS.length);
  const grants = sql.slice(1 + WAREHOUSE_VIEWS.length);
  t.deepEqual(
    policies,
    WAREHOUSE_VIEWS.map(
      (v) =>
        `CREATE ROW POLICY OR REPLACE \`acme_analyst_rows\` ON \`answerscope\`.\`${v}\` FOR SELECT USING brand_id IN ('${acme.brandId}') TO \`acme_analyst\``,
    ),
  );
  t.deepEqual(
    grants,
    WAREHOUSE_VIEWS.map((v) => `GRANT SELECT ON \`answerscope\`.\`${v}\` TO \`acme_analyst\``),
  );
  t.false(
    sql.some((s: string) => s.includes(other.brandId)),
    "no other organization's brand",
  );
  for (const statement of sql) await t.notThrowsAsync(parses(statement), statement);
});

test("the policy condition keeps exactly the organization's rows of every view", async (t) => {
  const { json } = await grant(['--org', acme.organizationId, '--user', 'acme_analyst']);
  for (const [i, view] of WAREHOUSE_VIEWS.entries()) {
    const condition = / USING (.+) TO /.exec(json.sql[1 + i])![1];
    const [kept] = await server.stores.ch.system<{ n: number; outside: number }>(
      `SELECT count() AS n, countIf(brand_id != {b:UUID}) AS outside FROM ${view} WHERE ${condition}`,
      { b: acme.brandId },
    );
    const [all] = await server.stores.ch.system<{ n: number }>(
      `SELECT count() AS n FROM ${view} WHERE brand_id = {b:UUID}`,
      { b: acme.brandId },
    );
    t.true(kept.n > 0, view);
    t.is(kept.n, all.n, view);
    t.is(kept.outside, 0, view);
  }
});

test('a given password, a cluster, and an organization without brands', async (t) => {
  const r = await grant(['--org', acme.organizationId, '--user', 'bi', '--password', 'correct horse battery']);
  t.is(r.code, 0, r.stderr);
  t.is(r.json.password, 'correct horse battery');
  t.true(r.json.sql[0].includes(createHash('sha256').update('correct horse battery').digest('hex')));

  const sql = grantStatements({
    user: 'bi',
    database: 'warehouse',
    cluster: 'main',
    brandIds: [],
    passwordSha256: 'a'.repeat(64),
  });
  t.true(sql.every((s) => s.includes(' ON CLUSTER `main`')));
  t.true(
    sql.slice(1, 7).every((s) => s.includes('USING 0 TO `bi`')),
    'no brands: no rows',
  );
  for (const statement of sql) await t.notThrowsAsync(parses(statement), statement);
  // The parse check does catch a broken statement.
  await t.throwsAsync(parses(sql[1].replace('USING', 'USNIG')));
});

test('refuses --apply in embedded mode, bad names, short passwords and unknown organizations', async (t) => {
  const applied = await grant(['--org', acme.organizationId, '--user', 'bi', '--apply']);
  t.is(applied.code, 1);
  t.regex(applied.stderr, /--apply needs a ClickHouse server \(CLICKHOUSE_URL\)/);
  const badUser = await grant(['--org', acme.organizationId, '--user', 'bi; DROP TABLE answers']);
  t.is(badUser.code, 1);
  t.regex(badUser.stderr, /--user must be a plain identifier/);
  const short = await grant(['--org', acme.organizationId, '--user', 'bi', '--password', 'short']);
  t.regex(short.stderr, /at least 12 characters/);
  const unknown = await grant(['--org', '00000000-0000-4000-8000-000000000000', '--user', 'bi']);
  t.regex(unknown.stderr, /Organization 00000000-0000-4000-8000-000000000000 not found/);
  const noOrg = await grant(['--user', 'bi']);
  t.regex(noOrg.stderr, /--org must be an organization id/);
});

test('--apply runs every statement, in order, on a ClickHouse server', async (t) => {
  const ran: string[] = [];
  let failAt = -1;
  const ch = {
    embedded: false,
    command: async ({ query }: { query: string }) => {
      if (ran.length === failAt) throw new Error('ACCESS_DENIED');
      ran.push(query);
    },
  };
  const env = {
    stores: { pg: server.stores.pg, ch } as any,
    config: loadConfig({ CLICKHOUSE_URL: 'http://127.0.0.1:8123', CLICKHOUSE_DATABASE: 'bi' }),
  };
  const result = await warehouseGrant(env, { organizationId: acme.organizationId, user: 'bi', apply: true });
  t.true(result.applied);
  t.deepEqual(ran, result.sql);
  t.true(ran[1].includes('ON `bi`.`v_answers`'));

  ran.length = 0;
  failAt = 3;
  const err = await t.throwsAsync(
    warehouseGrant(env, { organizationId: acme.organizationId, user: 'bi', apply: true }),
  );
  t.true(err instanceof UserError);
  t.regex(err!.message, /statement 4 of 13 failed \(ACCESS_DENIED\)/);
  t.is(ran.length, 3);
});
