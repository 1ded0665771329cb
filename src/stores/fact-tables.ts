// The ClickHouse tables that hold tenant facts, each declared once: the fact tables ingestion
// writes (their columns, types and order, as the migrations in clickhouse/ leave them) and how a
// scoped read may filter every table it can name. From this file come the RowBinary row of
// answer_rows_in (tracking/ingest/fact-rows.ts), the rows' keys that reconcile compares, the tables
// stores/scoped-query.ts lets a read name, and the check that the migrations agree
// (test/stores/fact-tables.test.ts). Adding a column is one edit here plus its migration.

/** A column's type as the migrations declare it (what `system.columns` reports). */
export type ColumnType =
  | 'UUID'
  | 'Nullable(UUID)'
  | 'String'
  | 'Nullable(String)'
  | 'LowCardinality(String)'
  | 'Array(String)'
  | 'Array(UUID)'
  | 'UInt8'
  | 'UInt16'
  | 'UInt32'
  | 'Nullable(UInt32)'
  | 'Nullable(UInt64)'
  | 'Int8'
  | 'Float64'
  | 'Nullable(Float64)'
  | 'Date'
  | "DateTime64(3, 'UTC')";

/** How a scoped read may filter a table. */
export interface ReadShape {
  /** Analysis rows (clickhouse/011): read in the brand's live generation only. */
  generations: boolean;
  /** The date key: `day`, or a rollup's `month` or `quarter` (the period's first day). */
  period: 'day' | 'month' | 'quarter';
  /** The column holding the instant, if any: a range inside a day filters on it. */
  time?: string;
  /** Whether it keeps model and region (model and region filters), and prompt_id (a topic filter). */
  models: boolean;
  prompts: boolean;
  /** String columns a read may match with `eq`. */
  dimensions: readonly string[];
  /**
   * How a `source` filter reaches its rows: `column`, the table keeps the answer's source; `answer`,
   * through its answer_id (the answers of that source). Absent: the table cannot be read by source.
   */
  source?: 'column' | 'answer';
}

/**
 * A fact table: its stored columns in order (`sign` apart: every fact table ends its rows with it) and its
 * read shape.
 */
interface FactTableSchema extends ReadShape {
  columns: Readonly<Record<string, ColumnType>>;
}

