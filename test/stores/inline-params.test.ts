// Embedded reads carry their values written into the query (src/stores/inline-params.ts), so that
// chDB runs them side by side. Written in, every value must mean to the engine exactly what it
// meant bound: read back through chDB, both ways give the same, for every type the service binds
// and for any text at all; and no value can end its literal early.
// test-process: shared
import { randomInt } from 'node:crypto';
import test from 'ava';
import { inlineParams, placeholders, stringLiteral } from '../../src/stores/inline-params.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

test('a placeholder becomes a typed literal, text quoted with its backslashes, quotes and NULs escaped', (t) => {
  t.is(stringLiteral(`it's a \\ and a \0`), `'it\\'s a \\\\ and a \\0'`);
  t.is(
    inlineParams('a = {a:String} AND b IN {b:Array(UInt64)} AND c = {c:UInt32} AND d = {d: Date }', {
      a: "O'Brien",
      b: [1n, 18446744073709551615n],
      c: 7,
      d: '2026-01-02',
    }),
    "a = _CAST('O\\'Brien', 'String') AND b IN _CAST([1, 18446744073709551615], 'Array(UInt64)') AND c = " +
      "_CAST(7, 'UInt32') AND d = _CAST('2026-01-02', 'Date')",
  );
  // A name without a value stays a placeholder (the engine then names it); a value is not read again.
  t.is(inlineParams('{a:String} {b:String}', { a: '{b:String}' }), "_CAST('{b:String}', 'String') {b:String}");
  t.is(inlineParams('x = {n:Nullable(UInt8)}', { n: null }), "x = _CAST(NULL, 'Nullable(UInt8)')");
});

test('placeholders are listed with their types; one the caller wrote another way takes its expression', (t) => {
  const sql = 'a IN {ids:Array(UUID)} AND b = {b: String } AND has({ids:Array(UUID)}, c)';
  t.deepEqual(placeholders(sql), [
    { name: 'ids', type: 'Array(UUID)' },
    { name: 'b', type: 'String' },
    { name: 'ids', type: 'Array(UUID)' },
  ]);
  t.is(
    inlineParams(sql, { ids: ['x'], b: 'y' }, new Map([['ids', '(SELECT 1)']])),
    "a IN (SELECT 1) AND b = _CAST('y', 'String') AND has((SELECT 1), c)",
  );
});

test('a value that cannot be written as a literal is refused, naming the parameter', (t) => {
  t.throws(() => inlineParams('{x:Float64}', { x: Number.NaN }), {
    message: 'query parameter x is not a finite number',
  });
  t.throws(() => inlineParams('{x:String}', { x: { toString: () => "'" } }), {
    message: 'query parameter x has a value of type object, which is not written inline',
  });
  t.throws(() => inlineParams('{x:Array(String)}', { x: ['a', undefined] }), { message: /query parameter x/ });
});

/** One row read with the values bound, then with them written in. */
async function bothWays(sql: string, params: Record<string, unknown>) {
  const bound = await server.stores.ch.system(sql, params);
  const inline = await server.stores.ch.system(inlineParams(sql, params));
  return { bound, inline };
}

test('every type the service binds reads back through chDB as it does bound', async (t) => {
  const { bound, inline } = await bothWays(
    `SELECT {s:String} AS s, {u:UUID} AS u, {d:Date} AS d, {at:DateTime64(3, 'UTC')} AS at, {n:UInt32} AS n,
       toString({big:UInt64}) AS big, {ss:Array(String)} AS ss, {us:Array(UUID)} AS us, {ds:Array(Date)} AS ds,
       arrayMap(x -> toString(x), {bs:Array(UInt64)}) AS bs, {none:Array(UUID)} AS none`,
    {
      s: `quote ' backslash \\ nul \0 newline \n tab \t brace {s:String} emoji 🚀 é`,
      u: '6f1c2a9e-8f43-4b1a-9c3d-2e5f6a7b8c9d',
      d: '2026-02-28',
      at: '2026-02-28 23:59:59.999',
      n: 4294967295,
      big: 18446744073709551615n,
      ss: ["a'b", 'c\\d', '', 'e\0f'],
      us: ['6f1c2a9e-8f43-4b1a-9c3d-2e5f6a7b8c9d', '00000000-0000-4000-8000-000000000001'],
      ds: ['2000-01-01', '2099-12-31'],
      bs: [0n, 9007199254740993n, 18446744073709551615n],
      none: [],
    },
  );
  t.deepEqual(inline, bound);
  t.is((bound[0] as { big: string }).big, '18446744073709551615');
  t.deepEqual((bound[0] as { ss: string[] }).ss, ["a'b", 'c\\d', '', 'e\0f']);
});

test('any text, control characters and all, reads back exactly', async (t) => {
  // Random code points from every plane that can stand alone (no lone surrogates: those are not
  // text, and UTF-8 cannot carry them either way), weighted to the characters that need escaping.
  const special = ["'", '\\', '\0', '\n', '\r', '"', '{', '}', '`', ';', '-', '/', '*'];
  const randomText = () =>
    Array.from({ length: randomInt(0, 40) }, () => {
      const r = randomInt(0, 4);
      if (r === 0) return special[randomInt(0, special.length)];
      if (r === 1) return String.fromCharCode(randomInt(0, 0x80));
      let cp = randomInt(0x80, 0x110000);
      if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
      return String.fromCodePoint(cp);
    }).join('');
  const texts = Array.from({ length: 300 }, randomText);
  const params = Object.fromEntries(texts.map((s, i) => [`t${i}`, s]));
  const sql = `SELECT [${texts.map((_, i) => `{t${i}:String}`).join(', ')}] AS texts`;
  const { bound, inline } = await bothWays(sql, params);
  t.deepEqual((inline[0] as { texts: string[] }).texts, texts);
  t.deepEqual(inline, bound);
});
