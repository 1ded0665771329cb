// The answers explorer (docs/api.md section 11): the stored AI answers behind the figures, each with
// the analysis the figures count, listed newest first with cursor paging, and one by id.
//
// Not cached: a page is a bounded read (at most 101 keys, then 100 answers and their rows by id),
// its body holds whole answer texts that would crowd the figures out of the result cache, and a
// reader walking pages wants what is stored now.
import { z } from 'zod';
import { operation, type Ctx } from './registry.ts';
import {
  commaList,
  cursor,
  limit,
  optionalBool,
  optionalOneOf,
  optionalText,
  pathId,
  promptFilter,
  promptNotFound,
  topicFilters,
  topicNotFound,
  sourceUnknown,
} from './params.ts';
import { resolveFilters } from './analytics-filters.ts';
import { answerById, answerPage, type AnswerFilters } from '../analytics/answers.ts';
import { trackedForms } from '../analytics/untracked-brands.ts';
import { brandEntities, type BrandRecord } from '../tenancy/brands.ts';
import { PLATFORMS } from '../tenancy/tracked.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { UUID_RE } from '../uuid.ts';
import { normaliseDomain, normaliseUrl } from '../tracking/analysis/urls.ts';

export const ANSWER_NOT_FOUND = 'Answer not found';
/** Malformed, or an id that is not one of the brand's competitors (another brand's included). */
export const MENTIONED_INVALID = 'mentioned must be brand, none or a competitor id of the brand';
/**
 * A well-formed id that is not one of the brand's competitors: unknown, or another brand's
 * (SPEC: 404 names the resource).
 */
export const COMPETITOR_NOT_FOUND = 'Competitor not found';
export const DOMAIN_INVALID = 'domain must be a domain, e.g. example.com';
export const URL_INVALID = 'url must be an http(s) URL, e.g. https://example.com/page';
export const CITED_INVALID = 'cited must be brand or a competitor id of the brand';
export const SENTIMENT_NEEDS_ENTITY = 'sentiment needs mentioned: brand or a competitor id';

const AnswerEntity = z.object({
  entity_id: z.string().uuid(),
  name: z.string(),
  is_brand: z.boolean(),
  mentions: z.number().int(),
  position: z.number().int().nullable().describe('Rank by first mention among the entities named; null when not named'),
  citations: z.number().int().describe("The answer's citations on the entity's domains"),
  score: z.number().describe('Per-answer visibility score, 0-100, 1 decimal'),
  sentiment: z
    .enum(['positive', 'neutral', 'negative'])
    .nullable()
    .describe('How the sentences naming the entity speak of it; null when the answer does not name it'),
});

const AnswerCitation = z.object({
  url: z.string().describe('Normalised URL'),
  domain: z.string(),
  category: z.string(),
  article_type: z.string(),
  title: z.string(),
});

export const Answer = z.object({
  id: z.string().uuid(),
  prompt_id: z.string().uuid(),
  prompt_text: z.string().nullable(),
  platform: z.string(),
  model_used: z.string(),
  region: z.string(),
  mode: z.enum(['standard', 'shopping']),
  collected_at: z.string(),
  text: z.string(),
  entities: z
    .array(AnswerEntity)
    .describe('Every tracked entity, brand first; empty for shopping answers, which are not analysed'),
  citations: z.array(AnswerCitation).describe("The answer's first citation first, then by URL"),
  search_queries: z
    .array(z.string())
    .nullable()
    .describe('Web searches the platform ran; null when unknown, [] when it answered without searching'),
  provider_model: z
    .string()
    .describe('The model string the provider reported, or the configured one where it reports none'),
  engine_version: z
    .string()
    .nullable()
    .describe("The capture adapter's version, e.g. openai/1; null when Answerscope did not capture the answer"),
  analysis_version: z
    .string()
    .nullable()
    .describe(
      'The analysis its entity and citation rows come from (re-analysis changes it); null for shopping answers',
    ),
  source: z
    .string()
    .describe('capture (the daily capture), import (answerscope ingest), or the tracker it was imported from'),
});