/** The fact tables (clickhouse/001_facts.sql and the columns later migrations add). */
export const FACT_SCHEMAS = {
  answers: {
    columns: {
      answer_id: 'UUID',
      organization_id: 'UUID',
      brand_id: 'UUID',
      prompt_id: 'UUID',
      platform: 'LowCardinality(String)',
      model: 'LowCardinality(String)',
      region: 'LowCardinality(String)',
      mode: 'LowCardinality(String)',
      collected_at: "DateTime64(3, 'UTC')",
      day: 'Date',
      text: 'String',
      citation_count: 'UInt16',
      product_count: 'UInt16',
      // The searches behind the answer (clickhouse/013_search_queries.sql); known = 0: unknown.
      search_queries: 'Array(String)',
      search_queries_known: 'UInt8',
      // Where the answer comes from (clickhouse/022_provenance.sql): the model the provider
      // reported, the capture adapter's version, and capture, import or the tracker it came from.
      provider_model: 'LowCardinality(String)',
      engine_version: 'LowCardinality(String)',
      source: 'LowCardinality(String)',
    },
    generations: false,
    period: 'day',
    time: 'collected_at',
    models: true,
    prompts: true,
    dimensions: ['platform', 'mode'],
    source: 'column',
  },
  answer_entities: {
    columns: {
      answer_id: 'UUID',
      brand_id: 'UUID',
      entity_id: 'UUID',
      is_brand: 'UInt8',
      prompt_id: 'UUID',
      platform: 'LowCardinality(String)',
      model: 'LowCardinality(String)',
      region: 'LowCardinality(String)',
      day: 'Date',
      collected_at: "DateTime64(3, 'UTC')",
      mentions: 'UInt32',
      position: 'UInt16',
      citations: 'UInt32',
      score: 'Float64',
      generation: 'UInt32',
      // 1 positive, 0 neutral, -1 negative, and the score in [-1, 1]; 0 and 0 where not named (015).
      sentiment: 'Int8',
      sentiment_score: 'Float64',
    },
    generations: true,
    period: 'day',
    time: 'collected_at',
    models: true,
    prompts: true,
    dimensions: ['platform'],
    source: 'answer',
  },
  answer_citations: {
    columns: {
      answer_id: 'UUID',
      brand_id: 'UUID',
      prompt_id: 'UUID',
      platform: 'LowCardinality(String)',
      model: 'LowCardinality(String)',
      region: 'LowCardinality(String)',
      day: 'Date',
      collected_at: "DateTime64(3, 'UTC')",
      url: 'String',
      domain: 'LowCardinality(String)',
      category: 'LowCardinality(String)',
      article_type: 'LowCardinality(String)',
      title: 'String',
      domain_first: 'UInt8',
      group_first: 'UInt8',
      answer_first: 'UInt8',
      generation: 'UInt32',
      // Whom the citing answer names (clickhouse/021): 1 when it names the brand, and the
      // competitors it names (ids in text order), so the citation gap needs no read of the entity
      // rows. Derived with the rest of the analysis, so a re-analysis keeps it true.
      names_brand: 'UInt8',
      named_competitors: 'Array(UUID)',
    },
    generations: true,
    period: 'day',
    time: 'collected_at',
    models: true,
    prompts: true,
    dimensions: ['platform', 'domain', 'category', 'article_type'],
    source: 'answer',
  },
  shopping_cards: {
    columns: {
      card_id: 'UUID',
      answer_id: 'UUID',
      organization_id: 'UUID',
      brand_id: 'UUID',
      prompt_id: 'UUID',
      platform: 'LowCardinality(String)',
      model: 'LowCardinality(String)',
      region: 'LowCardinality(String)',
      day: 'Date',
      created_at: "DateTime64(3, 'UTC')",
      position: 'UInt16',
      product_title: 'String',
      product_brand: 'String',
      price_amount: 'Nullable(Float64)',
      price_currency: 'Nullable(String)',
      image_url: 'Nullable(String)',
      merchant_url: 'Nullable(String)',
      merchant_domain: 'Nullable(String)',
      rating: 'Nullable(Float64)',
      review_count: 'Nullable(UInt32)',
      raw: 'String',
      matched_brand_id: 'Nullable(UUID)',
      matched_brand_role: 'LowCardinality(String)',
    },
    generations: false,
    period: 'day',
    time: 'created_at',
    models: true,
    prompts: true,
    dimensions: ['platform', 'product_title', 'matched_brand_role', 'merchant_domain'],
    source: 'answer',
  },
} as const satisfies Record<string, FactTableSchema>;

/**
 * Tables rows are only ever appended to, written whole by the service (no `sign`): their columns,
 * types and order as the migrations leave them. Their writers take the column list and each row's
 * order from here; test/stores/fact-tables.test.ts checks the migrations agree.
 */
export const APPEND_SCHEMAS = {
  // AI crawler hits from server logs (clickhouse/014), written by src/traffic/crawlers/store.ts.
  ai_crawler_hits: {
    brand_id: 'UUID',
    ts: "DateTime64(3, 'UTC')",
    day: 'Date',
    bot_name: 'LowCardinality(String)',
    provider: 'LowCardinality(String)',
    bot_type: 'LowCardinality(String)',
    verification: 'LowCardinality(String)',
    method: 'LowCardinality(String)',
    host: 'String',
    path: 'String',
    status_code: 'UInt16',
    status_class: 'LowCardinality(String)',
    referer: 'String',
    bytes_sent: 'Nullable(UInt64)',
    duration_ms: 'Nullable(Float64)',
  },
} as const satisfies Record<string, Readonly<Record<string, ColumnType>>>;

