// ch.rowLines (src/stores/clickhouse.ts): a scoped read's rows as the engine's JSONEachRow bytes,
// for a worker thread to parse. They hold exactly the rows `rows` gives for the same read, values
// written as `rows` reads them (ISO timestamps, 64-bit counts as numbers).
// test-process: shared
import test from 'ava';
import { startTestServer, tenantWithAnswers, type TestServer } from '../helpers/server.ts';
import { select, type ScopedQuery } from '../../src/stores/scoped-query.ts';
import { parseRows } from '../../src/tracking/reanalysis/step.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

test.serial('rowLines holds the rows of the same read, one JSON object per line', async (t) => {
  const tenant = await tenantWithAnswers(server, 5);
  const q = select(
    { table: 'answers', scope: { brandId: tenant.brandId } },
    { select: 'answer_id, collected_at, text, count() OVER () AS n', orderBy: 'collected_at' },
  );
  const rows = await server.stores.ch.rows(q);
  t.is(rows.length, 5);
  const bytes = await server.stores.ch.rowLines(q);
  t.true(bytes instanceof Uint8Array);
  t.deepEqual(parseRows(bytes), rows);
  t.regex(Buffer.from(bytes).toString(), /^\{"answer_id":"[0-9a-f-]{36}","collected_at":"2026-03-01T10:00:00\.000Z",/);
  // A caller's view reads the same bytes, in its own organization's line.
  t.deepEqual(Buffer.from(await server.stores.ch.forCaller(tenant.organizationId).rowLines(q)), Buffer.from(bytes));
});

test.serial('rowLines of a read with no rows is empty, and it takes scoped reads only', async (t) => {
  const tenant = await tenantWithAnswers(server, 1);
  const none = select({ table: 'answers', scope: { brandId: tenant.brandId } }, { select: 'answer_id', where: '0' });
  t.is((await server.stores.ch.rowLines(none)).byteLength, 0);
  // A caller the type system does not see.
  const raw = { sql: 'SELECT 1', params: {} } as unknown as ScopedQuery;
  await t.throwsAsync(server.stores.ch.rowLines(raw), { instanceOf: TypeError, message: /ScopedQuery/ });
});
