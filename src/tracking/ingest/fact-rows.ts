// The two forms a fact table's rows are written in, both derived from the tables' declarations
// (stores/fact-tables.ts). A new answer goes in as one row of answer_rows_in in RowBinary
// (stores/row-binary.ts), which the engine reads for half the CPU of its JSON. Any other row is a
// JSONCompactEachRow line `[v1,...,vn,sign]`, whose `v1,...,vn` part (the row's key) is also the
// row's identity when reconcile.ts compares stored rows with wanted ones: exactly JSON.stringify
// of the values, with dates and times in ClickHouse's text form. An answer_rows_in row read back
// (wideRows) gives the keys of the rows its views write (keysOfWide).
import { isoDay } from '../../instant.ts';
import {
  ANSWER_ROWS_IN,
  type ColumnType,
  columnTypesOf,
  FACT_SCHEMAS,
  FACT_TABLES,
  type FactRow,
  type FactTable,
} from '../../stores/fact-tables.ts';
import {
  type BinaryFields,
  type BinaryType,
  ByteWriter,
  RowBinaryReader,
  type RowBinaryWriter,
  recordCodec,
} from '../../stores/row-binary.ts';
import { chTime } from '../../stores/scoped-query.ts';

export { FACT_TABLES, type FactRow, type FactTable };

const mapTables = <T>(f: (t: FactTable) => T) =>
  Object.fromEntries(FACT_TABLES.map((t) => [t, f(t)])) as Record<FactTable, T>;

/** The columns a line fills: the key's columns, then `sign`. */
export const LINE_COLUMNS: Record<FactTable, readonly string[]> = mapTables((t) => [
  ...columnTypesOf(t).map(([name]) => name),
  'sign',
]);

// A key's value by column type. A value of another type than its column's (never written by
// ingestion) still comes out as JSON.stringify writes it. Dates and times come as epoch
// milliseconds from RowBinary and as ClickHouse's text from stored rows and JSON lines.
const plain = (v: unknown): string => (typeof v === 'string' ? `"${v}"` : v == null ? 'null' : JSON.stringify(v));
const text = (v: unknown): string => (v == null ? 'null' : JSON.stringify(v));
const num = (v: unknown): string =>
  typeof v === 'number' && Number.isFinite(v) ? String(v) : v == null ? 'null' : JSON.stringify(v);
const list = (v: unknown): string => JSON.stringify(v ?? []);
const day = (v: unknown): string => (typeof v === 'number' ? `"${isoDay(v)}"` : plain(v));
const time = (v: unknown): string => (typeof v === 'number' ? `"${chTime(new Date(v).toISOString())}"` : plain(v));
const KEY_FORM: Record<ColumnType, (v: unknown) => string> = {
  UUID: plain,
  'Nullable(UUID)': plain,
  String: text,
  'Nullable(String)': text,
  'LowCardinality(String)': text,
  'Array(String)': list,
  'Array(UUID)': list,
  UInt8: num,
  UInt16: num,
  UInt32: num,
  'Nullable(UInt32)': num,
  'Nullable(UInt64)': num,
  Int8: num,
  Float64: num,
  'Nullable(Float64)': num,
  Date: day,
  "DateTime64(3, 'UTC')": time,
};
const KEY_PARTS = mapTables((t) => columnTypesOf(t).map(([name, type]) => [name, KEY_FORM[type]] as const));

/** A row's key: its values in the table's column order, as JSON, without the brackets. */
export function rowKey<T extends FactTable>(table: T, row: FactRow<T>): string {
  const parts = KEY_PARTS[table];
  const values = row as Record<string, unknown>;
  let out = parts[0][1](values[parts[0][0]]);
  for (let i = 1; i < parts.length; i++) out += `,${parts[i][1](values[parts[i][0]])}`;
  return out;
}

// The stored types as RowBinary writes them: a LowCardinality(String) is a String on the wire.
type BinaryOf<C> = C extends 'UUID' | 'String' | 'LowCardinality(String)'
  ? string
  : C extends 'Array(String)' | 'Array(UUID)'
    ? readonly string[]
    : number; // numbers, and dates and times as epoch milliseconds
