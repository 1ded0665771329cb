// The answers explorer (docs/api.md section 11): stored answers, newest first, each with exactly
// the analysis the figures are computed from. Entity and citation values are the live
// generation's stored rows (sign-summed, so a replaced answer's cancelled rows add nothing), never
// a recomputation: a user reading the answers behind a figure sees what was counted.
//
// Paging is keyset on (collected_at, answer_id), both descending: a page starts strictly after the
// previous page's last pair, so answers sharing an instant are neither skipped nor repeated, and an
// answer ingested meanwhile lands either before the first page (newer) or at its one place in the
// order. A re-import with the same id keeps its place when its instant is unchanged (FINAL
// collapses its old and new rows into one); one that moves the answer to another instant moves it.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Queryable } from '../stores/postgres.ts';
import {
  chTime,
  select,
  storedAnswerPlaces,
  type PlainFilters,
  type ScopedQuery,
  type BrandId,
} from '../stores/scoped-query.ts';
import { encodeCursor, type PageCursor } from '../cursor.ts';
import { promptsById } from '../tenancy/prompts.ts';
import { type AnswerMode, sourcesUnless } from '../tracking/types.ts';
import type { Entity } from '../tenancy/tracked.ts';
import { polarityOfValue, type Polarity } from '../tracking/analysis/sentiment/entity-sentiment.ts';
import { round } from './formulas.ts';
import { analysisVersion } from './analysis-version.ts';
import { untrackedMentions } from './untracked-brands.ts';

/** One tracked entity's analysis of an answer. */
export interface AnswerEntity {
  entity_id: string;
  name: string;
  is_brand: boolean;
  mentions: number;
  position: number | null;
  citations: number;
  score: number;
  sentiment: Polarity | null;
}

export interface AnswerCitation {
  url: string;
  domain: string;
  category: string;
  article_type: string;
  title: string;
}

export interface Answer {
  id: string;
  prompt_id: string;
  prompt_text: string | null;
  platform: string;
  model_used: string;
  region: string;
  mode: AnswerMode;
  collected_at: string;
  text: string;
  entities: AnswerEntity[];
  citations: AnswerCitation[];
  search_queries: string[] | null;
  provider_model: string;
  engine_version: string | null;
  analysis_version: string | null;
  source: string;
}

/** Which answers a list reads: one brand's, with the request's filters. */
export interface AnswerFilters extends PlainFilters {
  /** The brand's live analysis generation (where entity and citation rows are read). */
  generation: number;
  platform?: string;
  /** Unset: both modes (the export). */
  mode?: AnswerMode;
  /** An entity id (the brand's own id for `brand`): answers naming it; `none`: naming no entity. */
  mentioned?: string;
  /** A cited domain, exactly as stored (lower case, no `www.`): answers citing it. */
  domain?: string;
  /** A cited URL, normalised as citations store it: answers citing that page. */
  url?: string;
  /** An entity id: answers citing one of its domains (its entity row counts citations). */
  cited?: string;
  /** With `mentioned` (an entity): that entity's sentiment in the answer (section 13's verdict). */
  sentiment?: Polarity;
  /** Words the text contains, all of them, case-insensitive. */
  words?: string[];
  /** Gap answers only: naming a competitor (the `mentioned` one, if any) and not the brand. */
  gap?: boolean;
  /** Answers untracked-brands counts for this name (exactly as it lists it), the tracked forms left out. */
  untracked?: { name: string; trackedForms: string[] };
}

/** Stored sentiment values (clickhouse/015_sentiment.sql). */
const SENTIMENT_VALUE: Record<Polarity, number> = { positive: 1, neutral: 0, negative: -1 };

/** What an answer is read against: the brand's entities, brand first then competitors as analysed. */
export interface AnswerContext {
  entities: readonly Pick<Entity, 'id' | 'name' | 'kind'>[];
}

interface AnswerRow {
  answer_id: string;
  prompt_id: string;
  platform: string;
  model: string;
  region: string;
  mode: AnswerMode;
  collected_at: string;
  day: string;
  text: string;
  search_queries: string[];
  search_queries_known: number;
  provider_model: string;
  engine_version: string;
  source: string;
}

