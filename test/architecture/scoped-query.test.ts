// No unscoped fact query can be written: ch.rows takes only a ScopedQuery, which only
// src/stores/scoped-query.ts makes, always binding the brand first, reading whitelisted tables only
// and binding every value. Reads outside the tenant scope go through ch.system, which only the
// files listed below may call.
import test from 'ava';
import { ROOT, sourceFiles } from './source-files.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openClickHouse, type ClickHouse } from '../../src/stores/clickhouse.ts';
import { observeStores } from '../../src/stores/observe.ts';
import type { Stores } from '../../src/stores/index.ts';
import {
  type BatchScope,
  type BrandId,
  type Filters,
  isScoped,
  select,
  storedAnswerPlaces,
  unionAll,
  type ScopedQuery,
} from '../../src/stores/scoped-query.ts';
import { testBrandId } from '../helpers/brand-id.ts';

const BRAND = testBrandId('0b5e2a3c-1d4f-4a6b-8c7d-9e0f1a2b3c4d');

// Never called: `tsc --noEmit` checks it, and fails if any of these lines stops being an error.
// biome-ignore lint/correctness/noUnusedVariables: never called on purpose; only the compiler reads it
function refusedByTheCompiler(ch: ClickHouse): void {
  // @ts-expect-error a string is not a ScopedQuery
  void ch.rows('SELECT count() FROM answers');
  // @ts-expect-error nor is an object shaped like one: the brand symbol is private to scoped-query.ts
  void ch.rows({ sql: 'SELECT count() FROM answers', params: {} });
  // @ts-expect-error the brand is required
  void select({ table: 'answers', scope: {} }, { select: 'count()' });
  // @ts-expect-error only fact and rollup tables
  void select({ table: 'users', scope: { brandId: BRAND } }, { select: 'count()' });
}

const answers = (scope: object, c: object = {}) =>
  select({ table: 'answers', scope: scope as { brandId: BrandId } }, { select: 'count()', ...c });

test('the brand comes first and is bound, never spliced', (t) => {
  const q = answers({ brandId: BRAND, models: ['gpt-4o'], region: 'GB' });
  t.true(isScoped(q));
  t.is(
    q.sql,
    'SELECT count() FROM answers WHERE brand_id = {brand:UUID} AND model IN {models:Array(String)} ' +
      'AND region = {region:String}',
  );
  t.deepEqual(q.params, { brand: BRAND, models: ['gpt-4o'], region: 'GB' });
  t.false(q.sql.includes(BRAND));
});

test('a read without a brand cannot be made', (t) => {
  t.throws(() => answers({}), { message: 'a fact query needs its brand' });
  t.throws(() => answers({ brandId: testBrandId('') }), { message: 'a fact query needs its brand' });
  t.throws(() => answers({ brandIds: 'x' }), { message: 'a fact query needs its brands' });
});

