// A real Postgres outage: the server of DATABASE_URL is stopped for a few seconds during the test
// and started again (in `finally`, whatever happens). While it is down /readyz says not ready and
// names Postgres, /healthz still answers, and API requests fail fast with 500 `Database
// unavailable`; once it is back, both recover without restarting the service. The server is
// shared with other test runs, so the outage is kept as short as the checks allow.
// It runs only when asked (PG_OUTAGE_TEST=1), alone, as .ci/run's last step should:
//   PG_OUTAGE_TEST=1 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx ava test/ops/outage.test.ts
// because every other test file running meanwhile would see its queries refused. It also needs
// DATABASE_URL on this machine (embedded PGlite cannot go down) and pg_ctlcluster.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import test from 'ava';
import { call, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { openPostgres } from '../../src/stores/postgres.ts';
import { observeStores } from '../../src/stores/observe.ts';
import { storeOutage } from '../../src/stores/outage.ts';
import type { Stores } from '../../src/stores/index.ts';

const run = promisify(execFile);
const PG_CTL = '/usr/bin/pg_ctlcluster';
const versions = fs.existsSync('/etc/postgresql') ? fs.readdirSync('/etc/postgresql') : [];
const local = /@(127\.0\.0\.1|localhost)(:|\/)/.test(process.env.DATABASE_URL ?? '');
// Serial: it runs before, not beside, the other test of this file.
const maybe =
  process.env.PG_OUTAGE_TEST === '1' &&
  process.env.DATABASE_URL &&
  local &&
  fs.existsSync(PG_CTL) &&
  versions.length === 1
    ? test.serial
    : test.skip;

const cluster = (action: 'stop' | 'start') =>
  run(PG_CTL, ['--skip-systemctl-redirect', versions[0], 'main', action], { timeout: 60_000 });

let server: TestServer | undefined;
test.before(async () => {
  if (process.env.DATABASE_URL) server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

async function waitFor<T>(what: string, fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(v)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

maybe('Postgres stopped and started: not ready and fast 500s while down, recovery without a restart', async (t) => {
  const s = server!;
  const tenant = await seedTenant(s);
  const brands = () => call(s, 'GET', '/api/mcp/brands', { key: tenant.key });
  t.is((await brands()).status, 200);
  t.is((await call(s, 'GET', '/readyz')).status, 200);

  try {
    await cluster('stop');
    const ready = await waitFor(
      'readyz',
      () => call(s, 'GET', '/readyz'),
      (r) => r.status === 503,
    );
    t.is(ready.body.status, 'not ready');
    t.like(ready.body.checks, { postgres: { ok: false }, clickhouse: { ok: true }, migrations: { ok: false } });
    t.is((await call(s, 'GET', '/healthz')).status, 200);

    const started = Date.now();
    const failed = await brands();
    const ms = Date.now() - started;
    t.is(failed.status, 500);
    t.deepEqual(failed.body, { error: 'Database unavailable' });
    t.true(ms < 6_000, `failed within ${ms} ms`);
    t.log(`while down: 500 Database unavailable in ${ms} ms`);
  } finally {
    await cluster('start');
  }

  await waitFor(
    'readyz after restart',
    () => call(s, 'GET', '/readyz'),
    (r) => r.status === 200,
  );
  const back = await waitFor('API after restart', brands, (r) => r.status === 200);
  t.deepEqual(
    back.body.map((b: any) => b.id),
    [tenant.brandId],
  );
});

const withServer = process.env.DATABASE_URL ? test : test.skip;

withServer(
  'a slow Postgres: a query past PG_QUERY_TIMEOUT_MS fails as `Database unavailable`, and the pool goes on',
  async (t) => {
    const pg = await openPostgres({ url: server!.env.DATABASE_URL, dataDir: server!.dataDir, queryTimeoutMs: 300 });
    t.teardown(() => pg.close());
    const noop = async () => {};
    const stores = observeStores({ pg, ch: { rows: noop, insert: noop } } as unknown as Stores, () => {});
    const started = Date.now();
    const err = await t.throwsAsync(stores.pg.query('SELECT pg_sleep(5)'));
    // Before the query itself (5 s) would have ended.
    t.true(Date.now() - started < 5_000);
    t.is(storeOutage(err), 'Database unavailable');
    t.deepEqual((await stores.pg.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
  },
);