interface EntityRow {
  answer_id: string;
  entity_id: string;
  mentions: number;
  position: number;
  citations: number;
  score: number;
  /** 1 positive, 0 neutral, -1 negative (clickhouse/015_sentiment.sql); meaningful where named. */
  sentiment: number;
}

interface CitationRow extends AnswerCitation {
  answer_id: string;
  answer_first: number;
}

const ANSWER_COLUMNS =
  'answer_id, prompt_id, platform, model, region, mode, collected_at, day, text, search_queries, ' +
  'search_queries_known, provider_model, engine_version, source';

/** The per-entity sentiment of an answer as stored; null where the entity is not named. */
export function storedSentiment(row: EntityRow | undefined): Polarity | null {
  if (!row || Number(row.mentions) === 0) return null;
  return polarityOfValue(row.sentiment);
}

/** The answers a list shows: live rows of the filter's source, else of the sources figures count. */
const listed = (f: { source?: string }) => ['sign = 1', sourcesUnless(f)].filter(Boolean).join(' AND ');

/** Live answers of the filters: FINAL collapses each answer's +1/-1 rows (its own sort key). */
function liveAnswers(f: AnswerFilters) {
  const {
    generation: _g,
    platform,
    mode,
    mentioned,
    domain,
    url,
    cited,
    sentiment,
    words,
    gap,
    untracked,
    ...scope
  } = f;
  // Each condition is a read over the analysis rows; a select takes one IN, so they nest, innermost first.
  const builders: ((inner?: AnswerCondition) => AnswerCondition)[] = [];
  if (mentioned) builders.push((inner) => mentionedIn(scope, f.generation, mentioned, sentiment, inner));
  if (cited) builders.push((inner) => citedIn(scope, f.generation, cited, inner));
  if (gap) builders.push((inner) => gapIn(scope, f.generation, inner));
  if (domain) builders.push((inner) => citingIn(scope, f.generation, domain, inner));
  if (url) builders.push((inner) => citingUrlIn(scope, f.generation, url, inner));
  if (untracked) builders.push((inner) => untrackedIn(scope, untracked, inner));
  const condition = builders.reduceRight<AnswerCondition | undefined>((inner, build) => build(inner), undefined);
  const text = (words ?? []).map((_, i) => `positionCaseInsensitiveUTF8(text, {word${i}:String}) > 0`);
  return {
    source: { table: 'answers' as const, scope, final: true, eq: { platform, mode } },
    in: condition,
    where: [listed(f), ...text].join(' AND '),
    params: Object.fromEntries((words ?? []).map((w, i) => [`word${i}`, w])),
  };
}

type AnswerCondition = { column: string; query: ScopedQuery; not: boolean };
type Scope = Omit<PlainFilters, 'generation'>;

/** The answers whose live rows of `table` (one row group per answer) pass `having`, within `inner`. */
function answersWhere(
  table: 'answer_entities' | 'answer_citations',
  scope: Scope,
  generation: number,
  clauses: { where?: string; having: string; params?: Record<string, unknown> },
  inner?: AnswerCondition,
  not = false,
): AnswerCondition {
  const query = select(
    { table, scope: { ...scope, generation } },
    { select: 'answer_id', groupBy: 'answer_id', ...clauses, in: inner },
  );
  return { column: 'answer_id', query, not };
}

/** The answers citing the domain: its live citation rows sum positive by sign. */
const citingIn = (scope: Scope, generation: number, domain: string, inner?: AnswerCondition) =>
  answersWhere(
    'answer_citations',
    scope,
    generation,
    { where: 'domain = {citedDomain:String}', having: 'sum(sign) > 0', params: { citedDomain: domain } },
    inner,
  );

/**
 * The answers citing the page: its live citation rows sum positive by sign. Matched by url_hash, the
 * column citations and citation-gap group a page's count by, so the list is exactly what they count.
 */
const citingUrlIn = (scope: Scope, generation: number, url: string, inner?: AnswerCondition) =>
  answersWhere(
    'answer_citations',
    scope,
    generation,
    { where: 'url_hash = cityHash64({citedUrl:String})', having: 'sum(sign) > 0', params: { citedUrl: url } },
    inner,
  );

