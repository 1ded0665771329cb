// Embedded, reads run on chDB connections of their own (src/stores/clickhouse.ts): one
// organization's read already running, or its backlog, does not hold up another organization's.
// Ordering, not timing: the busy organization's reads sleep for seconds in the engine, and the
// other's read must be answered before they are.
// test-process: shared
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { startTestServer, tenantWithAnswers, type TestServer } from '../helpers/server.ts';
import { select } from '../../src/stores/scoped-query.ts';

let server: TestServer;
test.before(async () => {
  // A server of its own: its busy organization holds the read connections.
  server = await startTestServer({}, { ownServer: true });
});
test.after.always(async () => {
  await server?.stop();
});

test("another organization's read is answered while a busy one's reads run and wait", async (t) => {
  t.true(server.stores.ch.embedded);
  const busy = await tenantWithAnswers(server, 10);
  const quiet = await tenantWithAnswers(server, 3);
  const done: string[] = [];
  // 10 rows sleeping 0.15 s each: a second and a half in the engine per read, two of them.
  const slow = select(
    { table: 'answers', scope: { brandId: busy.brandId } },
    { select: 'sum(sleepEachRow(0.15)) AS s' },
  );
  const busyReads = [1, 2].map((i) =>
    server.stores.ch
      .forCaller(busy.organizationId)
      .rows(slow)
      .then(() => done.push(`busy${i}`)),
  );
  const count = select({ table: 'answers', scope: { brandId: quiet.brandId } }, { select: 'count() AS n' });
  const rows = await server.stores.ch.forCaller(quiet.organizationId).rows<{ n: number }>(count);
  done.push('quiet');
  t.deepEqual(rows, [{ n: 3 }]);
  await Promise.all(busyReads);
  t.deepEqual(done, ['quiet', 'busy1', 'busy2']);
});

test('reads side by side on several connections each get their own values', async (t) => {
  // Many organizations' reads at once, each with its own brand and range written into its query:
  // every answer must be its own (nothing shared between connections).
  const tenants = await Promise.all([1, 2, 3, 4].map((n) => tenantWithAnswers(server, n * 3)));
  const read = (i: number, seconds: number) =>
    server.stores.ch.forCaller(tenants[i].organizationId).rows<{ n: number }>(
      select(
        { table: 'answers', scope: { brandId: tenants[i].brandId } },
        {
          select: 'count() AS n',
          where: "collected_at < {until:DateTime64(3, 'UTC')}",
          params: { until: `2026-03-01 10:00:${String(seconds).padStart(2, '0')}.000` },
        },
      ),
    );
  const asked = Array.from({ length: 48 }, (_, k) => ({ i: k % 4, seconds: k % 13 }));
  const got = await Promise.all(asked.map(({ i, seconds }) => read(i, seconds)));
  t.deepEqual(
    got.map((rows) => rows[0].n),
    asked.map(({ i, seconds }) => Math.min((i + 1) * 3, seconds)),
  );
});

test("a read whose values run past the engine's default query size (256 KiB written in) is answered", async (t) => {
  // Ingestion asks about a batch's 20,000 answer ids at once (ingest-file.ts): about 900 KB written in.
  const tenant = await tenantWithAnswers(server, 2);
  const [stored] = await server.stores.ch.rows<{ id: string }>(
    select({ table: 'answers', scope: { brandId: tenant.brandId } }, { select: 'toString(any(answer_id)) AS id' }),
  );
  const ids = [...Array.from({ length: 20_000 }, () => randomUUID()), stored.id];
  const rows = await server.stores.ch
    .forCaller(tenant.organizationId)
    .rows<{ n: number }>(
      select(
        { table: 'answers', scope: { brandId: tenant.brandId } },
        { select: 'count() AS n', where: 'answer_id IN {ids:Array(UUID)}', params: { ids } },
      ),
    );
  t.deepEqual(rows, [{ n: 1 }]);
});
