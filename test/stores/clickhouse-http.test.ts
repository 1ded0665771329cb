// The tests' ClickHouse server (test/helpers/clickhouse-http.ts) answers @clickhouse/client as
// ClickHouse does: bound values taken as their text, settings for one query only, inserts of text
// and binary bodies, compressed answers, and errors with their code, name and HTTP status.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { Readable } from 'node:stream';
import { ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseSettings } from '@clickhouse/client';
import { startClickHouseHttp, type ClickHouseHttp } from '../helpers/clickhouse-http.ts';

let server: ClickHouseHttp;
let client: ClickHouseClient;
let dir: string;
test.before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-ch-http-test-'));
  server = await startClickHouseHttp(dir);
  const bootstrap = createClient({ url: server.url });
  await bootstrap.command({ query: 'CREATE DATABASE IF NOT EXISTS t' });
  await bootstrap.close();
  // Its error log off: a test here fails queries on purpose.
  client = createClient({
    url: server.url,
    database: 't',
    compression: { response: true },
    log: { level: ClickHouseLogLevel.OFF },
  });
  await client.command({ query: 'CREATE TABLE kv (k String, v UInt32) ENGINE = MergeTree ORDER BY k' });
});
test.after.always(async () => {
  await client?.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test.serial('bound values arrive as their text, quotes and backslashes included', async (t) => {
  const result = await client.query({
    query: 'SELECT {s:String} AS s, {a:Array(String)} AS a, {n:UInt64} AS n, {d:DateTime64(3)} AS d',
    query_params: { s: "it's a \\ and a\ttab", a: ["o'k", 'b'], n: 42, d: '2026-01-02 03:04:05.678' },
    format: 'JSONEachRow',
    clickhouse_settings: { date_time_output_format: 'iso', output_format_json_quote_64bit_integers: 0 },
  });
  t.deepEqual(await result.json(), [
    { s: "it's a \\ and a\ttab", a: ["o'k", 'b'], n: 42, d: '2026-01-02T03:04:05.678Z' },
  ]);
});

test.serial('a setting holds for its query only, as without a session', async (t) => {
  const read = async (settings?: ClickHouseSettings) =>
    (
      await (
        await client.query({
          query: "SELECT value FROM system.settings WHERE name = 'max_threads'",
          format: 'JSONEachRow',
          clickhouse_settings: settings,
        })
      ).json<{ value: string }>()
    )[0].value;
  const before = await read();
  t.is(await read({ max_threads: 1 }), '1');
  t.is(await read(), before);
});

test.serial('inserts: JSON lines through insert(), RowBinary through exec with the body', async (t) => {
  await client.insert({ table: 'kv', values: [{ k: 'a', v: 1 }], format: 'JSONEachRow' });
  // RowBinary: String = length + bytes, UInt32 = 4 bytes little-endian.
  const row = Buffer.concat([Buffer.from([2]), Buffer.from('bc'), Buffer.from([7, 0, 0, 0])]);
  const { stream } = await client.exec({
    query: 'INSERT INTO kv (k, v) FORMAT RowBinary',
    values: Readable.from([row]),
  });
  for await (const _ of stream);
  const rows = await (await client.query({ query: 'SELECT k, v FROM kv ORDER BY k', format: 'JSONEachRow' })).json();
  t.deepEqual(rows, [
    { k: 'a', v: 1 },
    { k: 'bc', v: 7 },
  ]);
});

test.serial(
  'errors carry the code and name, in the header and the body, with the status ClickHouse gives',
  async (t) => {
    const raw = await fetch(`${server.url}/?database=t`, { method: 'POST', body: 'SELECT * FROM no_such_table' });
    t.is(raw.status, 404);
    t.is(raw.headers.get('x-clickhouse-exception-code'), '60');
    t.regex(await raw.text(), /^Code: 60\. DB::Exception: .*\(UNKNOWN_TABLE\)/);
    const syntax = await fetch(`${server.url}/`, { method: 'POST', body: 'SELEC 1' });
    t.is(syntax.status, 400);
    t.is(syntax.headers.get('x-clickhouse-exception-code'), '62');
    const err = await t.throwsAsync(client.query({ query: 'SELECT * FROM no_such_table' }));
    t.is((err as { code?: string }).code, '60');
    t.is((err as { type?: string }).type, 'UNKNOWN_TABLE');
  },
);

test.serial('the query in the URL, the answer gzipped when asked for', async (t) => {
  const res = await fetch(
    `${server.url}/?query=${encodeURIComponent('SELECT 1 AS x FORMAT JSONEachRow')}&enable_http_compression=1`,
    {
      headers: { 'accept-encoding': 'gzip' },
    },
  );
  t.is(res.headers.get('content-encoding'), 'gzip');
  t.deepEqual(JSON.parse(await res.text()), { x: 1 }); // fetch decompresses it
});