/**
 * The answers naming the entity (or, for `none`, naming any: they are excluded), from the live
 * entity rows: an answer's mentions of an entity are the sign-weighted sum of its rows. With a
 * sentiment, only those where the entity's live row holds that verdict.
 */
function mentionedIn(
  scope: Scope,
  generation: number,
  mentioned: string,
  sentiment: Polarity | undefined,
  inner?: AnswerCondition,
): AnswerCondition {
  if (mentioned === 'none') {
    // Excluded answers: an inner condition cannot apply to them, so it goes on the answers' side.
    const named = answersWhere(
      'answer_entities',
      scope,
      generation,
      { having: 'sum(sign * mentions) > 0' },
      undefined,
      true,
    );
    return inner ? { ...inner, query: select(inner.query, { select: 'answer_id', in: named }) } : named;
  }
  const felt = sentiment ? ' AND sum(sign * sentiment) = {sentimentValue:Int8}' : '';
  return answersWhere(
    'answer_entities',
    scope,
    generation,
    {
      where: 'entity_id = {mentionedEntity:UUID}',
      having: `sum(sign * mentions) > 0${felt}`,
      params: { mentionedEntity: mentioned, ...(sentiment ? { sentimentValue: SENTIMENT_VALUE[sentiment] } : {}) },
    },
    inner,
  );
}

/** The answers citing one of the entity's domains: its live row counts citations. */
const citedIn = (scope: Scope, generation: number, entity: string, inner?: AnswerCondition) =>
  answersWhere(
    'answer_entities',
    scope,
    generation,
    { where: 'entity_id = {citedEntity:UUID}', having: 'sum(sign * citations) > 0', params: { citedEntity: entity } },
    inner,
  );

/** Gap answers: a competitor named, the brand not (the citation gap's, docs/metrics.md). */
const gapIn = (scope: Scope, generation: number, inner?: AnswerCondition) =>
  answersWhere(
    'answer_entities',
    scope,
    generation,
    { having: 'sumIf(sign * mentions, is_brand = 1) <= 0 AND sumIf(sign * mentions, is_brand = 0) > 0' },
    inner,
  );

/** The answers untracked-brands counts for the name: its (answer, name) pairs, read as the count reads them. */
const untrackedIn = (scope: Scope, u: NonNullable<AnswerFilters['untracked']>, inner?: AnswerCondition) => ({
  column: 'answer_id',
  query: select(untrackedMentions(scope, u.trackedForms), {
    select: 'answer_id',
    where: 'brand_name = {untrackedName:String}',
    params: { untrackedName: u.name },
    in: inner,
  }),
  not: false,
});

/** The page's keys: (collected_at, answer_id) strictly after the cursor, newest first. */
async function pageKeys(ch: ClickHouse, f: AnswerFilters, limit: number, after?: PageCursor) {
  const live = liveAnswers(f);
  // The day bound lets the primary key skip the days the previous pages covered.
  // Ids compare as their text: ClickHouse orders UUID values by their halves, not as written.
  const keyset =
    "day <= {cDay:Date} AND (collected_at, toString(answer_id)) < ({cAt:DateTime64(3, 'UTC')}, {cId:String})";
  const cursor = after ? { cDay: after.at.slice(0, 10), cAt: chTime(after.at), cId: after.id } : {};
  return ch.rows<{ answer_id: string; day: string; collected_at: string }>(
    select(live.source, {
      select: 'answer_id, day, collected_at',
      where: after ? `${live.where} AND ${keyset}` : live.where,
      in: live.in,
      orderBy: 'collected_at DESC, toString(answer_id) DESC',
      limit: '{limit:UInt32}',
      params: { ...live.params, ...cursor, limit },
    }),
  );
}

/** How many answers match the filters, on every page. */
async function answerTotal(ch: ClickHouse, f: AnswerFilters): Promise<number> {
  const live = liveAnswers(f);
  const [row] = await ch.rows<{ total: number }>(
    select(live.source, { select: 'count() AS total', where: live.where, in: live.in, params: live.params }),
  );
  return Number(row?.total ?? 0);
}

