// Two instances on one real Postgres server (DATABASE_URL), as two processes: they migrate a fresh
// database at the same moment (the advisory lock makes one apply every file and the other none),
// then claim the same job slot (exactly one runs it) and drain the same webhook outbox with
// FOR UPDATE SKIP LOCKED (every delivery claimed once, none twice). Skipped without DATABASE_URL:
// the embedded PGlite belongs to one process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { freshDatabase, uniq } from '../helpers/server.ts';
import { openPostgres } from '../../src/stores/postgres.ts';
import { applyWorkspace, parseWorkspace } from '../../src/tenancy/workspace.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DELIVERIES = 300;
const maybe = process.env.DATABASE_URL ? test : test.skip;

function instance(databaseUrl: string, jobName: string, slot: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-instance-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/ops/fixtures/instance.ts', jobName, slot], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const messages = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await messages.next();
    if (done) throw new Error(`instance ended early: ${stderr}`);
    return JSON.parse(value);
  };
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    next,
    go: () => child.stdin!.write('go\n'),
    exited,
    stop() {
      child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

maybe('two processes on one Postgres: migrations once, a job slot once, each delivery once', async (t) => {
  const db = await freshDatabase();
  t.teardown(() => db.drop());
  const jobName = uniq('scale-out-job');
  const a = instance(db.url!, jobName, '2026-11-20');
  const b = instance(db.url!, jobName, '2026-11-20');
  t.teardown(() => {
    a.stop();
    b.stop();
  });

  const [ma, mb] = await Promise.all([a.next(), b.next()]);
  const pgFiles = fs
    .readdirSync(path.join(ROOT, 'postgres'))
    .filter((f) => f.endsWith('.sql'))
    .sort();
  t.deepEqual(
    [ma.migrated.postgres, mb.migrated.postgres].sort((x, y) => y.length - x.length),
    [pgFiles, []],
  );

  // An outbox of deliveries that are all due now.
  const pg = await openPostgres({ url: db.url, dataDir: os.tmpdir() });
  t.teardown(() => pg.close());
  const applied = await applyWorkspace(
    pg,
    parseWorkspace({
      organizations: [{ name: uniq('Org'), plan: 'growth', members: [{ email: `${uniq('u')}@example.test` }] }],
    }),
  );
  const endpoint = randomUUID();
  await pg.query(
    `INSERT INTO webhook_endpoints (id, organization_id, url, events, secret) VALUES ($1, $2, 'https://hooks.example/x', '{webhook.test}', 'whsec_test')`,
    [endpoint, applied.organizations[0].id],
  );
  const ids = Array.from({ length: DELIVERIES }, () => randomUUID());
  await pg.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_type, body) SELECT unnest($1::uuid[]), $2, 'webhook.test', '{}'`,
    [ids, endpoint],
  );

  a.go();
  b.go();
  const [ra, rb] = await Promise.all([a.next(), b.next()]);
  t.deepEqual([ra.ran, rb.ran].sort(), [false, true], 'exactly one instance ran the slot');
  const { rows: runs } = await pg.query('SELECT status FROM job_runs WHERE job = $1', [jobName]);
  t.deepEqual(runs, [{ status: 'succeeded' }]);

  const claimed = [...ra.claimed, ...rb.claimed];
  t.is(claimed.length, DELIVERIES, 'no delivery claimed twice');
  t.deepEqual([...new Set(claimed)].sort(), [...ids].sort(), 'every delivery claimed');
  t.log(`deliveries claimed per instance: ${ra.claimed.length} / ${rb.claimed.length}`);
  t.deepEqual(await Promise.all([a.exited, b.exited]), [0, 0]);
});
