// The stored columns of each fact table and the two forms rows are written in. A row of a fact
// table is a JSONCompactEachRow line `[v1,...,vn,sign]`; its `v1,...,vn` part (the row's key) is
// also the row's identity when reconcile.ts compares stored rows with wanted ones, so a row is
// serialised once, by hand: JSON escaping (JSON.stringify) only for free text; UUIDs, dates,
// timestamps and fixed enums are quoted as they are, numbers written with String(). The result is
// exactly JSON.stringify of the values. A new answer goes in as one row of answer_rows_in in
// RowBinary (stores/row-binary.ts), which the engine reads for half the CPU of its JSON; read back
// (wideRows), it gives the same values and so the same keys.
import { ByteWriter, RowBinaryReader, type BinaryColumn, type RowBinaryWriter } from '../stores/row-binary.ts';
import { chTime } from '../stores/scoped-query.ts';

export const FACT_TABLES = ['answers', 'answer_entities', 'answer_citations', 'shopping_cards'] as const;
export type FactTable = (typeof FACT_TABLES)[number];

/**
 * How a column's values are written. `plain`: strings that never need escaping (UUIDs, dates,
 * ClickHouse timestamps, platforms, categories and other fixed enums); `text`: anything else that
 * is a string; `num`: numbers; `list`: an array of strings (null or missing: empty, as ClickHouse
 * arrays are never null). Null (or a missing value) is `null` in every other kind.
 */
type Kind = 'plain' | 'text' | 'num' | 'list';

/** Stored columns of each fact table, minus `sign`, in a fixed order (the order of a key's values). */
const COLUMN_KINDS: Record<FactTable, Record<string, Kind>> = {
  answers: {
    answer_id: 'plain',
    organization_id: 'plain',
    brand_id: 'plain',
    prompt_id: 'plain',
    platform: 'plain',
    model: 'text',
    region: 'text',
    mode: 'plain',
    collected_at: 'plain',
    day: 'plain',
    text: 'text',
    citation_count: 'num',
    product_count: 'num',
    // The searches behind the answer (clickhouse/013_search_queries.sql); known = 0: unknown.
    search_queries: 'list',
    search_queries_known: 'num',
  },
  answer_entities: {
    answer_id: 'plain',
    brand_id: 'plain',
    entity_id: 'plain',
    is_brand: 'num',
    prompt_id: 'plain',
    platform: 'plain',
    model: 'text',
    region: 'text',
    day: 'plain',
    collected_at: 'plain',
    mentions: 'num',
    position: 'num',
    citations: 'num',
    score: 'num',
    generation: 'num',
    // 1 positive, 0 neutral, -1 negative, and the score in [-1, 1]; 0 and 0 where not named (015).
    sentiment: 'num',
    sentiment_score: 'num',
  },
  answer_citations: {
    answer_id: 'plain',
    brand_id: 'plain',
    prompt_id: 'plain',
    platform: 'plain',
    model: 'text',
    region: 'text',
    day: 'plain',
    collected_at: 'plain',
    url: 'text',
    domain: 'text',
    category: 'plain',
    article_type: 'plain',
    title: 'text',
    domain_first: 'num',
    group_first: 'num',
    answer_first: 'num',
    generation: 'num',
  },
  shopping_cards: {
    card_id: 'plain',
    answer_id: 'plain',
    organization_id: 'plain',
    brand_id: 'plain',
    prompt_id: 'plain',
    platform: 'plain',
    model: 'text',
    region: 'text',
    day: 'plain',
    created_at: 'plain',
    position: 'num',
    product_title: 'text',
    product_brand: 'text',
    price_amount: 'num',
    price_currency: 'text',
    image_url: 'text',
    merchant_url: 'text',
    merchant_domain: 'text',
    rating: 'num',
    review_count: 'num',
    raw: 'text',
    matched_brand_id: 'plain',
    matched_brand_role: 'plain',
  },
};

const mapTables = <T>(f: (t: FactTable) => T) =>
  Object.fromEntries(FACT_TABLES.map((t) => [t, f(t)])) as Record<FactTable, T>;

export const COLUMNS: Record<FactTable, readonly string[]> = mapTables((t) => Object.keys(COLUMN_KINDS[t]));
/** The columns a line fills: the key's columns, then `sign`. */
export const LINE_COLUMNS: Record<FactTable, readonly string[]> = mapTables((t) => [...COLUMNS[t], 'sign']);
const KINDS: Record<FactTable, readonly Kind[]> = mapTables((t) => Object.values(COLUMN_KINDS[t]));

// One encoder per kind. A value of another type than its kind's (never written by ingestion) still
// comes out as JSON.stringify writes it.
const plainValue = (v: unknown): string => (typeof v === 'string' ? `"${v}"` : v == null ? 'null' : JSON.stringify(v));
const textValue = (v: unknown): string => (v == null ? 'null' : JSON.stringify(v));
const numValue = (v: unknown): string =>
  typeof v === 'number' && Number.isFinite(v) ? String(v) : v == null ? 'null' : JSON.stringify(v);