/** How many answers each day of the filters holds, newest day first (the export plans its reads by them). */
export function answerDays(ch: ClickHouse, f: AnswerFilters) {
  const live = liveAnswers(f);
  return ch.rows<{ day: string; answers: number }>(
    select(live.source, {
      select: 'day, count() AS answers',
      where: live.where,
      in: live.in,
      params: live.params,
      groupBy: 'day',
      orderBy: 'day DESC',
    }),
  );
}

/** The answers of these ids in one brand (its scope alone: the ids were found in it). */
function answersByIds(brandId: BrandId, ids: string[], days: string[]) {
  return select(
    { table: 'answers', scope: { brandId }, final: true },
    {
      select: ANSWER_COLUMNS,
      where: 'sign = 1 AND day IN {days:Array(Date)} AND answer_id IN {ids:Array(UUID)}',
      params: { ids, days },
    },
  );
}

/** The live entity and citation rows of these answers, in the brand's live generation. */
async function analysisRows(ch: ClickHouse, brandId: BrandId, generation: number, answers: AnswerRow[]) {
  if (!answers.length) return { entities: [], citations: [] };
  const scope = { brandId, generation };
  const where = 'day IN {days:Array(Date)} AND answer_id IN {ids:Array(UUID)}';
  const params = { ids: answers.map((a) => a.answer_id), days: [...new Set(answers.map((a) => a.day))] };
  const [entities, citations] = await Promise.all([
    ch.rows<EntityRow>(
      select(
        { table: 'answer_entities', scope },
        {
          select: 'answer_id, entity_id, mentions, position, citations, score, sentiment',
          where,
          groupBy: 'answer_id, entity_id, mentions, position, citations, score, sentiment',
          having: 'sum(sign) > 0',
          params,
        },
      ),
    ),
    ch.rows<CitationRow>(
      select(
        { table: 'answer_citations', scope },
        {
          select: 'answer_id, url, domain, category, article_type, title, answer_first',
          where,
          groupBy: 'answer_id, url, domain, category, article_type, title, answer_first',
          having: 'sum(sign) > 0',
          // The analysis keeps which citation came first, not the order of the rest.
          orderBy: 'answer_id, answer_first DESC, url',
          params,
        },
      ),
    ),
  ]);
  return { entities, citations };
}

function groupBy<T extends { answer_id: string }>(rows: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const list = out.get(r.answer_id);
    if (list) list.push(r);
    else out.set(r.answer_id, [r]);
  }
  return out;
}

/**
 * Answer objects from stored rows. Every tracked entity is listed, brand first: the brand has a
 * row for every analysed answer and a competitor only where named or cited, so a missing row is
 * zeros (docs/metrics.md). A shopping answer has no analysis rows at all (it never counts in the
 * visibility figures), so its entities and citations are empty lists.
 */
async function assemble(
  ch: ClickHouse,
  pg: Queryable,
  ctx: AnswerContext & { brandId: BrandId; generation: number },
  rows: AnswerRow[],
): Promise<Answer[]> {
  const [{ entities, citations }, prompts] = await Promise.all([
    analysisRows(ch, ctx.brandId, ctx.generation, rows),
    rows.length ? promptsById(pg, [...new Set(rows.map((r) => r.prompt_id))]) : new Map(),
  ]);
  const entitiesOf = groupBy(entities);
  const citationsOf = groupBy(citations);
  return rows.map((r) => {
    const stored = new Map((entitiesOf.get(r.answer_id) ?? []).map((e) => [e.entity_id, e]));
    const analysed = r.mode !== 'shopping';
    return {
      id: r.answer_id,
      prompt_id: r.prompt_id,
      // A prompt is never deleted while its brand exists; null only if one ever were.
      prompt_text: prompts.get(r.prompt_id)?.text ?? null,
      platform: r.platform,
      model_used: r.model,
      region: r.region,
      mode: r.mode,
      collected_at: new Date(r.collected_at).toISOString(),
      text: r.text,
      entities: analysed ? ctx.entities.map((e) => entityOf(e, stored.get(e.id))) : [],
      citations: (citationsOf.get(r.answer_id) ?? []).map(({ url, domain, category, article_type, title }) => ({
        url,
        domain,
        category,
        article_type,
        title,
      })),
      search_queries: r.search_queries_known ? r.search_queries : null,
      provider_model: r.provider_model,
      engine_version: r.engine_version || null,
      // The analysis its rows come from: the brand's generation they were read in (re-analysis
      // makes the next one); a shopping answer has none.
      analysis_version: analysed ? analysisVersion(ctx.generation) : null,
      source: r.source,
    };
  });
}

