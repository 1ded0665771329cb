// What bounds a tenant's reads of ClickHouse (docs/operations.md, "Sharing the analytics engine"):
// a read that runs past CLICKHOUSE_QUERY_BUDGET_MS is stopped with a 500 that says so, and a read
// whose client has gone is dropped before it runs.
// test-process: shared
import test from 'ava';
import { startTestServer, tenantWithAnswers, type TestServer } from '../helpers/server.ts';
import { select } from '../../src/stores/scoped-query.ts';
import { ApiError, ClientGone } from '../../src/errors.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ CLICKHOUSE_QUERY_BUDGET_MS: '100' });
});
test.after.always(async () => {
  await server?.stop();
});

test("a caller's read past its budget is stopped with a 503 naming the budget", async (t) => {
  const tenant = await tenantWithAnswers(server, 20);
  // 20 rows sleeping 100 ms each: two seconds of work against a budget of 100 ms, on any machine.
  const slow = select({ table: 'answers', scope: { brandId: tenant.brandId } }, { select: 'sleepEachRow(0.1) AS s' });
  const err = await t.throwsAsync(server.stores.ch.forCaller(tenant.organizationId).rows(slow));
  t.true(err instanceof ApiError);
  t.is((err as ApiError).status, 503);
  t.is(
    err?.message,
    "The analytics store stopped this request's query after its 0.1 s budget: narrow the date range or filters",
  );
  // The budget is per query and per caller: the service's own reads (ch.rows itself) have none,
  // even right after a caller's (no setting outlives its query: 20 x 20 ms is past 100 ms).
  const unhurried = select(
    { table: 'answers', scope: { brandId: tenant.brandId } },
    { select: 'count() AS n, max(sleepEachRow(0.02)) AS s' },
  );
  t.deepEqual(await server.stores.ch.rows(unhurried), [{ n: 20, s: 0 }]);
});

test('a read whose client has gone is dropped before it runs', async (t) => {
  const tenant = await tenantWithAnswers(server, 1);
  const q = select({ table: 'answers', scope: { brandId: tenant.brandId } }, { select: 'count() AS n' });
  await t.throwsAsync(server.stores.ch.forCaller(tenant.organizationId, () => true).rows(q), {
    instanceOf: ClientGone,
  });
});
