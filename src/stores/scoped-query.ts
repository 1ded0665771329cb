// The one way to read tenant facts from ClickHouse. `ch.rows` takes only a ScopedQuery, and only
// this file can make one: every SELECT it builds reads a whitelisted fact or rollup table inside
// the brand's scope (`brand_id = {brand:UUID}` first, then the filters), or a subquery that is a
// ScopedQuery itself. Callers write the SELECT list, GROUP BY, HAVING, ORDER BY and LIMIT text
// around the scoped FROM/WHERE; every value is a bound parameter, never spliced into the SQL.
// It lives with the store, below the modules: tracking (ingestion) reads facts by brand too and
// analytics imports tracking, so neither module can hold it for the other; and the store's rows()
// names ScopedQuery, whose private brand only the code in this file can set.

import { isoDay } from '../instant.ts';
import { READ_SHAPES, type ReadShape } from './fact-tables.ts';

/** The text form of a DateTime64(3, 'UTC') parameter: `2026-01-02 03:04:05.678`. */
export const chTime = (iso: string) => iso.replace('T', ' ').replace('Z', '');

// The tables a read may name, and how each may be filtered, are declared in fact-tables.ts.
const TABLES = READ_SHAPES;

/** The fact tables (clickhouse/001_facts.sql), their rollups (002-004) and the rest a query may read. */
export type FactTable = keyof typeof TABLES;

declare const resolvedBrand: unique symbol;
/**
 * A brand's id as read from its brands row by tenancy's brand resolution (src/tenancy/brands.ts:
 * `ctx.brand` for a request, which checks the caller's organization; `brandById` and `allBrands`
 * for the system's own work). A scope takes only these, so an id from input that was never
 * resolved (another tenant's brand, a typo) cannot reach a read: a plain string is a type error.
 * Only src/tenancy/brands.ts names this type in a cast (test/architecture/scoped-query.test.ts).
 */
export type BrandId = string & { readonly [resolvedBrand]: 'a brands row' };

/** What a request asks of one brand's facts. */
export interface Filters {
  brandId: BrandId;
  /**
   * The brand's live analysis generation (brands.analysis_generation). Required, like the brand:
   * a re-analysis writes the next one beside it, and a read of both would count answers twice.
   */
  generation: number;
  /** Inclusive bounds on the instant (a bare date_to already reaches 23:59:59.999). */
  from?: Date;
  to?: Date;
  /** model_used values. */
  models?: string[];
  region?: string;
  /** A topic filter, resolved in Postgres to its prompts (possibly none). */
  promptIds?: string[];
  /**
   * Only the answers of this source (`capture`, `import`, or the tracker they were imported from),
   * in the answers table by its column and in the analysis tables through their answer_id. The
   * rollups keep no source: a read by source takes the fact tables (the source choosers in
   * analytics do). Without it the generation alone keeps other trackers' answers out (theirs is
   * IMPORTED_GENERATION, stores/generations.ts); a read of the answers table says its sources.
   */
  source?: string;
}

/** The brands of a read: one brand with a request's filters, or (ingestion) the brands of a batch. */
export type Scope = Filters | BatchScope;

/** Ingestion's scope: every row of the batch's brands, in every generation (it compares rows). */
export interface BatchScope {
  brandIds: readonly BrandId[];
}

/** The tables holding analysis rows, kept per generation. */
export type AnalysisTable = {
  [T in FactTable]: (typeof TABLES)[T]['generations'] extends true ? T : never;
}[FactTable];

/** Every table that keeps analysis rows per generation (what a finished re-analysis cleans up). */
export const ANALYSIS_TABLES = (Object.keys(TABLES) as FactTable[]).filter(
  (t): t is AnalysisTable => TABLES[t].generations,
);

/** A scope for the tables that have no generation (answers, shopping cards, AI visits). */
export type PlainFilters = Omit<Filters, 'generation'> & { generation?: number };

interface SourceOptions {
  /** Collapse +1/-1 rows at read time (listed rows, not sums). */
  final?: boolean;
  /** Equality on whitelisted dimensions; an undefined value adds no condition. */
  eq?: Readonly<Record<string, string | undefined>>;
}

/**
 * A table read inside a scope: what follows FROM. Analysis tables take the brand's generation as
 * well as the brand (a type error without it); several tables are read together through merge()
 * (they must share the filtered columns) for ingestion's batch scope only.
 */
