// `ingest FILE` reads, validates and analyses in a worker thread, in chunks of lines: line numbers,
// messages and counts must not depend on where chunks end, and writes stay exact and idempotent.
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import test from 'ava';
import { seedTenant, startTestServer, uniq, type Tenant, type TestServer } from '../helpers/server.ts';
import { ingestFile, ingestLines } from '../../src/tracking/ingest/file.ts';
import { columnsOf } from '../../src/stores/fact-tables.ts';
import { PrepareThreads } from '../../src/tracking/ingest/worker-pool.ts';
import { latestCollectedAt } from '../../src/tracking/ingest/answer-schema.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

function answers(t: Tenant, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    prompt_id: t.promptIds[0],
    platform: i % 2 ? 'chatgpt' : 'perplexity',
    model: 'gpt-4o',
    region: 'US',
    collected_at: `2026-11-0${1 + (i % 3)}T06:00:${String(i % 60).padStart(2, '0')}Z`,
    text: i % 4 ? `Acme and Globex, answer ${i}. Café “Acme”.` : `Only Globex ${i}`,
    citations: [{ url: `https://acme.example/p/${i}`, title: 'Acme' }, { url: 'https://news.example/a' }],
  }));
}

function write(text: string): string {
  const file = path.join(server.dataDir, `${uniq('answers')}.jsonl`);
  fs.writeFileSync(file, text);
  return file;
}

async function stored(brandId: string) {
  const q = (sql: string) => server.stores.ch.system<any>(sql, { b: brandId }).then((r) => r[0]);
  return {
    answers: await q('SELECT sum(sign) AS n, count() AS raw FROM answers WHERE brand_id = {b:UUID}'),
    entities: await q(
      'SELECT sum(sign) AS n, count() AS raw, sum(mentions * sign) AS m, sum(citations * sign) AS c FROM answer_entities WHERE brand_id = {b:UUID}',
    ),
    citations: await q('SELECT sum(sign) AS n, count() AS raw FROM answer_citations WHERE brand_id = {b:UUID}'),
  };
}

test('line numbers and messages are those readline gives, wherever chunks end', async (t) => {
  const tenant = await seedTenant(server);
  const good = answers(tenant, 9).map((a) => JSON.stringify(a));
  // \n, \r\n and lone \r line ends, blank lines, bad lines, and no newline at the end.
  const text =
    [
      good[0],
      '{"prompt_id": ',
      good[1],
      '',
      good[2],
      JSON.stringify({ ...answers(tenant, 1)[0], platform: 'altavista' }),
    ].join('\n') +
    '\r\n' +
    good[3] +
    '\r\n\r\n' +
    'not json' +
    '\r' +
    good[4] +
    '\n' +
    JSON.stringify({ ...answers(tenant, 1)[0], prompt_id: '00000000-0000-4000-8000-000000000000' }) +
    '\n' +
    good.slice(5).join('\n');
  const file = write(text);

  // What readline (the reader before the worker) makes of the file.
  const expected: { line: number; text: string }[] = [];
  let n = 0;
  for await (const l of readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity }))
    expected.push({ line: ++n, text: l });

  const byLines = await ingestLines(
    server.stores,
    (async function* () {
      yield* expected;
    })(),
    3,
  );
  for (const batchSize of [1, 2, 3, 10_000]) {
    const r = await ingestFile(server.stores, file, batchSize);
    t.deepEqual(r.rejected, byLines.rejected, `batch size ${batchSize}`);
    t.is(r.read, expected.filter((l) => l.text.trim()).length);
    t.is(r.inserted + r.replaced + r.rejected.length, r.read);
  }
  t.deepEqual(
    byLines.rejected.map((r) => r.line),
    [2, 6, 9, 11],
  );
  t.regex(byLines.rejected[0].error, /^not valid JSON/);
  t.regex(byLines.rejected[1].error, /^platform: must be one of/);
  t.regex(byLines.rejected[2].error, /^not valid JSON/);
  t.is(byLines.rejected[3].error, 'prompt_id: unknown prompt 00000000-0000-4000-8000-000000000000');
});