const listValue = (v: unknown): string => JSON.stringify(v ?? []);
const ENCODERS: Record<Kind, (v: unknown) => string> = {
  plain: plainValue,
  text: textValue,
  num: numValue,
  list: listValue,
};

/** A row's key: its values (in COLUMNS order) as JSON, without the brackets. */
export function rowKey(table: FactTable, values: readonly unknown[]): string {
  const kinds = KINDS[table];
  let out = ENCODERS[kinds[0]](values[0]);
  for (let i = 1; i < kinds.length; i++) out += `,${ENCODERS[kinds[i]](values[i])}`;
  return out;
}

// A new answer's row of answer_rows_in (clickhouse/005_answer_rows_in.sql), in RowBinary: its
// answers row, then its entity and citation rows as arrays of tuples holding only what differs from
// row to row, then their analysis generation. The tuples' fields, in the order of the table's tuple
// types (and of writeEntityRow's and writeCitationRow's parameters):
const TUPLES = {
  answer_entities: [
    'entity_id',
    'is_brand',
    'mentions',
    'position',
    'citations',
    'score',
    'sentiment',
    'sentiment_score',
  ],
  answer_citations: [
    'url',
    'domain',
    'category',
    'article_type',
    'title',
    'domain_first',
    'group_first',
    'answer_first',
  ],
} as const;

/** The columns an answer_rows_in row fills, with their types, in the order they are written. */
export const WIDE_COLUMNS: readonly BinaryColumn[] = [
  ['answer_id', 'UUID'],
  ['organization_id', 'UUID'],
  ['brand_id', 'UUID'],
  ['prompt_id', 'UUID'],
  ['platform', 'String'],
  ['model', 'String'],
  ['region', 'String'],
  ['mode', 'String'],
  ['collected_at', "DateTime64(3, 'UTC')"],
  ['day', 'Date'],
  ['text', 'String'],
  ['citation_count', 'UInt16'],
  ['product_count', 'UInt16'],
  ['search_queries', 'Array(String)'],
  ['search_queries_known', 'UInt8'],
  ['sign', 'Int8'],
  ['entity_rows', 'Array(Tuple(UUID, UInt8, UInt32, UInt16, UInt32, Float64, Int8, Float64))'],
  ['citation_rows', 'Array(Tuple(String, String, String, String, String, UInt8, UInt8, UInt8))'],
  ['generation', 'UInt32'],
];
/** A re-analysis row: the same, flagged, so the answers row (stored already) is not written again. */
export const REANALYSIS_COLUMNS: readonly BinaryColumn[] = [...WIDE_COLUMNS, ['reanalysis', 'UInt8']];

/**
 * Writes an answer_rows_in row's answers part and its sign (parameters in COLUMNS.answers order,
 * the time in epoch milliseconds, which also gives the day). Its entity rows, its citation rows
 * and writeWideEnd follow.
 */
export function writeWideAnswer(
  w: RowBinaryWriter,
  answerId: string,
  organizationId: string,
  brandId: string,
  promptId: string,
  platform: string,
  model: string,
  region: string,
  mode: string,
  collectedAtMs: number,
  text: string,
  citationCount: number,
  productCount: number,
  searchQueries: readonly string[],
  searchQueriesKnown: 0 | 1,
): void {
  w.uuid(answerId);
  w.uuid(organizationId);
  w.uuid(brandId);
  w.uuid(promptId);
  w.string(platform);
  w.string(model);
  w.string(region);
  w.string(mode);
  w.dateTime64ms(collectedAtMs);
  w.date(collectedAtMs);
  w.string(text);
  w.uint16(citationCount);
  w.uint16(productCount);
  w.varUInt(searchQueries.length);
  for (const q of searchQueries) w.string(q);
  w.uint8(searchQueriesKnown);
  w.int8(1);
}

/** One entity row's tuple (after the count of the answer's entity rows, w.varUInt). */
export function writeEntityRow(
  w: RowBinaryWriter,
  entityId: string,
  isBrand: 0 | 1,
  mentions: number,
  position: number,
  citations: number,
  score: number,
  sentiment: -1 | 0 | 1,
  sentimentScore: number,
): void {
  w.uuid(entityId);
  w.uint8(isBrand);
  w.uint32(mentions);
  w.uint16(position);
  w.uint32(citations);
  w.float64(score);
  w.int8(sentiment);
  w.float64(sentimentScore);
}

/** One citation row's tuple (after the count of the answer's citation rows, w.varUInt). */
export function writeCitationRow(
  w: RowBinaryWriter,
  url: string,
  domain: string,
  category: string,
  articleType: string,
  title: string,
  domainFirst: 0 | 1,
  groupFirst: 0 | 1,
  answerFirst: 0 | 1,
): void {
  w.string(url);
  w.string(domain);
  w.string(category);
  w.string(articleType);
  w.string(title);
  w.uint8(domainFirst);
  w.uint8(groupFirst);
  w.uint8(answerFirst);
}

