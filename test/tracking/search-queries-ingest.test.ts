// search_queries travel from an ingest line to the answers table: unknown (absent or null) is
// stored as known = 0, [] as known = 1 with no queries, values as given (trimmed). A re-import that
// changes them replaces the stored answer (the replacement path writes answers directly), and a
// re-analysis leaves them as they were.
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { seedTenant, startTestServer, uniq, type Tenant, type TestServer } from '../helpers/server.ts';
import { ingestFile } from '../../src/tracking/ingest/file.ts';
import { reanalyzeBrand } from '../../src/tracking/reanalysis/reanalyze.ts';
import { startReanalysis } from '../../src/tenancy/reanalysis-queue.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

const ID = (n: number) => `5d0c1f3e-0000-4000-8000-00000000000${n}`;

function line(t: Tenant, n: number, extra: object) {
  return JSON.stringify({
    id: ID(n),
    prompt_id: t.promptIds[0],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: `2026-11-0${n}T06:00:00Z`,
    text: `Acme answer ${n}`,
    ...extra,
  });
}

async function ingest(lines: string[]) {
  const file = path.join(server.dataDir, `${uniq('queries')}.jsonl`);
  fs.writeFileSync(file, lines.join('\n'));
  return ingestFile(server.stores, file);
}

/** The live answers rows of the brand, by id: what a reader summing `sign` sees. */
async function stored(brandId: string) {
  const rows = await server.stores.ch.system<{ id: string; q: string[]; known: number; live: number }>(
    `SELECT toString(answer_id) AS id, search_queries AS q, search_queries_known AS known, sum(sign) AS live
     FROM answers WHERE brand_id = {b:UUID}
     GROUP BY answer_id, search_queries, search_queries_known HAVING live != 0 ORDER BY id`,
    { b: brandId },
  );
  return Object.fromEntries(rows.map((r) => [r.id, { q: r.q, known: Number(r.known), live: Number(r.live) }]));
}

test('absent and null are unknown, [] is known and empty, values are kept; a re-import replaces them', async (t) => {
  const tenant = await seedTenant(server);
  const summary = await ingest([
    line(tenant, 1, {}),
    line(tenant, 2, { search_queries: null }),
    line(tenant, 3, { search_queries: [] }),
    line(tenant, 4, { search_queries: ['  best CRM for startups ', 'acme crm pricing'] }),
  ]);
  t.deepEqual(summary, { read: 4, inserted: 4, replaced: 0, rejected: [] });
  t.deepEqual(await stored(tenant.brandId), {
    [ID(1)]: { q: [], known: 0, live: 1 },
    [ID(2)]: { q: [], known: 0, live: 1 },
    [ID(3)]: { q: [], known: 1, live: 1 },
    [ID(4)]: { q: ['best CRM for startups', 'acme crm pricing'], known: 1, live: 1 },
  });

  // The same answers again with their queries changed: each is replaced, and counts once.
  const again = await ingest([
    line(tenant, 1, { search_queries: ['acme reviews'] }),
    line(tenant, 2, {}),
    line(tenant, 3, { search_queries: null }),
    line(tenant, 4, { search_queries: [] }),
  ]);
  t.deepEqual(again, { read: 4, inserted: 0, replaced: 4, rejected: [] });
  const after = await stored(tenant.brandId);
  t.deepEqual(after, {
    [ID(1)]: { q: ['acme reviews'], known: 1, live: 1 },
    [ID(2)]: { q: [], known: 0, live: 1 },
    [ID(3)]: { q: [], known: 0, live: 1 },
    [ID(4)]: { q: [], known: 1, live: 1 },
  });

  // A re-analysis writes analysis rows only: the answers rows, queries included, stay as they were.
  await startReanalysis(server.stores.pg, tenant.brandId, 'test');
  const result = await reanalyzeBrand(server.stores, tenant.brandId);
  t.is(result.answers, 4);
  t.deepEqual(await stored(tenant.brandId), after);
});

test('a bad search_queries rejects its line, naming the field', async (t) => {
  const tenant = await seedTenant(server);
  const summary = await ingest([
    line(tenant, 1, { search_queries: 'best crm' }),
    line(tenant, 2, { search_queries: [''] }),
    line(tenant, 3, { search_queries: Array(101).fill('q') }),
    line(tenant, 4, { search_queries: ['x'.repeat(1001)] }),
    line(tenant, 5, { search_queries: ['ok'] }),
  ]);
  t.is(summary.inserted, 1);
  t.deepEqual(
    summary.rejected.map((r: { line: number; error: string }) => [r.line, r.error.split(':')[0]]),
    [
      [1, 'search_queries'],
      [2, 'search_queries.0'],
      [3, 'search_queries'],
      [4, 'search_queries.0'],
    ],
  );
});