test('answer texts are stored exactly as the file holds them, ASCII or not, whatever the chunk', async (t) => {
  const tenant = await seedTenant(server);
  const texts = [
    'Plain ASCII, Acme first.',
    'Café “Acme” — 日本語 😀 and Ǆ',
    'Line\u2028separator, tab\tand \\ backslash',
  ];
  const file = write(
    answers(tenant, 3)
      .map((a, i) => JSON.stringify({ ...a, text: texts[i] }))
      .join('\r\n'),
  );
  // One answer a chunk (one ASCII, two not), then all in one chunk: the second run replaces each
  // answer with the same rows, so what it reads must be the same text.
  t.like(await ingestFile(server.stores, file, 1), { inserted: 3, rejected: [] });
  t.like(await ingestFile(server.stores, file, 10_000), { replaced: 3, rejected: [] });
  const rows = await server.stores.ch.system<{ text: string }>(
    'SELECT text FROM answers WHERE brand_id = {b:UUID} GROUP BY text HAVING sum(sign) > 0 ORDER BY text',
    { b: tenant.brandId },
  );
  t.deepEqual(
    rows.map((r) => r.text),
    [...texts].sort(),
  );
});

test('in a file of 1,300 lines, rejections keep their line numbers and the last answer of an id wins', async (t) => {
  const tenant = await seedTenant(server);
  const good = answers(tenant, 1300).map((a, i) => ({
    ...a,
    collected_at: `2026-11-01T${String(Math.floor(i / 60) % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z`,
  }));
  const unknown = JSON.stringify({ ...good[0], prompt_id: '00000000-0000-4000-8000-000000000000' });
  const lines = good.map((a) => JSON.stringify(a));
  // Bad lines side by side (500/501 and 1000/1001), and line 1250 repeating line 3's answer with
  // another text.
  lines[499] = unknown;
  lines[500] = 'not json';
  lines[999] = unknown;
  lines[1000] = unknown;
  lines[1249] = JSON.stringify({ ...good[2], text: 'Acme repeated' });
  const file = write(lines.join('\n'));
  const r = await ingestFile(server.stores, file);
  t.deepEqual(
    r.rejected.map((x) => x.line),
    [500, 501, 1000, 1001],
  );
  t.is(r.rejected[1].error.slice(0, 14), 'not valid JSON');
  t.deepEqual(
    { read: r.read, inserted: r.inserted, replaced: r.replaced },
    { read: 1300, inserted: 1295, replaced: 1 },
  );
  const [{ text }] = await server.stores.ch.system<{ text: string }>(
    'SELECT text FROM answers WHERE brand_id = {b:UUID} AND collected_at = {at:DateTime64(3)} GROUP BY text HAVING sum(sign) > 0',
    { b: tenant.brandId, at: '2026-11-01 00:02:00.000' },
  );
  t.is(text, 'Acme repeated');
  t.is((await stored(tenant.brandId)).answers.n, 1295);
});

async function optimize() {
  for (const table of ['answers', 'answer_entities', 'answer_citations']) {
    await server.stores.ch.command({ query: `OPTIMIZE TABLE ${table} FINAL` });
  }
}

test('a file ingested twice, in batches of any size, writes nothing the second time', async (t) => {
  const tenant = await seedTenant(server);
  const file = write(
    `${answers(tenant, 25)
      .map((a) => JSON.stringify(a))
      .join('\n')}\n`,
  );
  t.deepEqual(await ingestFile(server.stores, file, 4), { read: 25, inserted: 25, replaced: 0, rejected: [] });
  // Merged down to the live rows, so any row written later shows in the raw counts.
  await optimize();
  const before = await stored(tenant.brandId);
  t.like(before, { answers: { n: 25, raw: 25 }, citations: { n: 50, raw: 50 } });
  for (const batchSize of [4, 7, 10_000]) {
    t.deepEqual(await ingestFile(server.stores, file, batchSize), {
      read: 25,
      inserted: 0,
      replaced: 25,
      rejected: [],
    });
    t.deepEqual(await stored(tenant.brandId), before, `batch size ${batchSize}`);
  }
});

test('an answer repeated later in the file: the last one wins, in one batch or across batches', async (t) => {
  const tenant = await seedTenant(server);
  const list = answers(tenant, 10);
  list.push({ ...list[3], text: 'Acme Acme Acme' }); // the same derived id as line 4
  const file = write(list.map((a) => JSON.stringify(a)).join('\n'));
  const figures = async () => {
    const s = await stored(tenant.brandId);
    return { answers: s.answers.n, entities: [s.entities.n, s.entities.m, s.entities.c], citations: s.citations.n };
  };
  t.deepEqual(await ingestFile(server.stores, file, 10_000), { read: 11, inserted: 10, replaced: 1, rejected: [] });
  const once = await figures();
  for (const batchSize of [2, 10_000]) {
    t.deepEqual(await ingestFile(server.stores, file, batchSize), {
      read: 11,
      inserted: 0,
      replaced: 11,
      rejected: [],
    });
    t.deepEqual(await figures(), once, `batch size ${batchSize}`);
  }
  const [{ text }] = await server.stores.ch.system<{ text: string }>(
    'SELECT text FROM answers WHERE brand_id = {b:UUID} AND collected_at = {at:DateTime64(3)} GROUP BY text HAVING sum(sign) > 0',
    { b: tenant.brandId, at: '2026-11-01 06:00:03.000' },
  );
  t.is(text, 'Acme Acme Acme');
});