test('only whitelisted tables and dimensions, and filters the table can answer', (t) => {
  const read = (table: string, scope: object, eq?: object) =>
    select(
      {
        table: table as 'answers',
        scope: { brandId: BRAND, generation: 0, ...scope },
        eq: eq as Record<string, string>,
      },
      {
        select: '1',
      },
    );
  t.throws(() => read('users', {}), { message: 'users is not a fact table' });
  t.throws(() => read('system.tables', {}), { message: 'system.tables is not a fact table' });
  t.throws(() => read('answers', {}, { text: 'x' }), { message: 'text is not a dimension of answers' });
  t.throws(() => read('ai_visits', { models: ['gpt-4o'] }), { message: 'ai_visits keeps no model or region' });
  t.throws(() => read('entity_daily', { promptIds: [BRAND] }), { message: 'entity_daily keeps no prompt' });
  t.throws(() => read('entity_daily', { from: new Date('2026-01-01T12:00:00.000Z') }), {
    message: 'this table answers whole days only',
  });
  t.throws(() => read('citation_urls_monthly', { from: new Date('2026-01-02T00:00:00.000Z') }), {
    message: 'a monthly rollup starts on a whole month',
  });
  t.throws(() => read('citation_urls_quarterly', { from: new Date('2026-02-01T00:00:00.000Z') }), {
    message: 'a quarterly rollup starts on a whole quarter',
  });
  t.throws(() => read('citation_urls_quarterly', { to: new Date('2026-05-31T23:59:59.999Z') }), {
    message: 'a quarterly rollup ends on a whole quarter',
  });
  const quarters = read('citation_urls_quarterly', {
    from: new Date('2026-01-01T00:00:00.000Z'),
    to: new Date('2026-06-30T23:59:59.999Z'),
  });
  t.regex(quarters.sql, /quarter >= \{quarterFrom:Date\} AND quarter <= \{quarterTo:Date\}/);
  t.like(quarters.params, { quarterFrom: '2026-01-01', quarterTo: '2026-04-01' });
  const q = read('shopping_cards', {}, { platform: 'chatgpt', matched_brand_role: undefined });
  t.is(q.sql, 'SELECT 1 FROM shopping_cards WHERE brand_id = {brand:UUID} AND platform = {eq_platform:String}');
  t.deepEqual(q.params, { brand: BRAND, eq_platform: 'chatgpt' });
});

test('day bounds always, the instant only inside a day; whole months on a monthly rollup', (t) => {
  const days = answers({ brandId: BRAND, from: new Date('2026-01-01'), to: new Date('2026-01-31T12:00:00.000Z') });
  t.is(
    days.sql,
    'SELECT count() FROM answers WHERE brand_id = {brand:UUID} AND day >= {dayFrom:Date} ' +
      "AND day <= {dayTo:Date} AND collected_at <= {to:DateTime64(3, 'UTC')}",
  );
  t.deepEqual(days.params, { brand: BRAND, dayFrom: '2026-01-01', dayTo: '2026-01-31', to: '2026-01-31 12:00:00.000' });
  const months = select(
    {
      table: 'citation_domains_monthly',
      scope: {
        brandId: BRAND,
        generation: 0,
        from: new Date('2026-02-01T00:00:00.000Z'),
        to: new Date('2026-03-31T23:59:59.999Z'),
      },
    },
    { select: '1' },
  );
  t.regex(
    months.sql,
    /WHERE brand_id = \{brand:UUID\} AND generation = \{generation:UInt32\} AND month >= \{monthFrom:Date\} AND month <= \{monthTo:Date\}$/,
  );
  t.deepEqual(months.params, { brand: BRAND, generation: 0, monthFrom: '2026-02-01', monthTo: '2026-03-01' });
});

test("the caller's conditions cannot widen the scope or rebind its values", (t) => {
  const q = answers({ brandId: BRAND }, { where: "mode = 'shopping' OR 1", groupBy: 'mode' });
  t.is(q.sql, "SELECT count() FROM answers WHERE brand_id = {brand:UUID} AND (mode = 'shopping' OR 1) GROUP BY mode");
  t.throws(() => answers({ brandId: BRAND }, { params: { brand: '00000000-0000-4000-8000-000000000000' } }), {
    message: 'query parameter brand is bound twice',
  });
  // The same value twice is one binding (parts of a union share the filters).
  t.notThrows(() => unionAll([answers({ brandId: BRAND }), answers({ brandId: BRAND }, { params: { brand: BRAND } })]));
  t.throws(
    () =>
      unionAll([
        answers({ brandId: BRAND }),
        answers({ brandId: testBrandId('00000000-0000-4000-8000-000000000000') }),
      ]),
    { message: 'query parameter brand is bound twice' },
  );
});

test('subqueries and unions are built only from scoped queries', (t) => {
  const inner = answers({ brandId: BRAND }, { groupBy: 'prompt_id' });
  const outer = select(inner, { select: 'count()', where: 'x > 0' });
  t.is(outer.sql, `SELECT count() FROM (${inner.sql}) WHERE x > 0`);
  t.deepEqual(outer.params, inner.params);
  const forged = { sql: 'SELECT 1 FROM answers', params: {} } as unknown as ScopedQuery;
  t.false(isScoped(forged));
  t.throws(() => unionAll([inner, forged]), { message: 'a union takes scoped queries' });
  // A forged subquery is taken for a table read, and names no table.
  t.throws(() => select(forged, { select: '1' }), { message: 'a fact query reads at least one table' });
  t.true(Object.isFrozen(inner) && Object.isFrozen(inner.params));
});

