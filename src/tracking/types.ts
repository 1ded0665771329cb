// Shapes shared by analysis, ingestion and the capture engines.
// docs/api.md section 2 defines what each figure means; section 5 defines the answer file. The
// platforms and a brand's tracked entities are tenancy's (src/tenancy/tracked.ts): tenancy sets
// them up and tracking reads them, so they sit where tracking already imports from.
import type { Platform } from '../tenancy/tracked.ts';

export type AnswerMode = 'standard' | 'shopping';

export interface CitationInput {
  url: string;
  title?: string | null;
}

export interface ProductInput {
  position?: number;
  title?: string;
  brand?: string;
  price?: number | string | null;
  currency?: string | null;
  image_url?: string | null;
  merchant_url?: string | null;
  rating?: number | string | null;
  review_count?: number | string | null;
  [key: string]: unknown;
}

/** One captured answer, as the answer file (JSON Lines) or an engine delivers it. */
export interface AnswerInput {
  id?: string;
  prompt_id: string;
  platform: Platform;
  model: string;
  region: string;
  mode: AnswerMode;
  collected_at: string; // ISO 8601
  text: string;
  citations: CitationInput[];
  products: ProductInput[];
  /**
   * The web searches the platform ran before answering (docs/api.md section 12): null or absent when
   * unknown, [] when it answered without searching.
   */
  search_queries?: string[] | null;
  /**
   * Where the answer comes from, set by whoever hands it to ingestion after validation (the daily
   * capture, an import from another tracker); absent: an answer file's line (`source` import, the
   * model as the provider's, no adapter).
   */
  provenance?: Provenance;
}

/**
 * The sources figures count: Answerscope's own capture and answer files. Answers imported from
 * another tracker are kept apart (tracker-import.ts), for the agreement report.
 */
export const DEFAULT_SOURCES = ['capture', 'import'] as const;
/** A source's name: Answerscope's two, and a tracker's as its import gives it (--format). */
export const SOURCE_SLUG = /^[a-z][a-z0-9-]{0,39}$/;
/** The same as a condition on the answers table's `source`. */
export const DEFAULT_SOURCES_SQL = `source IN (${DEFAULT_SOURCES.map((s) => `'${s}'`).join(', ')})`;
/**
 * The condition a read of the answers table adds for its sources: none with a `source` filter
 * (the scope binds it), else the default sources.
 */
export const sourcesUnless = (f: { source?: string }): string | undefined =>
  f.source ? undefined : DEFAULT_SOURCES_SQL;

/** An answer's provenance as stored (clickhouse/022_provenance.sql, docs/metrics.md). */
export interface Provenance {
  /** The model string the provider reported, or the configured one where it reports none. */
  provider_model: string;
  /** The capture adapter's version; '' when Answerscope did not capture the answer. */
  engine_version: string;
  /** `capture`, `import`, or the tracker the answer was imported from. */
  source: string;
}

export type Category = 'you' | 'competitor' | 'editorial' | 'forum' | 'social' | 'review' | 'institutional' | 'other';
export type ArticleType =
  | 'listicle'
  | 'comparison'
  | 'review'
  | 'how_to'
  | 'news'
  | 'product'
  | 'homepage'
  | 'discussion'
  | 'documentation'
  | 'other';

/** The analysis of one answer for one entity. position is 0 when the entity is not named. */
export interface EntityFigures {
  entity_id: string;
  kind: 'brand' | 'competitor';
  mentions: number;
  position: number;
  citations: number;
  score: number;
}

/** One cited URL of an answer, de-duplicated by normalised URL within the answer. */
export interface CitationFigures {
  url: string; // normalised
  domain: string; // host, lower-case, no leading www.
  category: Category;
  article_type: ArticleType;
  title: string;
}

export type MatchedRole = 'own' | 'competitor' | 'other';

/** A shopping product card parsed from an answer's products[]. */
export interface CardFigures {
  position: number;
  product_title: string;
  product_brand: string;
  price_amount: number | null;
  price_currency: string | null;
  image_url: string | null;
  merchant_url: string | null;
  merchant_domain: string | null;
  rating: number | null;
  review_count: number | null;
  raw: Record<string, unknown>;
  matched_brand_id: string | null;
  matched_brand_role: MatchedRole;
}