test('an earlier attempt that wrote some tables and not others is healed', async (t) => {
  const tenant = await seedTenant(server);
  const file = write(
    answers(tenant, 6)
      .map((a) => JSON.stringify(a))
      .join('\n'),
  );
  await ingestFile(server.stores, file);
  const before = await stored(tenant.brandId);
  // As if a crash had come between tables: the answers rows are gone, the other tables' rows stay.
  const cols = columnsOf('answers').join(', ');
  await server.stores.ch.command({
    query: `INSERT INTO answers (${cols}, sign) SELECT ${cols}, -1 FROM answers WHERE brand_id = {b:UUID}`,
    query_params: { b: tenant.brandId },
  });
  t.is((await stored(tenant.brandId)).answers.n, 0);
  t.deepEqual(await ingestFile(server.stores, file), { read: 6, inserted: 6, replaced: 0, rejected: [] });
  const after = await stored(tenant.brandId);
  t.is(after.answers.n, before.answers.n);
  t.deepEqual(after.entities, before.entities, 'entity rows were live already: nothing written');
  t.deepEqual(after.citations, before.citations);
});

test('a source that fails ends the ingest with its error, and the next ingest runs', async (t) => {
  const tenant = await seedTenant(server);
  const lines = answers(tenant, 5).map((a, i) => ({ line: i + 1, text: JSON.stringify(a) }));
  const failing = (async function* () {
    yield* lines.slice(0, 4);
    throw new Error('disk gone');
  })();
  await t.throwsAsync(ingestLines(server.stores, failing, 2), { message: 'disk gone' });
  const r = await ingestLines(
    server.stores,
    (async function* () {
      yield* lines;
    })(),
    2,
  );
  t.is(r.read, 5);
  t.is(r.inserted + r.replaced, 5);
  t.is((await stored(tenant.brandId)).answers.n, 5);
});

test("a file's chunk moves to the worker instead of being copied, and is prepared whole", async (t) => {
  const tenant = await seedTenant(server);
  const lines = answers(tenant, 3).map((a) => JSON.stringify(a));
  // A memory of its own, as a file chunk has (ingest-file.ts concatenates one per batch).
  const bytes = new Uint8Array(Buffer.from(lines.map((l) => `${l}\n`).join('')));
  t.true(bytes.byteLength > 0);
  const threads = new PrepareThreads(server.stores, latestCollectedAt(new Date()));
  try {
    const prepared = threads.prepare({ bytes });
    // Moved: this thread's view of the memory is empty from the moment it is posted.
    t.is(bytes.byteLength, 0);
    const { read, batch, invalid } = await prepared;
    t.is(read, 3);
    t.deepEqual(invalid, []);
    t.is(batch.order.length, 3);
  } finally {
    await threads.close();
  }
});

test('chunks read side by side on two workers are numbered as one reader would, and only the first skips a byte-order mark', async (t) => {
  const tenant = await seedTenant(server);
  const [a, b, c] = answers(tenant, 3).map((x) => JSON.stringify(x));
  const bom = '\uFEFF';
  // Chunk 1: a mark, then 2 lines. Chunk 2: a mark (not at the file's start: a bad line), a lone \r
  // and a blank line. Chunk 3: a bad line after a good one.
  const chunks = [`${bom}${a}\n{bad\n`, `${bom}${b}\r${c}\r\n\r\n`, `${a}\nnot json\n`];
  const threads = new PrepareThreads(server.stores, latestCollectedAt(new Date()), 2);
  try {
    const prepared = await Promise.all(
      chunks.map((text) => threads.prepare({ bytes: new Uint8Array(Buffer.from(text)) })),
    );
    t.deepEqual(
      prepared.map((p) => p.lineNos),
      [[1], [4], [6]],
    );
    t.deepEqual(
      prepared.flatMap((p) => p.invalid.map((i) => i.line)),
      [2, 3, 7],
    );
    t.deepEqual(
      prepared.map((p) => p.lines),
      [2, 3, 2],
    );
  } finally {
    await threads.close();
  }
});