const AnswerList = z.object({
  answers: z.array(Answer),
  total: z.number().int().describe('Answers matching the filters, on every page (before paging)'),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
});

/** The brand's entities as the analysis reads them: brand first, then competitors in workspace order. */
const entitiesOf = (ctx: Ctx, brand: BrandRecord) => brandEntities(ctx.stores.pg, brand);

export const answers = operation({
  name: 'answers',
  method: 'GET',
  tool: 'list_answers',
  metrics: true,
  errors: [
    topicNotFound,
    sourceUnknown,
    promptNotFound,
    { status: 404, message: COMPETITOR_NOT_FOUND },
    { status: 400, message: MENTIONED_INVALID },
    { status: 400, message: DOMAIN_INVALID },
    { status: 400, message: URL_INVALID },
    { status: 400, message: CITED_INVALID },
    { status: 400, message: SENTIMENT_NEEDS_ENTITY },
  ],
  params: z.object({
    ...topicFilters,
    model: commaList('model').describe('Comma-separated model_used values'),
    prompt_id: promptFilter,
    platform: optionalOneOf('platform', PLATFORMS),
    mode: optionalOneOf('mode', ['standard', 'shopping']).describe('standard (default) or shopping'),
    mentioned: optionalText('mentioned', 64).describe(
      'brand: answers naming the brand; a competitor id: naming that competitor; none: naming no tracked entity',
    ),
    domain: optionalText('domain', 253).describe(
      'Answers citing this domain (as list_citations and get_citation_gap give it, e.g. example.com; www. and ' +
        'case do not matter)',
    ),
    url: optionalText('url', 2048).describe(
      'Answers citing this page (a URL as list_citations and get_citation_gap give it; normalised as citations ' +
        'are stored)',
    ),
    cited: optionalText('cited', 64).describe(
      "brand: answers citing one of the brand's domains; a competitor id: citing one of that competitor's",
    ),
    sentiment: optionalOneOf('sentiment', ['positive', 'neutral', 'negative']).describe(
      "With mentioned (brand or a competitor id): that entity's sentiment in the answer",
    ),
    q: optionalText('q', 200).describe('Words the answer text contains, all of them, case-insensitive'),
    untracked: optionalText('untracked', 1000).describe(
      'A name as get_untracked_brands lists it: exactly the answers it counts for that name (standard and ' +
        'shopping answers unless mode is given)',
    ),
    gap: optionalBool('gap').describe(
      "true: the citation gap's answers only, naming a competitor (the mentioned one, if given) and not the brand",
    ),
    limit: limit(1, 100, 20).describe('1-100, default 20'),
    cursor: cursor(),
  }),
  result: AnswerList,
  description:
    "The AI answers collected for the brand's prompts, newest first: text, platform, model, region, and per " +
    "tracked entity the mentions, position, citations and score the figures count, with the answer's " +
    'classified citations. Filter by date, model, region, topic, prompt, platform, mode, mentioned (brand, a ' +
    'competitor id, none) with its sentiment, cited (brand or a competitor id), cited domain, cited page ' +
    "(url), words of the text (q), the citation gap's answers (gap) and an untracked brand's answers " +
    '(untracked, as get_untracked_brands counts them). total counts every match; page with cursor.',
  run: async (ctx, p) => {
    const { brand, filters } = await resolveFilters(ctx, p);
    const entities = await entitiesOf(ctx, brand);
    const mentioned = mentionedEntity(p.mentioned, brand, entities);
    if (p.sentiment && (!mentioned || mentioned === 'none')) throw badRequest(SENTIMENT_NEEDS_ENTITY);
    const words = p.q?.split(/\s+/).filter(Boolean);
    const f: AnswerFilters = {
      ...filters,
      platform: p.platform,
      // untracked-brands counts shopping cards' brands too: its answers are of both modes unless one is asked for.
      mode: p.mode ?? (p.untracked === undefined ? 'standard' : undefined),
      mentioned,
      domain: citedDomain(p.domain),
      url: citedUrl(p.url),
      cited: citedEntity(p.cited, brand, entities),
      sentiment: p.sentiment,
      words: words?.length ? words : undefined,
      gap: p.gap,
      untracked: p.untracked === undefined ? undefined : { name: p.untracked, trackedForms: trackedForms(entities) },
    };
    const page = await answerPage(
      ctx.stores.ch,
      ctx.stores.pg,
      f,
      { entities },
      { limit: p.limit, cursor: p.cursor, total: true },
    );
    return { answers: page.answers, total: page.total ?? 0, next_cursor: page.next_cursor };
  },
});