/** The tables a read may name besides the fact tables: rollups, visits, crawler hits, verdicts. */
const READ_ONLY_SHAPES = {
  ai_visits: {
    generations: false,
    period: 'day',
    time: 'ts',
    models: false,
    prompts: false,
    dimensions: ['platform', 'path', 'country'],
  },
  // The visits summed per day for each breakdown (clickhouse/019: `dim` names it, `key` its value).
  ai_visits_daily: { generations: false, period: 'day', models: false, prompts: false, dimensions: ['dim'] },
  // AI crawler hits from server logs (clickhouse/014) and their daily rollup, which keeps no instant.
  ai_crawler_hits: {
    generations: false,
    period: 'day',
    time: 'ts',
    models: false,
    prompts: false,
    dimensions: ['bot_name', 'bot_type', 'verification', 'status_class', 'path'],
  },
  ai_crawler_daily: {
    generations: false,
    period: 'day',
    models: false,
    prompts: false,
    dimensions: ['bot_name', 'bot_type', 'verification', 'status_class'],
  },
  // The configured model's sentiment verdicts (clickhouse/016), read back by re-analysis per step of days.
  sentiment_verdicts: { generations: false, period: 'day', models: false, prompts: false, dimensions: [] },
  entity_daily: { generations: true, period: 'day', models: true, prompts: false, dimensions: ['platform'] },
  prompt_daily: { generations: true, period: 'day', models: false, prompts: true, dimensions: [] },
  // The same by month (clickhouse/018), for the whole months of prompt performance's ranges.
  prompt_monthly: { generations: true, period: 'month', models: false, prompts: true, dimensions: [] },
  citation_domains_monthly: {
    generations: true,
    period: 'month',
    models: false,
    prompts: false,
    dimensions: ['domain', 'category'],
  },
  citation_domain_models_monthly: {
    generations: true,
    period: 'month',
    models: true,
    prompts: false,
    dimensions: ['domain', 'category'],
  },
  citation_urls_monthly: {
    generations: true,
    period: 'month',
    models: false,
    prompts: false,
    dimensions: ['domain', 'category', 'article_type'],
  },
  // The same folded by calendar quarter (clickhouse/017), for the whole quarters of long ranges.
  citation_urls_quarterly: {
    generations: true,
    period: 'quarter',
    models: false,
    prompts: false,
    dimensions: ['domain', 'category', 'article_type'],
  },
} as const satisfies Record<string, ReadShape>;

/** Every table a scoped read may name, with how it may be filtered. */
export const READ_SHAPES = { ...FACT_SCHEMAS, ...READ_ONLY_SHAPES } as const satisfies Record<string, ReadShape>;

export type FactTable = keyof typeof FACT_SCHEMAS;
export const FACT_TABLES = Object.keys(FACT_SCHEMAS) as FactTable[];

/** A fact table's columns, `sign` apart, in their stored order (the order of a row's key). */
export type ColumnOf<T extends FactTable> = keyof (typeof FACT_SCHEMAS)[T]['columns'] & string;
export const columnsOf = <T extends FactTable>(table: T): readonly ColumnOf<T>[] =>
  Object.keys(FACT_SCHEMAS[table].columns) as ColumnOf<T>[];
export const columnTypesOf = (table: FactTable): readonly (readonly [string, ColumnType])[] =>
  Object.entries(FACT_SCHEMAS[table].columns);

/** A row of a fact table by column name: what a key is made of. Every column must be named. */
export type FactRow<T extends FactTable> = { readonly [C in ColumnOf<T>]: unknown };

/**
 * The way in for new answers (clickhouse/005_answer_rows_in.sql): an answers row, then the
 * answer's entity and citation rows as arrays of tuples holding only what differs from row to row
 * (the rest comes from the answers row), then their analysis generation. Three views fan it out
 * into the three tables; the tuples' fields are in the order the views read them (e.1, e.2, ...).
 */
export const ANSWER_ROWS_IN = {
  entity_rows: {
    table: 'answer_entities',
    fields: ['entity_id', 'is_brand', 'mentions', 'position', 'citations', 'score', 'sentiment', 'sentiment_score'],
  },
  citation_rows: {
    table: 'answer_citations',
    fields: [
      'url',
      'domain',
      'category',
      'article_type',
      'title',
      'domain_first',
      'group_first',
      'answer_first',
      'names_brand',
      'named_competitors',
    ],
  },
} as const satisfies Record<string, { table: FactTable; fields: readonly string[] }>;