test('a batch of brands (ingestion) reads several tables through merge()', (t) => {
  const q = select({ table: ['answers', 'shopping_cards'], scope: { brandIds: [BRAND] } }, { select: '1', limit: '1' });
  t.is(
    q.sql,
    "SELECT 1 FROM merge(currentDatabase(), '^(answers|shopping_cards)$') " +
      'WHERE brand_id IN {brands:Array(UUID)} LIMIT 1',
  );
  t.deepEqual(q.params, { brands: [BRAND] });
  t.throws(
    () => select({ table: ['answers', 'shopping_cards'], scope: { brandId: BRAND } as never }, { select: '1' }),
    {
      message: 'filters apply to one table',
    },
  );
  t.true(isScoped(storedAnswerPlaces([BRAND])));
});

test('ch.rows refuses anything but a ScopedQuery at run time too; ch.system reads', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'answerscope-scoped-'));
  const ch = await openClickHouse({ database: 'default', dataDir });
  t.teardown(async () => {
    await ch.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const rows = ch.rows as unknown as (q: unknown) => Promise<unknown[]>;
  await t.throwsAsync(rows('SELECT 1'), { instanceOf: TypeError });
  await t.throwsAsync(rows({ sql: 'SELECT 1', params: {} }), { instanceOf: TypeError });
  t.deepEqual(await ch.system<{ one: number }>('SELECT {n:UInt8} AS one', { n: 1 }), [{ one: 1 }]);
});

test('observed stores count ch.system as a read and name its failures', async (t) => {
  const seen: string[] = [];
  const fake = {
    pg: { query: async () => ({}), tx: async () => ({}) },
    ch: { rows: async () => [], insert: async () => {}, system: () => Promise.reject(new Error('down')) },
  } as unknown as Stores;
  const stores = observeStores(fake, (store, call, _s, failed) => seen.push(`${store}.${call}:${failed}`));
  const err = await t.throwsAsync(stores.ch.system('SELECT 1'));
  t.is((err as { store?: string }).store, 'clickhouse');
  await stores.ch.rows(storedAnswerPlaces([]));
  t.deepEqual(seen, ['clickhouse.rows:true', 'clickhouse.rows:false']);
});

// Reads outside the tenant scope, by file: keep this list short and each use obvious.
const SYSTEM_READERS = ['src/stores/migrate.ts', 'src/http/health.ts'];
// Statements (DDL, bookkeeping) by file: migrations, the removal of old generations, the warehouse grant.
const COMMANDERS = ['src/stores/migrate.ts', 'src/stores/generations.ts', 'src/cli/warehouse.ts'];

