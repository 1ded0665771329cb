// The stored columns of each fact table and the one text form of a row: a JSONCompactEachRow line
// `[v1,...,vn,sign]`. The `v1,...,vn` part (the row's key) is also the row's identity when
// reconcile.ts compares stored rows with wanted ones, so a row is serialised once, by hand: JSON
// escaping (JSON.stringify) only for free text; UUIDs, dates, timestamps and fixed enums are quoted
// as they are, numbers written with String(). The result is exactly JSON.stringify of the values.

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

// A new answer's line for answer_rows_in (clickhouse/005_answer_rows_in.sql): its answers row, then
// its entity and citation rows as arrays of tuples holding only what differs from row to row. The
// tuples' fields, in the order of the table's tuple types (and of entityTuple's and citationTuple's
// parameters, which write them without building an array per row: this runs for every row ingested):
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

/** The columns an answer_rows_in line fills: the answer, its analysis rows, their generation. */
export const WIDE_COLUMNS: readonly string[] = [
  ...COLUMNS.answers,
  'sign',
  'entity_rows',
  'citation_rows',
  'generation',
];
/** A re-analysis line: the same, flagged, so the answers row (stored already) is not written again. */
export const REANALYSIS_COLUMNS: readonly string[] = [...WIDE_COLUMNS, 'reanalysis'];

/**
 * An answers row's key (rowKey('answers', ...) written by one template, without an array of
 * values: this runs for every answer ingested). Parameters in COLUMNS.answers order.
 */
export const answerKey = (
  answerId: string,
  organizationId: string,
  brandId: string,
  promptId: string,
  platform: string,
  model: string,
  region: string,
  mode: string,
  collectedAt: string,
  day: string,
  text: string,
  citationCount: number,
  productCount: number,
  searchQueries: readonly string[],
  searchQueriesKnown: 0 | 1,
) =>
  `${plainValue(answerId)},${plainValue(organizationId)},${plainValue(brandId)},${plainValue(promptId)},${plainValue(platform)},${textValue(model)},${textValue(region)},${plainValue(mode)},${plainValue(collectedAt)},${plainValue(day)},${textValue(text)},${numValue(citationCount)},${numValue(productCount)},${listValue(searchQueries)},${searchQueriesKnown}`;

/** An entity row's tuple as JSON, without the brackets. */
export const entityTuple = (
  entityId: string,
  isBrand: 0 | 1,
  mentions: number,
  position: number,
  citations: number,
  score: number,
  sentiment: -1 | 0 | 1,
  sentimentScore: number,
) =>
  `${plainValue(entityId)},${isBrand},${numValue(mentions)},${numValue(position)},${numValue(citations)},${numValue(score)},${sentiment},${numValue(sentimentScore)}`;

/** A citation row's tuple as JSON, without the brackets. */
export const citationTuple = (
  url: string,
  domain: string,
  category: string,
  articleType: string,
  title: string,
  domainFirst: 0 | 1,
  groupFirst: 0 | 1,
  answerFirst: 0 | 1,
) =>
  `${textValue(url)},${textValue(domain)},${plainValue(category)},${plainValue(articleType)},${textValue(title)},${domainFirst},${groupFirst},${answerFirst}`;

const tupleArray = (list: readonly string[]) => {
  let out = '[';
  for (let i = 0; i < list.length; i++) out += i ? `,[${list[i]}]` : `[${list[i]}]`;
  return `${out}]`;
};

/**
 * An answer's answer_rows_in line, from its answers key, its entity and citation tuples and the
 * analysis generation they belong to; `reanalysis` adds the flag of REANALYSIS_COLUMNS.
 */
export function wideLine(
  key: string,
  entities: readonly string[],
  citations: readonly string[],
  generation: number,
  reanalysis = false,
): string {
  return `[${key},1,${tupleArray(entities)},${tupleArray(citations)},${generation}${reanalysis ? ',1' : ''}]\n`;
}

/**
 * The keys of the rows an answer_rows_in line stands for, table by table: what its views write.
 * Reconcile compares these with stored rows when a batch replaces answers.
 */
export function keysOfWide(
  line: string,
): Pick<Record<FactTable, string[]>, 'answers' | 'answer_entities' | 'answer_citations'> {
  const values = JSON.parse(line) as unknown[];
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
export class LineWriter {
  private bytes: Buffer;
  private length = 0;

  /** `capacity`: the bytes expected, so that a writer sized right never grows (and copies). */
  constructor(capacity = 1 << 16) {
    this.bytes = Buffer.allocUnsafeSlow(capacity); // never from the shared pool: it may be transferred
  }

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
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.length + text.length * 3 > this.bytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.length + text.length * 3));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    this.length += this.bytes.write(text, this.length);
  }

  /** Bytes written so far: where the next line starts. */
  get size(): number {
    return this.length;
  }

  /**
   * The lines written so far (a view of the writer's own memory), less the byte ranges dropped
   * ([start, end), in the order written), which are cut out in place.
   */
  lines(dropped: readonly (readonly [number, number])[] = []): Uint8Array {
    const cuts = dropped.filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0]);
    if (cuts.length) {
      let to = cuts[0][0];
      cuts.forEach(([, end], i) => {
        const next = i + 1 < cuts.length ? cuts[i + 1][0] : this.length;
        to += this.bytes.copy(this.bytes, to, end, next);
      });
      this.length = to;
    }
    return this.bytes.subarray(0, this.length);
  }
}
