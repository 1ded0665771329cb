// Edges of the answer file (docs/api.md section 9): a byte-order mark, lines that are JSON but not
// objects, instants that do not exist or lie outside 2000-01-01 .. one day after now, and answers
// that differ only by mode. Through the real command line, and through ingestFile where the clock
// or the chunking is the point.
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { seedTenant, startTestServer, uniq, type Tenant, type TestServer } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';
import { ingestFile, ingestLines } from '../../src/tracking/ingest/file.ts';
import { uuidV5 } from '../../src/tracking/ingest/ids.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

const BOM = '\uFEFF';
const HOUR = 3_600_000;

function write(text: string): string {
  const file = path.join(server.dataDir, `${uniq('answers')}.jsonl`);
  fs.writeFileSync(file, text);
  return file;
}

function answer(t: Tenant, collectedAt: string, extra: object = {}) {
  return {
    prompt_id: t.promptIds[0],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: collectedAt,
    text: 'Acme and Globex.',
    citations: [{ url: 'https://acme.example/a' }],
    ...extra,
  };
}

const lines = (list: (object | string)[]) =>
  `${list.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`;

/** Live answers of the brand: id, mode, instant and text. */
async function live(brandId: string) {
  return server.stores.ch.system<{ answer_id: string; mode: string; at: string; text: string }>(
    `SELECT answer_id, mode, toString(collected_at) AS at, text FROM answers WHERE brand_id = {b:UUID}
     GROUP BY answer_id, mode, collected_at, text HAVING sum(sign) > 0 ORDER BY collected_at, mode`,
    { b: brandId },
  );
}

test('a byte-order mark at the start of the file is ignored, on the command line', async (t) => {
  const tenant = await seedTenant(server);
  const file = write(
    BOM +
      lines([answer(tenant, '2026-11-01T06:00:00Z'), answer(tenant, '2026-11-01T07:00:00Z', { text: 'Café Acme' })]),
  );
  const r = await cli(['ingest', file], server.env);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(r.json, { read: 2, inserted: 2, replaced: 0, rejected: [] });
  t.deepEqual(
    (await live(tenant.brandId)).map((a) => a.text),
    ['Acme and Globex.', 'Café Acme'],
  );
});

test('only the very start of the file may hold a byte-order mark, whatever the chunk size', async (t) => {
  const tenant = await seedTenant(server);
  const good = (hour: number, text: string) => JSON.stringify(answer(tenant, `2026-11-01T0${hour}:00:00Z`, { text }));
  // ASCII after the mark (the reader's latin1 path) and not; a mark at the start of line 3 is not
  // the start of the file, so that line is not JSON.
  const text = BOM + [good(1, 'Plain Acme'), good(2, 'Café “Acme”'), BOM + good(3, 'Acme')].join('\n');
  const file = write(text);
  for (const batchSize of [1, 2, 10_000]) {
    const r = await ingestFile(server.stores, file, batchSize);
    t.deepEqual(
      r.rejected.map((x) => x.line),
      [3],
      `batch size ${batchSize}`,
    );
    t.regex(r.rejected[0].error, /^not valid JSON/);
    t.is(r.inserted + r.replaced, 2);
  }
  // Lines read as text (readline keeps the mark) are read the same way.
  const byLines = await ingestLines(
    server.stores,
    (async function* () {
      yield* text.split('\n').map((l, i) => ({ line: i + 1, text: l }));
    })(),
  );
  t.deepEqual(
    byLines.rejected.map((x) => x.line),
    [3],
  );
  t.deepEqual(
    (await live(tenant.brandId)).map((a) => a.text),
    ['Plain Acme', 'Café “Acme”'],
  );
});

test('a line holding JSON that is not an object is rejected as such, on the command line', async (t) => {
  const tenant = await seedTenant(server);
  const file = write(lines(['[1,2]', '42', '"x"', 'null', '[]', answer(tenant, '2026-11-01T06:00:00Z')]));
  const r = await cli(['ingest', file], server.env);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(r.json, {
    read: 6,
    inserted: 1,
    replaced: 0,
    rejected: [1, 2, 3, 4, 5].map((line) => ({ line, error: 'line must be a JSON object' })),
  });
});

test('collected_at must be a real instant from 2000 to one day after now, on the command line', async (t) => {
  const tenant = await seedTenant(server);
  // Hours either side of the bound, so the time the command takes to start cannot matter.
  const soon = new Date(Date.now() + 12 * HOUR).toISOString();
  const tooLate = new Date(Date.now() + 36 * HOUR).toISOString();
  const file = write(
    lines([
      answer(tenant, '2026-02-30T06:00:00Z'),
      answer(tenant, '1800-01-01T00:00:00Z'),
      answer(tenant, '9999-12-31T00:00:00Z'),
      answer(tenant, '2026-10-01T24:00:00Z'),
      answer(tenant, '2025-02-29T06:00:00Z'),
      answer(tenant, '1999-12-31T23:59:59Z'),
      answer(tenant, tooLate),
      answer(tenant, '2024-02-29T06:00:00+05:30'),
      answer(tenant, soon),
      answer(tenant, '2000-01-01T00:00:00Z'),
    ]),
  );
  const r = await cli(['ingest', file], server.env);
  t.is(r.code, 0, r.stderr);
  const invalid = 'collected_at: is not a valid date';
  const range = 'collected_at: must be from 2000-01-01T00:00:00Z to one day after now';
  t.deepEqual(r.json, {
    read: 10,
    inserted: 3,
    replaced: 0,
    rejected: [invalid, range, range, invalid, invalid, range, range].map((error, i) => ({ line: i + 1, error })),
  });
  // Nothing rolled over into another day: only the three good instants are stored.
  const stored = (iso: string) => iso.replace('T', ' ').replace('Z', '');
  t.deepEqual(
    (await live(tenant.brandId)).map((a) => a.at),
    ['2000-01-01T00:00:00.000Z', '2024-02-29T00:30:00.000Z', soon].map(stored),
  );
});