/** `domain` as citations store it (lower case, no `www.`), or nothing; a value with no host in it is a 400. */
function citedDomain(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const domain = normaliseDomain(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
  if (!domain) throw badRequest(DOMAIN_INVALID);
  return domain;
}

/** `url` as citations store it (normaliseUrl, as analysis does), or nothing; not an http(s) URL is a 400. */
function citedUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const url = normaliseUrl(value);
  if (!url) throw badRequest(URL_INVALID);
  return url;
}

/** `cited` as an entity id (`brand` is the brand's own id), or nothing. */
function citedEntity(
  value: string | undefined,
  brand: BrandRecord,
  entities: { id: string; kind: string }[],
): string | undefined {
  if (value === undefined) return undefined;
  if (value === 'brand') return brand.id;
  const id = value.toLowerCase();
  if (!UUID_RE.test(id)) throw badRequest(CITED_INVALID);
  if (!entities.some((e) => e.kind === 'competitor' && e.id === id)) throw notFound(COMPETITOR_NOT_FOUND);
  return id;
}

/** `mentioned` as an entity id (`brand` is the brand's own id), `none`, or nothing. */
function mentionedEntity(
  value: string | undefined,
  brand: BrandRecord,
  entities: { id: string; kind: string }[],
): string | undefined {
  if (value === undefined) return undefined;
  if (value === 'brand') return brand.id;
  if (value === 'none') return 'none';
  const id = value.toLowerCase();
  if (!UUID_RE.test(id)) throw badRequest(MENTIONED_INVALID);
  if (!entities.some((e) => e.kind === 'competitor' && e.id === id)) throw notFound(COMPETITOR_NOT_FOUND);
  return id;
}

export const answer = operation({
  name: 'answer',
  method: 'GET',
  path: '/answers/:id',
  tool: 'get_answer',
  idArg: 'answer_id',
  errors: [{ status: 404, message: ANSWER_NOT_FOUND }],
  params: z.object({
    id: pathId('answer_id').describe('The answer (UUID), as list_answers returns it'),
  }),
  result: Answer,
  description:
    'One AI answer by id: its text, prompt, platform, model, region, and per tracked entity the mentions, ' +
    'position, citations and score the figures count, with its classified citations.',
  run: async (ctx, p) => {
    // A malformed id names no answer: the same 404 as an unknown one or another organization's.
    const found = UUID_RE.test(p.id)
      ? await answerById(ctx.stores.ch, ctx.stores.pg, p.id.toLowerCase(), async (brandId) => {
          const brand = await ctx.brand(brandId).catch((err: unknown) => {
            if (err instanceof ApiError && err.status === 404) return undefined;
            throw err;
          });
          if (!brand) return undefined;
          return { brandId: brand.id, generation: brand.analysis_generation, entities: await entitiesOf(ctx, brand) };
        })
      : undefined;
    if (!found) throw notFound(ANSWER_NOT_FOUND);
    return found;
  },
});

/** The list before the `:id` route (nothing else lives under /answers/). */
export const answerOperations = [answers, answer];