export type Source =
  | (SourceOptions & { table: AnalysisTable; scope: Filters | BatchScope })
  | (SourceOptions & { table: Exclude<FactTable, AnalysisTable>; scope: PlainFilters | BatchScope })
  | (SourceOptions & { table: readonly FactTable[]; scope: BatchScope });

/** The caller's text around the scoped FROM/WHERE. Values appear only as {name:Type} placeholders. */
export interface Clauses {
  select: string;
  /** More conditions, ANDed after the scope's (in parentheses, so an OR cannot widen it). */
  where?: string;
  groupBy?: string;
  having?: string;
  orderBy?: string;
  limit?: string;
  /**
   * `column [NOT] IN (query)`, ANDed after `where`: a condition on another scoped read (the answers
   * that name an entity), which brings its own brand and filters, so it cannot widen the scope.
   */
  in?: { column: string; query: ScopedQuery; not?: boolean };
  /**
   * `INNER JOIN (query) USING (columns)`, from a scoped subquery only: the rows of another scoped
   * read matched on these columns (the answers' named entities beside their cited domains). It
   * brings its own brand and filters, so it cannot widen the scope either.
   */
  join?: { query: ScopedQuery; using: readonly string[] };
  /** Values of the placeholders in this text; a name the scope binds must keep its value. */
  params?: Readonly<Record<string, unknown>>;
}

// Known to this file only: nothing else can make a value that carries it.
const SCOPED = Symbol('ScopedQuery');

/** A SELECT over tenant facts, every table in it scoped to a brand. Made by select() and unionAll(). */
export interface ScopedQuery {
  readonly sql: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly [SCOPED]: true;
}

export const isScoped = (q: unknown): q is ScopedQuery =>
  typeof q === 'object' && q !== null && (q as Partial<ScopedQuery>)[SCOPED] === true;

const scoped = (sql: string, params: Record<string, unknown>): ScopedQuery =>
  Object.freeze({ sql, params: Object.freeze(params), [SCOPED]: true as const });

const sameValue = (a: unknown, b: unknown) =>
  a === b || (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]));

/** Adds `more` to `into`; a name bound twice must have one value, so no caller can rebind the brand. */
function bind(into: Record<string, unknown>, more: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  for (const [name, value] of Object.entries(more)) {
    if (Object.hasOwn(into, name) && !sameValue(into[name], value)) {
      throw new Error(`query parameter ${name} is bound twice`);
    }
    into[name] = value;
  }
  return into;
}

const startsDay = (d: Date) => d.toISOString().endsWith('T00:00:00.000Z');
const endsDay = (d: Date) => d.toISOString().endsWith('T23:59:59.999Z');

/** Whether a range's bounds are whole UTC days (or absent): a daily rollup, keeping no instant, can answer it. */
export const wholeDays = (f: { from?: Date; to?: Date }) => (!f.from || startsDay(f.from)) && (!f.to || endsDay(f.to));

function shapeOf(table: string): ReadShape {
  if (!Object.hasOwn(TABLES, table)) throw new Error(`${table} is not a fact table`);
  return TABLES[table as FactTable];
}

/** The rollups that keep a period instead of a day: their column, and the months a period spans. */
const PERIODS = {
  month: { months: 1, adjective: 'monthly' },
  quarter: { months: 3, adjective: 'quarterly' },
} as const;

/**
 * The bounds of a monthly or quarterly rollup: whole calendar months (or quarters) only, or it
 * would answer for days outside the range. The column and its parameters are named for the period.
 */
function periodBounds(f: PlainFilters, period: keyof typeof PERIODS, parts: string[], params: Record<string, unknown>) {
  const { months, adjective } = PERIODS[period];
  const startsPeriod = (d: Date) => d.getUTCDate() === 1 && d.getUTCMonth() % months === 0;
  if (f.from) {
    if (!startsDay(f.from) || !startsPeriod(f.from))
      throw new Error(`a ${adjective} rollup starts on a whole ${period}`);
    parts.push(`${period} >= {${period}From:Date}`);
    params[`${period}From`] = isoDay(f.from);
  }
  if (f.to) {
    if (!endsDay(f.to) || !startsPeriod(new Date(f.to.getTime() + 1))) {
      throw new Error(`a ${adjective} rollup ends on a whole ${period}`);
    }
    parts.push(`${period} <= {${period}To:Date}`);
    // The first day of the last period in range.
    params[`${period}To`] = isoDay(new Date(Date.UTC(f.to.getUTCFullYear(), f.to.getUTCMonth() - (months - 1), 1)));
  }
}

