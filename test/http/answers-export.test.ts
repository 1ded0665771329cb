// GET /api/mcp/answers-export: the answers export over HTTP. The Parquet file, read back by an
// independent reader (hyparquet), holds every row and column of the JSON Lines export; both are the
// command line's files; the parameters are refused with the operations' messages; another
// organization's brand is not found.
// test-process: shared
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { call, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';
import { asJson, jsonLines, readParquet } from '../helpers/answer-files.ts';
import { IngestCache, ingestBatch } from '../../src/tracking/ingest/batch.ts';
import { validateAnswer } from '../../src/tracking/ingest/answer-schema.ts';
import { SOURCE_INVALID } from '../../src/operations/params.ts';

let server: TestServer;
let tenant: Tenant;

test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  tenant = await seedTenant(server);
  // 12 answers over 4 days: both modes, known and unknown search queries, the brand, a competitor or neither.
  const answers = Array.from({ length: 12 }, (_, i) => {
    const v = validateAnswer({
      id: randomUUID(),
      prompt_id: tenant.promptIds[i % tenant.promptIds.length],
      platform: i % 2 ? 'chatgpt' : 'perplexity',
      model: i % 2 ? 'gpt-4o' : 'sonar',
      region: 'US',
      mode: i % 6 === 0 ? 'shopping' : 'standard',
      collected_at: `2026-04-0${1 + Math.floor(i / 3)}T0${i % 3}:00:00.000Z`,
      text: `Answer ${i}: ${i % 3 ? 'Acme' : ''}${i % 4 ? ' and Globex' : ''}, "quoted" ünïcode.`,
      citations: i % 4 ? [{ url: `https://acme.example/p-${i}`, title: `Page ${i}` }] : [],
      ...(i % 5 ? { search_queries: [`best crm ${i}`] } : {}),
    });
    if (!v.ok) throw new Error(v.error);
    return v.answer;
  });
  await ingestBatch(server.stores, new IngestCache(server.stores), answers);
});
test.after.always(async () => {
  await server?.stop();
});

async function download(query: string, key = tenant.key) {
  const res = await fetch(`${server.url}/api/mcp/answers-export?${query}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

test('format=parquet streams the rows and columns of the JSON Lines export, which is the CLI export', async (t) => {
  const lines = await download(`brand_id=${tenant.brandId}`);
  t.is(lines.status, 200);
  t.is(lines.type, 'application/x-ndjson');
  const expected = jsonLines(lines.bytes);
  t.is(expected.length, 12);
  const fromCli = await cli(['export', 'answers', '--brand', tenant.brandId], server.env);
  t.deepEqual(expected, jsonLines(fromCli.stdout));

  const parquet = await download(`brand_id=${tenant.brandId}&format=parquet`);
  t.is(parquet.status, 200);
  t.is(parquet.type, 'application/vnd.apache.parquet');
  t.is(parquet.bytes.subarray(0, 4).toString(), 'PAR1');
  const { rows } = await readParquet(parquet.bytes);
  t.deepEqual(rows.map(asJson), expected);

  // A range and a source, as the figures take them: 2026-04-02 holds answers 3 to 5; none was captured.
  const day = `brand_id=${tenant.brandId}&date_from=2026-04-02&date_to=2026-04-02`;
  const { rows: dayRows } = await readParquet((await download(`${day}&format=parquet`)).bytes);
  t.deepEqual(dayRows.map(asJson), jsonLines((await download(day)).bytes));
  t.is(dayRows.length, 3);
  t.is(jsonLines((await download(`${day}&source=import`)).bytes).length, 3);
  t.is(jsonLines((await download(`${day}&source=capture`)).bytes).length, 0);
});

test("bad parameters are 400s naming them; another organization's brand is 404", async (t) => {
  const bad = async (query: string) => {
    const r = await call(server, 'GET', `/api/mcp/answers-export?${query}`, { key: tenant.key });
    return [r.status, r.body];
  };
  t.deepEqual(await bad(`brand_id=${tenant.brandId}&format=csv`), [
    400,
    { error: 'format must be one of: jsonl, parquet' },
  ]);
  t.deepEqual(await bad(`brand_id=${tenant.brandId}&source=Not%20A%20Slug`), [400, { error: SOURCE_INVALID }]);
  t.deepEqual(await bad('format=parquet'), [400, { error: 'brand_id is required' }]);
  t.deepEqual(await bad(`brand_id=${tenant.brandId}&date_from=2026-04-03&date_to=2026-04-01`), [
    400,
    { error: 'date_from must not be after date_to' },
  ]);
  const other = await seedTenant(server);
  const theirs = await call(server, 'GET', `/api/mcp/answers-export?brand_id=${tenant.brandId}&format=parquet`, {
    key: other.key,
  });
  t.deepEqual([theirs.status, theirs.body], [404, { error: 'Brand not found' }]);
  const keyless = await call(server, 'GET', `/api/mcp/answers-export?brand_id=${tenant.brandId}`);
  t.is(keyless.status, 401);
});