test('in src/ and jobs/, only the listed files read outside the tenant scope', (t) => {
  const readers = [...sourceFiles('src', /\.ts$/), ...sourceFiles('jobs', /\.ts$/)].filter((file) => {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    const code = lines.filter((l) => !/^\s*(\/\/|\/\*|\*)/.test(l)).join('\n');
    return /\.system\s*(<[^>]*>)?\(|\bch\.client\.query\(/.test(code);
  });
  t.deepEqual(readers.sort(), [...SYSTEM_READERS].sort());
});

test('a scope takes only brand ids read from their rows: a plain string is a type error', (t) => {
  const raw: string = '0b5e2a3c-1d4f-4a6b-8c7d-9e0f1a2b3c4d';
  // tsc checks this file: were a plain string accepted again, these directives would be unused, an error.
  // @ts-expect-error an id from input that tenancy never resolved
  const one: Filters = { brandId: raw, generation: 0 };
  // @ts-expect-error a batch of ids that were never resolved
  const batch: BatchScope = { brandIds: [raw] };
  // @ts-expect-error nor straight into a read
  t.throws(() => select({ table: 'answers', scope: { brandId: raw } }, { select: '1', where: 'x IN (SELECT 1)' }));
  t.is(one.brandId, batch.brandIds[0]);
});

// Where text becomes a BrandId: tenancy's brand readers (the id of a brands row), and nothing else.
const BRAND_ID_MAKERS = ['src/tenancy/brands.ts'];

test("in src/ and jobs/, only tenancy's brand readers make a BrandId", (t) => {
  const makes = (code: string) => /\bas\s+(unknown\s+as\s+)?BrandId\b|<\s*BrandId\s*>|query<[^>]*BrandId/.test(code);
  t.true(makes('const b = id as BrandId;') && makes("pg.query<{ id: BrandId }>('SELECT id FROM brands')"));
  t.false(makes('function f(id: BrandId) {}'));
  const makers = [...sourceFiles('src', /\.ts$/), ...sourceFiles('jobs', /\.ts$/)].filter((file) => {
    const code = readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .filter((l) => !/^\s*(\/\/|\/\*|\*)/.test(l))
      .join('\n');
    return makes(code) || (/\bBrandRecord\b/.test(code) && /query<BrandRecord>|as BrandRecord\b/.test(code));
  });
  t.deepEqual(makers, BRAND_ID_MAKERS, 'resolve the brand through tenancy (ctx.brand, brandById, allBrands)');
});

test('in src/ and jobs/, no file reaches a raw client, and only the listed ones run statements', (t) => {
  const code = (file: string) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .filter((l) => !/^\s*(\/\/|\/\*|\*)/.test(l))
      .join('\n');
  const files = [...sourceFiles('src', /\.ts$/), ...sourceFiles('jobs', /\.ts$/)];
  // The engines' own files hold the clients; nothing else names them or the tests' way in.
  const engineFiles = [
    'src/stores/clickhouse.ts',
    'src/stores/clickhouse-embedded.ts',
    'src/stores/clickhouse-server.ts',
  ];
  t.deepEqual(
    files.filter(
      (f) => !engineFiles.includes(f) && /engineClientsForTests|\.readClients\b|\bch\.client\b/.test(code(f)),
    ),
    [],
  );
  t.deepEqual(
    files.filter((f) => /\.command\s*\(/.test(code(f)) && !f.startsWith('src/stores/clickhouse')).sort(),
    [...COMMANDERS].sort(),
  );
});

test('an IN over another read takes only a scoped query, whose brand it keeps', (t) => {
  const inner = select({ table: 'answer_entities', scope: { brandId: BRAND, generation: 0 } }, { select: 'answer_id' });
  const q = select(
    { table: 'answers', scope: { brandId: BRAND } },
    { select: 'count()', in: { column: 'answer_id', query: inner, not: true } },
  );
  t.is(q.sql, `SELECT count() FROM answers WHERE brand_id = {brand:UUID} AND answer_id NOT IN (${inner.sql})`);
  t.deepEqual(q.params, { brand: BRAND, generation: 0 });
  const forged = { sql: 'SELECT answer_id FROM answers', params: {} } as unknown as ScopedQuery;
  t.throws(
    () =>
      select(
        { table: 'answers', scope: { brandId: BRAND } },
        { select: '1', in: { column: 'answer_id', query: forged } },
      ),
    {
      message: 'IN takes a column and a scoped query',
    },
  );
  t.throws(
    () =>
      select(
        { table: 'answers', scope: { brandId: BRAND } },
        { select: '1', in: { column: 'answer_id) OR (1', query: inner } },
      ),
    {
      message: 'IN takes a column and a scoped query',
    },
  );
  const other = select(
    {
      table: 'answer_entities',
      scope: { brandId: testBrandId('00000000-0000-4000-8000-000000000000'), generation: 0 },
    },
    { select: 'answer_id' },
  );
  t.throws(
    () =>
      select(
        { table: 'answers', scope: { brandId: BRAND } },
        { select: '1', in: { column: 'answer_id', query: other } },
      ),
    {
      message: 'query parameter brand is bound twice',
    },
  );
});

test('a JOIN matches a scoped subquery to another scoped read only, on plain columns, keeping both scopes', (t) => {
  const scope = { brandId: BRAND, generation: 0 };
  const cited = select(
    { table: 'answer_citations', scope },
    { select: 'answer_id, domain', groupBy: 'answer_id, domain' },
  );
  const named = select({ table: 'answer_entities', scope }, { select: 'answer_id, entity_id' });
  const q = select(cited, { select: 'domain, entity_id', join: { query: named, using: ['answer_id'] } });
  t.is(
    q.sql,
    `SELECT domain, entity_id FROM (${cited.sql}) AS scoped INNER JOIN (${named.sql}) AS joined USING (answer_id)`,
  );
  t.deepEqual(q.params, { brand: BRAND, generation: 0 });
  const forged = { sql: 'SELECT answer_id FROM answers', params: {} } as unknown as ScopedQuery;
  const message = 'JOIN takes a scoped query and its columns';
  t.throws(() => select(cited, { select: '1', join: { query: forged, using: ['answer_id'] } }), { message });
  t.throws(() => select(cited, { select: '1', join: { query: named, using: ['answer_id) OR (1'] } }), { message });
  t.throws(
    () => select({ table: 'answer_citations', scope }, { select: '1', join: { query: named, using: ['answer_id'] } }),
    {
      message: 'a JOIN reads from a scoped subquery',
    },
  );
  const other = select(
    {
      table: 'answer_entities',
      scope: { brandId: testBrandId('00000000-0000-4000-8000-000000000000'), generation: 0 },
    },
    { select: 'answer_id' },
  );
  t.throws(() => select(cited, { select: '1', join: { query: other, using: ['answer_id'] } }), {
    message: 'query parameter brand is bound twice',
  });
});

test("a caller's text cannot name a table: no subquery, join, bare IN, table function or Identifier", (t) => {
  const scope = { brandId: BRAND };
  const naming = [
    { select: '(SELECT count() FROM users)' },
    { select: 'count()', where: 'answer_id IN (SELECT answer_id FROM shopping_cards)' },
    { select: 'count()', where: 'answer_id IN answers' },
    { select: 'count()', where: 'answer_id in   answer_entities' },
    { select: 'count()', where: 'brand_id IN {t:Identifier}' },
    { select: "joinGet('other', 'v', answer_id)" },
    { select: "dictGetString('d', 'v', answer_id)" },
    { select: 'count()', where: "1 IN (SELECT 1 FROM file('x', 'RowBinary', 'v UInt8'))" },
    { select: 'count()', orderBy: "(SELECT max(day) FROM merge(currentDatabase(), '.*'))" },
    { select: 'count()', groupBy: 'day UNION ALL SELECT count() FROM users' },
    { select: 'count()', having: 'count() > 0 INTO OUTFILE' },
    { select: 'count()', limit: '1 SETTINGS readonly = 0' },
    { select: 'a.x', where: '1 = 1) JOIN users AS a ON (1 = 1' },
    { select: 'count()', where: "platform = url('http://x', CSV, 'p String')" },
  ];
  for (const c of naming) {
    t.throws(() => select({ table: 'answers', scope }, c), { message: /may not name a table/ }, JSON.stringify(c));
  }
  // What callers write stays allowed: a placeholder or a tuple after IN, WITH TIES, functions of columns.
  for (const c of [
    { select: 'count()', where: "day IN {days:Array(Date)} AND platform IN ('a', 'b')" },
    { select: 'domain, uniqExact(url) AS n', groupBy: 'domain', orderBy: 'n DESC', limit: '{limit:UInt32} WITH TIES' },
    { select: "arrayJoin(search_queries) AS q, countIf(mode = 'standard')", groupBy: 'q' },
  ]) {
    t.notThrows(() => select({ table: 'answers', scope }, c), JSON.stringify(c));
  }
});
