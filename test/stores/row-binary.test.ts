// RowBinary (src/stores/row-binary.ts) as the engine reads it: values written by the writer come
// back from chDB as they were meant, the reader reads the same bytes the same way, and the
// columns ingestion declares for answer_rows_in are the table's own, in types as in names.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import test from 'ava';
import { openClickHouse } from '../../src/stores/clickhouse.ts';
import { RowBinaryReader, RowBinaryWriter, type BinaryColumn } from '../../src/stores/row-binary.ts';
import { REANALYSIS_COLUMNS, WIDE_COLUMNS } from '../../src/tracking/ingest/fact-rows.ts';
import { migrationsBefore, scratchClickHouse } from '../helpers/scratch-clickhouse.ts';

const COLUMNS: BinaryColumn[] = [
  ['id', 'UUID'],
  ['flag', 'UInt8'],
  ['small', 'Int8'],
  ['port', 'UInt16'],
  ['count', 'UInt32'],
  ['score', 'Float64'],
  ['at', "DateTime64(3, 'UTC')"],
  ['day', 'Date'],
  ['text', 'String'],
  ['list', 'Array(String)'],
  ['pairs', 'Array(Tuple(UUID, Float64))'],
];

const EDGES = [
  'a'.repeat(127),
  'b'.repeat(128),
  'abc€',
  `${'c'.repeat(120)}é`,
  `${'d'.repeat(41)}é`,
  `${'e'.repeat(42)}é`,
  '\u0000\u001f\u007f',
  'lone \ud800',
];
const LONG = `café ’quotes’ 日本語 😀 ${'x'.repeat(300)}`;
const ROWS = [
  {
    id: '00112233-4455-6677-8899-AABBCCDDEEFF',
    flag: 255,
    small: -1,
    port: 65535,
    count: 4_000_000_000,
    score: -0.459,
    at: Date.parse('2026-11-01T06:00:00.250Z'),
    text: LONG,
    // Around the writer's short ASCII path: 127 and 128 units, non-ASCII after an ASCII start,
    // control characters, a lone surrogate (stored as U+FFFD, as UTF-8 has none).
    list: ['', 'a "quoted" word', LONG, ...EDGES],
    pairs: [['5d0c1f3e-0000-4000-8000-000000000001', 61.66666666666667]] as [string, number][],
  },
  {
    id: '5d0c1f3e-0000-4000-8000-000000000002',
    flag: 0,
    small: 1,
    port: 0,
    count: 0,
    score: 0,
    at: Date.parse('2000-01-01T00:00:00Z'),
    text: '',
    list: [],
    pairs: [],
  },
];

/** A string as UTF-8 holds it: a lone surrogate becomes U+FFFD. */
const stored = (s: string) => Buffer.from(s).toString();

function write(w: RowBinaryWriter, r: (typeof ROWS)[number]): void {
  w.uuid(r.id);
  w.uint8(r.flag);
  w.int8(r.small);
  w.uint16(r.port);
  w.uint32(r.count);
  w.float64(r.score);
  w.dateTime64ms(r.at);
  w.date(r.at);
  w.string(r.text);
  w.varUInt(r.list.length);
  for (const s of r.list) w.string(s);
  w.varUInt(r.pairs.length);
  for (const [id, v] of r.pairs) {
    w.uuid(id);
    w.float64(v);
  }
}

