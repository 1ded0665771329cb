// `answerscope export answers --format parquet`: the file ClickHouse writes, read back by an
// independent reader (hyparquet), holds every answer of the JSON Lines export, row for row and
// column for column, with the columns docs/warehouse.md documents.
// test-process: shared
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';
import { asJson, jsonLines, readParquet } from '../helpers/answer-files.ts';
import { IngestCache, ingestBatch } from '../../src/tracking/ingest/batch.ts';
import { validateAnswer } from '../../src/tracking/ingest/answer-schema.ts';
import { ANSWER_PARQUET_COLUMNS } from '../../src/analytics/answer-parquet.ts';

let server: TestServer;
let tenant: Tenant;

test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  tenant = await seedTenant(server);
  // 30 answers over 6 days: both modes, null and known search queries, texts with quotes and
  // non-ASCII letters, answers naming the brand, a competitor, both or neither.
  const answers = Array.from({ length: 30 }, (_, i) => {
    const shopping = i % 10 === 0;
    const v = validateAnswer({
      id: randomUUID(),
      prompt_id: tenant.promptIds[i % tenant.promptIds.length],
      platform: i % 2 ? 'chatgpt' : 'perplexity',
      model: i % 2 ? 'gpt-4o' : 'sonar',
      region: i % 3 ? 'US' : 'GB',
      mode: shopping ? 'shopping' : 'standard',
      collected_at: `2026-03-0${1 + Math.floor(i / 5)}T0${i % 5}:00:00.000Z`,
      text: `Answer ${i}: ${i % 3 ? 'Acme' : ''}${i % 4 ? ' and Globex' : ''}. "Quoted" \\ and ünïcode 😀.`,
      citations: i % 4 ? [{ url: `https://acme.example/page-${i}`, title: `Page ${i}` }] : [],
      ...(i % 5 ? { search_queries: i % 2 ? [`best crm ${i}`, 'acme reviews'] : [] } : {}),
      products: shopping ? [{ position: 1, title: 'Acme CRM Pro', brand: 'Acme', price: '$99' }] : [],
    });
    if (!v.ok) throw new Error(v.error);
    return v.answer;
  });
  await ingestBatch(server.stores, new IngestCache(server.stores), answers);
});
test.after.always(async () => {
  await server?.stop();
});

test('the Parquet export holds every row and column of the JSON Lines export', async (t) => {
  const lines = await cli(['export', 'answers', '--brand', tenant.brandId], server.env);
  t.is(lines.code, 0, lines.stderr);
  const expected = jsonLines(lines.stdout);
  t.is(expected.length, 30);
  t.true(expected.some((a) => a.search_queries === null));
  t.true(expected.some((a) => Array.isArray(a.search_queries) && a.search_queries.length === 0));
  t.true(expected.some((a) => a.entities.some((e: any) => e.position === null)));

  const r = await cli(['export', 'answers', '--brand', tenant.brandId, '--format', 'parquet'], server.env);
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, '');
  t.is(r.stdoutBytes.subarray(0, 4).toString(), 'PAR1');
  const { rows, columns, metadata } = await readParquet(r.stdoutBytes);
  t.deepEqual(
    columns,
    ANSWER_PARQUET_COLUMNS.map(([name]) => name),
  );
  t.is(Number(metadata.num_rows), 30);
  t.deepEqual(rows.map(asJson), expected);

  // The documented column list is the file's.
  const doc = fs.readFileSync(new URL('../../docs/warehouse.md', import.meta.url), 'utf8');
  for (const [name] of ANSWER_PARQUET_COLUMNS) t.regex(doc, new RegExp(`\\| \`${name}\` \\|`), name);
});

test('a range and an empty range export as Parquet too', async (t) => {
  const args = ['export', 'answers', '--brand', tenant.brandId, '--from', '2026-03-02', '--to', '2026-03-03'];
  const lines = await cli(args, server.env);
  const r = await cli([...args, '--format', 'parquet'], server.env);
  t.is(r.code, 0, r.stderr);
  const { rows } = await readParquet(r.stdoutBytes);
  t.is(rows.length, 10);
  t.deepEqual(rows.map(asJson), jsonLines(lines.stdout));

  const none = await cli(
    [
      'export',
      'answers',
      '--brand',
      tenant.brandId,
      '--from',
      '2025-01-01',
      '--to',
      '2025-01-02',
      '--format',
      'parquet',
    ],
    server.env,
  );
  t.is(none.code, 0, none.stderr);
  t.is((await readParquet(none.stdoutBytes)).rows.length, 0);
});

test('an unknown format is refused on one line', async (t) => {
  const r = await cli(['export', 'answers', '--brand', tenant.brandId, '--format', 'csv'], server.env);
  t.is(r.code, 1);
  t.is(r.stdout, '');
  t.is(r.stderr, '--format must be jsonl or parquet, got "csv"\n');
});