/** `day` bounds let the primary key prune; bounds on the instant make a range inside a day exact. */
function dayBounds(f: PlainFilters, shape: ReadShape, parts: string[], params: Record<string, unknown>) {
  const time = () => {
    if (!shape.time) throw new Error('this table answers whole days only');
    return shape.time;
  };
  if (f.from) {
    parts.push('day >= {dayFrom:Date}');
    params.dayFrom = isoDay(f.from);
    if (!startsDay(f.from)) {
      parts.push(`${time()} >= {from:DateTime64(3, 'UTC')}`);
      params.from = chTime(f.from.toISOString());
    }
  }
  if (f.to) {
    parts.push('day <= {dayTo:Date}');
    params.dayTo = isoDay(f.to);
    if (!endsDay(f.to)) {
      parts.push(`${time()} <= {to:DateTime64(3, 'UTC')}`);
      params.to = chTime(f.to.toISOString());
    }
  }
}

/**
 * The condition of a `source` filter: on the answers table's column, or (analysis rows, shopping
 * cards) their answer_id among the brand's answers of that source in the same days. Written here,
 * the one maker of scoped SQL, so the subquery is the brand's by construction.
 */
function sourceCondition(table: string, shape: ReadShape, source: string, params: Record<string, unknown>): string {
  params.source = source;
  if (shape.source === 'column') return 'source = {source:String}';
  if (shape.source !== 'answer') throw new Error(`${table} keeps no answer's source`);
  const days = [
    ...(params.dayFrom === undefined ? [] : ['day >= {dayFrom:Date}']),
    ...(params.dayTo === undefined ? [] : ['day <= {dayTo:Date}']),
  ];
  const where = ['brand_id = {brand:UUID}', ...days, 'source = {source:String}'].join(' AND ');
  return `answer_id IN (SELECT answer_id FROM answers WHERE ${where})`;
}

/** FROM and WHERE of a table read: the brand first, then the filters, then `eq`. */
function scopedFrom(src: Source, params: Record<string, unknown>): { from: string; where: string[] } {
  const tables = typeof src.table === 'string' ? [src.table] : Array.isArray(src.table) ? [...src.table] : [];
  if (!tables.length) throw new Error('a fact query reads at least one table');
  const shapes = tables.map(shapeOf);
  const parts: string[] = [];
  const scope = src.scope;
  if ('brandIds' in scope) {
    if (!Array.isArray(scope.brandIds)) throw new Error('a fact query needs its brands');
    parts.push('brand_id IN {brands:Array(UUID)}');
    params.brands = [...scope.brandIds];
  } else {
    if (typeof scope.brandId !== 'string' || !scope.brandId) throw new Error('a fact query needs its brand');
    if (shapes.length > 1) throw new Error('filters apply to one table');
    const [shape] = shapes;
    parts.push('brand_id = {brand:UUID}');
    params.brand = scope.brandId;
    if (shape.generations) {
      const { generation } = scope;
      if (generation === undefined || !Number.isInteger(generation) || generation < 0) {
        throw new Error('a fact query needs its generation');
      }
      parts.push('generation = {generation:UInt32}');
      params.generation = generation;
    }
    if (shape.period === 'day') dayBounds(scope, shape, parts, params);
    else periodBounds(scope, shape.period, parts, params);
    const [table] = tables;
    if ((scope.models?.length || scope.region) && !shape.models) throw new Error(`${table} keeps no model or region`);
    if (scope.models?.length) {
      parts.push('model IN {models:Array(String)}');
      params.models = scope.models;
    }
    if (scope.region) {
      parts.push('region = {region:String}');
      params.region = scope.region;
    }
    if (scope.promptIds) {
      if (!shape.prompts) throw new Error(`${table} keeps no prompt`);
      // A topic without prompts matches nothing.
      if (!scope.promptIds.length) parts.push('0');
      else {
        parts.push('prompt_id IN {prompts:Array(UUID)}');
        params.prompts = scope.promptIds;
      }
    }
    if (scope.source !== undefined) parts.push(sourceCondition(table, shape, scope.source, params));
  }
  for (const [column, value] of Object.entries(src.eq ?? {})) {
    if (!shapes.every((s) => s.dimensions.includes(column))) {
      throw new Error(`${column} is not a dimension of ${tables.join(', ')}`);
    }
    if (value === undefined) continue;
    parts.push(`${column} = {eq_${column}:String}`);
    bind(params, { [`eq_${column}`]: value });
  }
  const from = tables.length === 1 ? tables[0] : `merge(currentDatabase(), '^(${tables.join('|')})$')`;
  return { from: `${from}${src.final ? ' FINAL' : ''}`, where: parts };
}