/** Ends an answer_rows_in row: the analysis generation, and the re-analysis flag of REANALYSIS_COLUMNS. */
export function writeWideEnd(w: RowBinaryWriter, generation: number, reanalysis = false): void {
  w.uint32(generation);
  if (reanalysis) w.uint8(1);
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Reads one answer_rows_in row (WIDE_COLUMNS, or REANALYSIS_COLUMNS) back as the values a
 * JSONCompactEachRow line of it holds: times in ClickHouse's text form, days as YYYY-MM-DD, tuples
 * as arrays.
 */
function readWide(r: RowBinaryReader, reanalysis: boolean): unknown[] {
  const values: unknown[] = [r.uuid(), r.uuid(), r.uuid(), r.uuid(), r.string(), r.string(), r.string(), r.string()];
  const at = r.dateTime64ms();
  values.push(chTime(new Date(at).toISOString()), isoDay(r.date()), r.string(), r.uint16(), r.uint16());
  const queries: string[] = [];
  for (let n = r.varUInt(); n > 0; n--) queries.push(r.string());
  values.push(queries, r.uint8(), r.int8());
  const entities: unknown[][] = [];
  for (let n = r.varUInt(); n > 0; n--)
    entities.push([r.uuid(), r.uint8(), r.uint32(), r.uint16(), r.uint32(), r.float64(), r.int8(), r.float64()]);
  const citations: unknown[][] = [];
  for (let n = r.varUInt(); n > 0; n--)
    citations.push([r.string(), r.string(), r.string(), r.string(), r.string(), r.uint8(), r.uint8(), r.uint8()]);
  values.push(entities, citations, r.uint32());
  if (reanalysis) values.push(r.uint8());
  return values;
}

/** Reads every answer_rows_in row of a body (of REANALYSIS_COLUMNS if `reanalysis`), as readWide does one. */
export function wideRows(body: Uint8Array, reanalysis = false): unknown[][] {
  const r = new RowBinaryReader(body);
  const rows: unknown[][] = [];
  while (!r.done) rows.push(readWide(r, reanalysis));
  return rows;
}

/**
 * The keys of the rows an answer_rows_in row stands for (its values as wideRows reads them), table
 * by table: what its views write. Reconcile compares these with stored rows when a batch replaces
 * answers.
 */
export function keysOfWide(
  values: readonly unknown[],
): Pick<Record<FactTable, string[]>, 'answers' | 'answer_entities' | 'answer_citations'> {
  const n = COLUMNS.answers.length;
  const answer = new Map<string, unknown>(COLUMNS.answers.map((c, i) => [c, values[i]]));
  answer.set('generation', values[n + 3]);
  const expand = (table: 'answer_entities' | 'answer_citations', tuples: unknown[][]) =>
    tuples.map((tuple) => {
      const field = new Map<string, unknown>(TUPLES[table].map((f, i) => [f, tuple[i]]));
      return rowKey(
        table,
        COLUMNS[table].map((c) => (field.has(c) ? field.get(c) : answer.get(c))),
      );
    });
  return {
    answers: [rowKey('answers', values.slice(0, n))],
    answer_entities: expand('answer_entities', values[n + 1] as unknown[][]),
    answer_citations: expand('answer_citations', values[n + 2] as unknown[][]),
  };
}

/** The JSONCompactEachRow line of a row: its key and sign. */
export const rowLine = (key: string, sign: 1 | -1) => `[${key},${sign}]\n`;

/** The keys of a body of `sign = 1` lines (JSON never holds a raw newline, so a line is a row). */
export function keysOf(body: string): string[] {
  const keys: string[] = [];
  for (const line of body.split('\n')) if (line) keys.push(line.slice(1, -3));
  return keys;
}

/**
 * Collects `sign = 1` lines as UTF-8, so a batch's rows end as one buffer (what the store takes
 * without copying, and what a worker hands over without copying) instead of thousands of strings.
 */
export class LineWriter extends ByteWriter {
  /** Adds the lines of these keys (an answer's rows of one table: one write for all of them). */
  add(keys: readonly string[]): void {
    if (!keys.length) return;
    let line = rowLine(keys[0], 1);
    for (let i = 1; i < keys.length; i++) line += rowLine(keys[i], 1);
    this.addLines(line);
  }

  /** Adds whole lines as they are. */
  addLines(text: string): void {
    if (!text) return;
    this.room(text.length * 3); // UTF-8 takes at most 3 bytes per UTF-16 unit
    this.at += this.buf.write(text, this.at);
  }

  /** The lines written so far, less the byte ranges dropped (see ByteWriter.bytes). */
  lines(dropped: readonly (readonly [number, number])[] = []): Uint8Array {
    return this.bytes(dropped);
  }
}