test.serial('the engine reads the writer’s values as they were meant, and so does the reader', async (t) => {
  const ch = await scratchClickHouse(t, []);
  await ch.command({
    query: `CREATE TABLE rb (${COLUMNS.map(([n, type]) => `${n} ${type}`).join(', ')}) ENGINE = MergeTree ORDER BY id`,
  });
  const w = new RowBinaryWriter(8); // grows as it goes
  for (const r of ROWS) write(w, r);
  await ch.insertRowBinary('rb', COLUMNS, w.bytes());
  const got = await ch.system<Record<string, unknown>>(
    'SELECT toString(id) AS id, flag, small, port, count, score, toUnixTimestamp64Milli(at) AS at, toString(day) AS day, text, list, pairs FROM rb ORDER BY flag DESC',
  );
  t.deepEqual(
    got.map((g) => ({ ...g, at: Number(g.at), pairs: (g.pairs as unknown[][]).map(([id, v]) => [id, v]) })),
    ROWS.map((r) => ({
      ...r,
      list: r.list.map(stored),
      id: r.id.toLowerCase(),
      day: new Date(r.at).toISOString().slice(0, 10),
    })),
  );

  const read = new RowBinaryReader(w.bytes());
  for (const r of ROWS) {
    t.is(read.uuid(), r.id.toLowerCase());
    t.deepEqual([read.uint8(), read.int8(), read.uint16(), read.uint32()], [r.flag, r.small, r.port, r.count]);
    t.is(read.float64(), r.score);
    t.is(read.dateTime64ms(), r.at);
    t.is(read.date(), Date.parse(new Date(r.at).toISOString().slice(0, 10)));
    t.is(read.string(), r.text);
    const list = [];
    for (let n = read.varUInt(); n > 0; n--) list.push(read.string());
    t.deepEqual(list, r.list.map(stored));
    const pairs = [];
    for (let n = read.varUInt(); n > 0; n--) pairs.push([read.uuid(), read.float64()]);
    t.deepEqual(pairs, r.pairs);
  }
  t.true(read.done);
  t.throws(() => new RowBinaryReader(w.bytes().subarray(0, 5)).uuid(), { message: /end inside a value/ });
  t.throws(() => new RowBinaryWriter().uuid('not-a-uuid'), { message: /not a UUID/ });
});

test.serial('an insert leaves no file behind, and a failed one reports the engine’s error', async (t) => {
  const ch = await scratchClickHouse(t, []);
  const spooled = () =>
    fs
      .readdirSync(os.tmpdir())
      .filter((d) => d.startsWith(`answerscope-spool-${process.pid}-`)) // this process's stores only
      .flatMap((d) => fs.readdirSync(`${os.tmpdir()}/${d}`));
  await ch.command({ query: 'CREATE TABLE rb (n UInt8) ENGINE = Memory' });
  const w = new RowBinaryWriter();
  w.uint8(7);
  await ch.insertRowBinary('rb', [['n', 'UInt8']], w.bytes());
  t.deepEqual(await ch.system('SELECT n FROM rb'), [{ n: 7 }]);
  await t.throwsAsync(ch.insertRowBinary('missing', [['n', 'UInt8']], w.bytes()), { message: /missing/ });
  t.deepEqual(spooled(), []);
});

test.serial('the columns ingestion writes are answer_rows_in’s own, name for name and type for type', async (t) => {
  const ch = await scratchClickHouse(t, migrationsBefore('999'));
  const table = await ch.system<{ name: string; type: string }>(
    "SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = 'answer_rows_in' ORDER BY position",
  );
  const types = new Map(table.map((c) => [c.name, c.type]));
  t.deepEqual(
    REANALYSIS_COLUMNS.map(([name, type]) => [name, types.get(name) === type]),
    REANALYSIS_COLUMNS.map(([name]) => [name, true]),
  );
  t.deepEqual(REANALYSIS_COLUMNS.slice(0, -1), WIDE_COLUMNS);
  t.is(types.size, REANALYSIS_COLUMNS.length, 'every column of the table is written');
});

test('a ClickHouse server receives the bytes as they are, with the columns and the format named', async (t) => {
  const requests: { query: string; body: Buffer }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      requests.push({ query: url.searchParams.get('query') ?? '', body: Buffer.concat(chunks) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as AddressInfo;
  const ch = await openClickHouse({ url: `http://127.0.0.1:${port}`, database: 'answerscope', dataDir: os.tmpdir() });
  t.teardown(() => ch.close());
  const w = new RowBinaryWriter();
  for (const r of ROWS) write(w, r);
  await ch.insertRowBinary('rb', COLUMNS, w.bytes());
  const insert = requests.find((r) => r.query.startsWith('INSERT'));
  t.is(insert?.query, `INSERT INTO rb (${COLUMNS.map(([n]) => n).join(', ')}) FORMAT RowBinary`);
  t.deepEqual(insert?.body, Buffer.from(w.bytes()));
});