type Columns<T extends FactTable> = (typeof FACT_SCHEMAS)[T]['columns'];
type Fields<T extends FactTable, F extends keyof Columns<T>> = { [C in F]: BinaryOf<Columns<T>[C]> };
/** One entity row of an answer_rows_in row (what differs from the answer's other rows). */
export type EntityTuple = Fields<'answer_entities', (typeof ANSWER_ROWS_IN)['entity_rows']['fields'][number]>;
/** One citation row of an answer_rows_in row. */
export type CitationTuple = Fields<'answer_citations', (typeof ANSWER_ROWS_IN)['citation_rows']['fields'][number]>;
/** A row of answer_rows_in, by column name (clickhouse/005_answer_rows_in.sql). */
export type AnswerRowsIn = Fields<'answers', keyof Columns<'answers'>> & {
  sign: 1;
  entity_rows: readonly EntityTuple[];
  citation_rows: readonly CitationTuple[];
  /** The brand's analysis generation its entity and citation rows belong to. */
  generation: number;
  /** A re-analysis row: its answers row (stored already) is not written again. */
  reanalysis?: 1;
};

const binaryOf = (type: ColumnType): BinaryType => {
  const t = type.replace(/^LowCardinality\((.*)\)$/, '$1');
  if (t.startsWith('Nullable')) throw new Error(`answer_rows_in takes no ${type}`);
  return t as BinaryType;
};
const tuples = ({ table, fields }: { table: FactTable; fields: readonly string[] }): BinaryType => {
  const columns: Readonly<Record<string, ColumnType>> = FACT_SCHEMAS[table].columns;
  return { tuples: fields.map((f) => [f, binaryOf(columns[f])] as const) };
};
const WIDE_FIELDS: BinaryFields = [
  ...columnTypesOf('answers').map(([name, type]) => [name, binaryOf(type)] as const),
  ['sign', 'Int8'],
  ['entity_rows', tuples(ANSWER_ROWS_IN.entity_rows)],
  ['citation_rows', tuples(ANSWER_ROWS_IN.citation_rows)],
  ['generation', 'UInt32'],
];
const WIDE = recordCodec<AnswerRowsIn>(WIDE_FIELDS);
const REANALYSIS = recordCodec<AnswerRowsIn>([...WIDE_FIELDS, ['reanalysis', 'UInt8']]);

/** The columns an answer_rows_in row fills, with their types, in the order they are written. */
export const WIDE_COLUMNS = WIDE.columns;
/** A re-analysis row: the same, flagged, so the answers row (stored already) is not written again. */
export const REANALYSIS_COLUMNS = REANALYSIS.columns;

/** Writes one answer_rows_in row: of REANALYSIS_COLUMNS if it is flagged as a re-analysis, else of WIDE_COLUMNS. */
export function writeAnswerRowsIn(w: RowBinaryWriter, row: AnswerRowsIn): void {
  (row.reanalysis ? REANALYSIS : WIDE).write(w, row);
}

/** Reads every answer_rows_in row of a body (of REANALYSIS_COLUMNS if `reanalysis`): times and days in epoch ms. */
export function wideRows(body: Uint8Array, reanalysis = false): AnswerRowsIn[] {
  const codec = reanalysis ? REANALYSIS : WIDE;
  const r = new RowBinaryReader(body);
  const rows: AnswerRowsIn[] = [];
  while (!r.done) rows.push(codec.read(r));
  return rows;
}

/**
 * The keys of the rows an answer_rows_in row stands for, table by table: what its views write (an
 * entity or citation row takes the answer's columns, its tuple's fields and the generation).
 * Reconcile compares these with stored rows when a batch replaces answers.
 */
export function keysOfWide(
  row: AnswerRowsIn,
): Pick<Record<FactTable, string[]>, 'answers' | 'answer_entities' | 'answer_citations'> {
  return {
    answers: [rowKey('answers', row)],
    answer_entities: row.entity_rows.map((e) => rowKey('answer_entities', { ...row, ...e })),
    answer_citations: row.citation_rows.map((c) => rowKey('answer_citations', { ...row, ...c })),
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