/**
 * The score as the figures present a mean of per-answer scores: 1 decimal, half up (avgVisibility
 * over this one answer). Stored unrounded; 63.74999999999999 (named fourth) shows as 63.8.
 */
function entityOf(e: Pick<Entity, 'id' | 'name' | 'kind'>, row: EntityRow | undefined): AnswerEntity {
  return {
    entity_id: e.id,
    name: e.name,
    is_brand: e.kind === 'brand',
    mentions: row ? Number(row.mentions) : 0,
    position: row && Number(row.position) > 0 ? Number(row.position) : null,
    citations: row ? Number(row.citations) : 0,
    score: row ? round(Number(row.score), 1) : 0,
    sentiment: storedSentiment(row),
  };
}

export interface AnswerPage {
  answers: Answer[];
  next_cursor: string | null;
  /** Answers matching the filters before paging (asked for with `total`; the export does not). */
  total?: number;
}

/** One page of the brand's answers, newest first. */
export async function answerPage(
  ch: ClickHouse,
  pg: Queryable,
  f: AnswerFilters,
  ctx: AnswerContext,
  page: { limit: number; cursor?: PageCursor; total?: boolean },
): Promise<AnswerPage> {
  // One more key than asked says whether another page follows; the total counts every page.
  const [keys, total] = await Promise.all([
    pageKeys(ch, f, page.limit + 1, page.cursor),
    page.total ? answerTotal(ch, f) : undefined,
  ]);
  const mine = keys.slice(0, page.limit);
  const rows = mine.length
    ? await ch.rows<AnswerRow>(
        answersByIds(
          f.brandId,
          mine.map((k) => k.answer_id),
          [...new Set(mine.map((k) => k.day))],
        ),
      )
    : [];
  // In the keys' order; an answer replaced between the two reads is dropped rather than shown stale.
  const byId = new Map(rows.map((r) => [r.answer_id, r]));
  const ordered = mine.map((k) => byId.get(k.answer_id)).filter((r): r is AnswerRow => r !== undefined);
  const answers = await assemble(ch, pg, { ...ctx, brandId: f.brandId, generation: f.generation }, ordered);
  // From the last key, shown or dropped: the next page starts after it either way.
  const last = mine[mine.length - 1];
  return {
    answers,
    ...(total === undefined ? {} : { total }),
    next_cursor:
      keys.length > page.limit
        ? encodeCursor({ at: new Date(last.collected_at).toISOString(), id: last.answer_id })
        : null,
  };
}

/**
 * One answer by id, wherever it is stored, if its brand passes `allowed` (the caller's tenancy).
 * The answer's brand is found by the one unscoped look-up (storedAnswerPlaces: brand and day,
 * never facts); the answer itself is then read inside that brand's scope.
 */
export async function answerById(
  ch: ClickHouse,
  pg: Queryable,
  id: string,
  brandOf: (brandId: string) => Promise<(AnswerContext & { brandId: BrandId; generation: number }) | undefined>,
): Promise<Answer | undefined> {
  const places = await ch.rows<{ brand_id: string; day: string }>(storedAnswerPlaces([id]));
  for (const brandId of new Set(places.map((p) => p.brand_id))) {
    const brand = await brandOf(brandId);
    if (!brand) continue;
    const days = places.filter((p) => p.brand_id === brandId).map((p) => p.day);
    // Read in the scope of the brand as resolved (the caller's), never of the id the look-up found.
    const rows = await ch.rows<AnswerRow>(answersByIds(brand.brandId, [id], days));
    if (rows.length) return (await assemble(ch, pg, brand, rows.slice(0, 1)))[0];
  }
  return undefined;
}
