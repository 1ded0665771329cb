// `answerscope export answers` through the real command line beside a running server (the admin
// channel streams the lines): every answer of the range, both modes, exactly as the API lists them.
// test-process: shared
// test-weight: 13
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { get, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';
import { IngestCache, ingestBatch } from '../../src/tracking/ingest/batch.ts';
import { validateAnswer } from '../../src/tracking/ingest/answer-schema.ts';
import { exportAnswers, planWindows } from '../../src/analytics/answer-export.ts';
import { brandById, brandEntities } from '../../src/tenancy/brands.ts';
import { EXPORT_USAGE } from '../../src/cli/export.ts';

let server: TestServer;
let tenant: Tenant;
const SHOPPING = 5;

test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  tenant = await seedTenant(server);
  // 60 answers over 12 days (five at 06:00 of each, one of them a shopping answer on some days).
  const lines = Array.from({ length: 60 }, (_, i) => {
    const day = String(1 + Math.floor(i / 5)).padStart(2, '0');
    const shopping = i % 12 === 0;
    return {
      id: randomUUID(),
      prompt_id: tenant.promptIds[0],
      platform: i % 2 ? 'chatgpt' : 'perplexity',
      model: i % 2 ? 'gpt-4o' : 'sonar',
      region: 'US',
      mode: shopping ? 'shopping' : 'standard',
      collected_at: `2026-03-${day}T06:00:00.000Z`,
      text: `Answer ${i}: Acme${i % 3 ? ' and Globex' : ''}. "Quoted" \\ and ünïcode.`,
      citations: [{ url: `https://acme.example/page-${i}`, title: `Page ${i}` }],
      products: shopping ? [{ position: 1, title: 'Acme CRM Pro', brand: 'Acme', price: '$99' }] : [],
    };
  });
  const answers = lines.map((l) => {
    const v = validateAnswer(l);
    if (!v.ok) throw new Error(v.error);
    return v.answer;
  });
  await ingestBatch(server.stores, new IngestCache(server.stores), answers);
});
test.after.always(async () => {
  await server?.stop();
});

/** Every answer the API lists for a mode and range, page by page. */
async function listed(mode: string, range = ''): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const q = `brand_id=${tenant.brandId}&mode=${mode}&limit=7${range}${cursor ? `&cursor=${cursor}` : ''}`;
    const r = await get(server, `/api/v1/answers?${q}`, tenant.key);
    out.push(...r.body.answers);
    cursor = r.body.next_cursor;
  } while (cursor);
  return out;
}

/** Both modes in the export's order: newest first, then by id. */
const byKey = (a: any, b: any) =>
  a.collected_at !== b.collected_at ? (a.collected_at < b.collected_at ? 1 : -1) : a.id < b.id ? 1 : -1;

const jsonLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

test('the export is every answer of both modes, line for line what the API lists', async (t) => {
  const all = [...(await listed('standard')), ...(await listed('shopping'))].sort(byKey);
  t.is(all.length, 60);
  t.is(all.filter((a) => a.mode === 'shopping').length, SHOPPING);
  const r = await cli(['export', 'answers', '--brand', tenant.brandId], server.env);
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, '');
  t.true(r.stdout.endsWith('\n'));
  t.deepEqual(jsonLines(r.stdout), all);

  const range = '&date_from=2026-03-03&date_to=2026-03-05T05:00:00Z';
  const inRange = [...(await listed('standard', range)), ...(await listed('shopping', range))].sort(byKey);
  t.is(inRange.length, 10);
  const ranged = await cli(
    ['export', 'answers', '--brand', tenant.brandId, '--from', '2026-03-03', '--to', '2026-03-05T05:00:00Z'],
    server.env,
  );
  t.is(ranged.code, 0, ranged.stderr);
  t.deepEqual(jsonLines(ranged.stdout), inRange);
});

test('small pages and windows read the same answers in the same order', async (t) => {
  const brand = (await brandById(server.stores.pg, tenant.brandId))!;
  const entities = await brandEntities(server.stores.pg, brand);
  const f = { brandId: brand.id, generation: brand.analysis_generation };
  const pages: any[][] = [];
  for await (const page of exportAnswers(server.stores.ch, server.stores.pg, f, { entities }, { page: 3, window: 8 }))
    pages.push(page);
  t.true(pages.every((p) => p.length <= 3));
  const all = [...(await listed('standard')), ...(await listed('shopping'))].sort(byKey);
  t.deepEqual(JSON.parse(JSON.stringify(pages.flat())), all);
});

test('windows tile the range: whole days, newest first, none empty of days between', (t) => {
  const days = [
    { day: '2026-03-05', answers: 4 },
    { day: '2026-03-04', answers: 4 },
    { day: '2026-03-01', answers: 30 },
  ];
  const to = new Date('2026-03-05T12:00:00.000Z');
  const from = new Date('2026-02-20T00:00:00.000Z');
  t.deepEqual(
    planWindows(days, 8, from, to).map((w) => [w.from?.toISOString(), w.to?.toISOString()]),
    [
      ['2026-03-04T00:00:00.000Z', '2026-03-05T12:00:00.000Z'],
      ['2026-02-20T00:00:00.000Z', '2026-03-03T23:59:59.999Z'],
    ],
  );
  t.deepEqual(
    planWindows([], 8).map((w) => [w.from, w.to]),
    [[undefined, undefined]],
  );
});

test('bad arguments: one line on stderr and exit code 1', async (t) => {
  const cases: [string[], string][] = [
    [
      ['export', 'answers', '--brand', tenant.brandId, '--from', '2026-02-30'],
      '--from must be a date (YYYY-MM-DD) or an ISO 8601 timestamp',
    ],
    [
      ['export', 'answers', '--brand', tenant.brandId, '--to', 'soon'],
      '--to must be a date (YYYY-MM-DD) or an ISO 8601 timestamp',
    ],
    [
      ['export', 'answers', '--brand', tenant.brandId, '--from', '2026-03-02', '--to', '2026-03-01'],
      '--from must not be after --to',
    ],
    [['export', 'answers', '--brand', 'acme'], '--brand must be a UUID, got "acme"'],
    [['export', 'answers'], `--brand is required; usage: answerscope ${EXPORT_USAGE}`],
    [['export', 'prompts', '--brand', tenant.brandId], `Unknown export: prompts; usage: answerscope ${EXPORT_USAGE}`],
  ];
  for (const [args, message] of cases) {
    const r = await cli(args, server.env);
    t.is(r.code, 1, args.join(' '));
    t.is(r.stdout, '', args.join(' '));
    t.is(r.stderr, `${message}\n`, args.join(' '));
  }
  const unknown = randomUUID();
  const r = await cli(['export', 'answers', '--brand', unknown], server.env);
  t.is(r.code, 1);
  t.is(r.stderr, `No brand ${unknown}\n`);
});