test('"now" is the clock given to ingestion, in the worker and when reading lines', async (t) => {
  const tenant = await seedTenant(server);
  const now = () => new Date('2026-06-01T12:00:00Z');
  // Exactly one day after now, a millisecond later, and a month before.
  const instants = ['2026-06-02T12:00:00Z', '2026-06-02T12:00:00.001Z', '2026-05-01T00:00:00Z'];
  const text = lines(instants.map((at) => answer(tenant, at)));
  const expected = [{ line: 2, error: 'collected_at: must be from 2000-01-01T00:00:00Z to one day after now' }];
  for (const batchSize of [1, 10_000]) {
    const r = await ingestFile(server.stores, write(text), batchSize, { now });
    t.deepEqual(r.rejected, expected, `batch size ${batchSize}`);
  }
  const byLines = await ingestLines(
    server.stores,
    (async function* () {
      yield* text
        .trimEnd()
        .split('\n')
        .map((l, i) => ({ line: i + 1, text: l }));
    })(),
    undefined,
    { now },
  );
  t.deepEqual(byLines.rejected, expected);
  t.is((await live(tenant.brandId)).length, 2);
});

test('a shopping answer never replaces a standard one of the same moment; standard ids are unchanged', async (t) => {
  const tenant = await seedTenant(server);
  const products = [{ position: 1, title: 'Acme CRM', brand: 'Acme', price: 10 }];
  const file = write(
    lines([
      answer(tenant, '2026-11-01T06:00:00Z'),
      answer(tenant, '2026-11-01T06:00:00Z', { mode: 'shopping', text: 'Shopping', products }),
      answer(tenant, '2026-11-01T07:00:00Z', { mode: 'standard' }),
      answer(tenant, '2026-11-01T07:00:00Z', { mode: 'shopping', text: 'Shopping', products }),
    ]),
  );
  const first = await cli(['ingest', file], server.env);
  t.is(first.code, 0, first.stderr);
  t.deepEqual(first.json, { read: 4, inserted: 4, replaced: 0, rejected: [] });
  t.deepEqual((await cli(['ingest', file], server.env)).json, { read: 4, inserted: 0, replaced: 4, rejected: [] });
  const stored = await live(tenant.brandId);
  t.deepEqual(
    stored.map((a) => a.mode),
    ['shopping', 'standard', 'shopping', 'standard'],
  );
  // A standard answer keeps the id it was always given, so files imported before keep replacing it.
  const oldId = (at: string) => uuidV5(`answer|${tenant.promptIds[0]}|chatgpt|gpt-4o|US|${at}`);
  t.deepEqual(
    stored.filter((a) => a.mode === 'standard').map((a) => a.answer_id),
    [oldId('2026-11-01T06:00:00.000Z'), oldId('2026-11-01T07:00:00.000Z')],
  );
});

test('a number past its column is rejected with its line and field, and the rest of the file is stored', async (t) => {
  const tenant = await seedTenant(server);
  const shop = (hour: number, product: object) =>
    answer(tenant, `2026-11-02T0${hour}:00:00Z`, { mode: 'shopping', products: [{ title: 'Acme mug', ...product }] });
  // Each would have failed the shopping_cards insert (UInt16, UInt32, Float64) and lost the batch.
  const file = write(
    `${lines([
      shop(1, { review_count: 120, position: 2, price: '$5' }),
      shop(2, { review_count: 1e300 }),
      shop(3, { position: 70_000 }),
      shop(4, { review_count: 2.5 }),
    ])}{"prompt_id": "${tenant.promptIds[0]}", "platform": "chatgpt", "collected_at": "2026-11-02T05:00:00Z", "text": "x", "products": [{"price": 1e400}]}\n`,
  );
  const r = await cli(['ingest', file], server.env);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(r.json, {
    read: 5,
    inserted: 1,
    replaced: 0,
    rejected: [
      { line: 2, error: 'products.0.review_count: must be an integer from 0 to 4294967295, or text' },
      { line: 3, error: 'products.0.position: must be an integer from 0 to 65535, or text' },
      { line: 4, error: 'products.0.review_count: must be an integer from 0 to 4294967295, or text' },
      { line: 5, error: 'products.0.price: must be a finite number, or text' },
    ],
  });
});