/**
 * What a caller's text may not hold, since it could read a table the scope does not cover: a
 * subquery, a join or a union (SELECT, FROM, JOIN, UNION), an `IN` over a table named
 * bare (`x IN answers` reads that table), a placeholder of type Identifier (a table's name bound
 * as a value), and the functions that read a table by name. Other reads come in through `in` and
 * unionAll, as scoped queries.
 */
const NAMES_A_TABLE = [
  /\b(SELECT|FROM|JOIN|UNION|INTO|SETTINGS|FORMAT)\b/i,
  /\bIN\s+(?![({\s])/i,
  /\{\s*\w+\s*:\s*Identifier\s*\}/i,
  /\b(joinGet\w*|dictGet\w*|dictHas\w*|hasColumnInTable|file|url|remote\w*|merge|cluster\w*|s3\w*|input)\s*\(/i,
];

/** Refuses caller text that could name a table (NAMES_A_TABLE): a select cannot reach outside its scope. */
function checkClauses(c: Clauses): void {
  for (const clause of ['select', 'where', 'groupBy', 'having', 'orderBy', 'limit'] as const) {
    const text = c[clause];
    if (text !== undefined && NAMES_A_TABLE.some((re) => re.test(text))) {
      throw new Error(`a scoped query's ${clause} may not name a table: ${text}`);
    }
  }
}

/** A SELECT from a table inside its scope, or from a scoped subquery. */
export function select(from: Source | ScopedQuery, c: Clauses): ScopedQuery {
  checkClauses(c);
  const params: Record<string, unknown> = {};
  const where: string[] = [];
  let sql: string;
  if (isScoped(from)) {
    bind(params, from.params);
    sql = `SELECT ${c.select} FROM (${from.sql})`;
    if (c.join) {
      const { query, using } = c.join;
      if (!isScoped(query) || !using.length || !using.every((col) => /^[a-z_]+$/.test(col))) {
        throw new Error('JOIN takes a scoped query and its columns');
      }
      bind(params, query.params);
      sql = `${sql} AS scoped INNER JOIN (${query.sql}) AS joined USING (${using.join(', ')})`;
    }
    // In parentheses only beside another condition (an OR must not swallow the IN below).
    if (c.where) where.push(c.in ? `(${c.where})` : c.where);
  } else {
    if (c.join) throw new Error('a JOIN reads from a scoped subquery');
    const scope = scopedFrom(from, params);
    sql = `SELECT ${c.select} FROM ${scope.from}`;
    where.push(...scope.where);
    if (c.where) where.push(`(${c.where})`);
  }
  if (c.in) {
    const { column, query, not } = c.in;
    if (!/^[a-z_]+$/.test(column) || !isScoped(query)) throw new Error('IN takes a column and a scoped query');
    bind(params, query.params);
    where.push(`${column}${not ? ' NOT' : ''} IN (${query.sql})`);
  }
  if (where.length) sql += ` WHERE ${where.join(' AND ')}`;
  bind(params, c.params);
  if (c.groupBy) sql += ` GROUP BY ${c.groupBy}`;
  if (c.having) sql += ` HAVING ${c.having}`;
  if (c.orderBy) sql += ` ORDER BY ${c.orderBy}`;
  if (c.limit) sql += ` LIMIT ${c.limit}`;
  return scoped(sql, params);
}

/** The rows of every part, one after another; the parts share their parameters. */
export function unionAll(parts: readonly ScopedQuery[]): ScopedQuery {
  if (!parts.length || !parts.every(isScoped)) throw new Error('a union takes scoped queries');
  const params: Record<string, unknown> = {};
  for (const p of parts) bind(params, p.params);
  return scoped(parts.map((p) => p.sql).join(' UNION ALL '), params);
}

/**
 * The one read not scoped by brand, fixed here so it cannot grow: the (brand, day) places where
 * answers of these ids are stored. Ingestion replaces an answer given an explicit id wherever it
 * was stored before (under another brand or day), so it must find it first; it returns no facts.
 */
export function storedAnswerPlaces(answerIds: readonly string[]): ScopedQuery {
  const sql = 'SELECT DISTINCT brand_id, day FROM answers WHERE answer_id IN {ids:Array(UUID)}';
  return scoped(sql, { ids: [...answerIds] });
}
