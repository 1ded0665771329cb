// test-process: shared
import test from 'ava';
import pino from 'pino';
import { openPostgres } from '../../src/stores/postgres.ts';
import { runClaimed } from '../../jobs/schedule.ts';
import { defineJob, type JobContext } from '../../jobs/registry.ts';
import { startTestServer, uniq, type TestServer } from '../helpers/server.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

function countingJob() {
  const calls: string[] = [];
  const job = defineJob({
    name: uniq('test-job'),
    schedule: '0 3 * * *',
    description: 'counts its runs',
    run: async (_ctx, args) => {
      calls.push(args.date);
      await new Promise((r) => setTimeout(r, 50));
      return { date: args.date };
    },
  });
  return { job, calls };
}

const ctxFor = (stores: TestServer['stores']): JobContext => ({
  stores,
  config: server.config,
  log: pino({ level: 'silent' }),
  now: () => new Date(),
});

test('two instances ticking at once: exactly one runs the slot, and the slot is not run again', async (t) => {
  // A second instance is a second connection pool on the same database.
  const other = process.env.DATABASE_URL
    ? { ...server.stores, pg: await openPostgres({ url: server.env.DATABASE_URL, dataDir: server.dataDir }) }
    : server.stores;
  t.teardown(() => (other !== server.stores ? other.pg.close() : undefined));
  const { job, calls } = countingJob();
  const outcomes = await Promise.all([
    runClaimed(ctxFor(server.stores), job, '2026-11-01'),
    runClaimed(ctxFor(other), job, '2026-11-01'),
  ]);
  t.deepEqual(outcomes.map((o) => o.ran).sort(), [false, true]);
  t.deepEqual(calls, ['2026-11-01']);
  t.false((await runClaimed(ctxFor(server.stores), job, '2026-11-01')).ran);
  t.true((await runClaimed(ctxFor(server.stores), job, '2026-11-02')).ran);
  const { rows } = await server.stores.pg.query(
    'SELECT slot, status, result FROM job_runs WHERE job = $1 ORDER BY slot',
    [job.name],
  );
  t.deepEqual(rows, [
    { slot: '2026-11-01', status: 'succeeded', result: { date: '2026-11-01' } },
    { slot: '2026-11-02', status: 'succeeded', result: { date: '2026-11-02' } },
  ]);
});

test('a failed run is recorded with its reason and may be claimed again', async (t) => {
  let attempts = 0;
  const job = defineJob({
    name: uniq('flaky'),
    schedule: '0 3 * * *',
    description: 'fails once',
    run: async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('provider down');
      return { ok: true };
    },
  });
  await t.throwsAsync(runClaimed(ctxFor(server.stores), job, '2026-11-05'), { message: 'provider down' });
  const failed = await server.stores.pg.query('SELECT status, error FROM job_runs WHERE job = $1', [job.name]);
  t.deepEqual(failed.rows, [{ status: 'failed', error: 'provider down' }]);
  t.true((await runClaimed(ctxFor(server.stores), job, '2026-11-05')).ran);
  t.is(attempts, 2);
});
