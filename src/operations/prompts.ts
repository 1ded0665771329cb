// Topics and prompts: what is tracked for a brand.
import { z } from 'zod';
import { operation } from './registry.ts';
import {
  brandId,
  commaList,
  dateRange,
  limit,
  oneOf,
  optionalBool,
  optionalText,
  optionalUuid,
  topicNotFound,
  sourceUnknown,
  sourceFilter,
} from './params.ts';
import { listPrompts, listTopics, promptTexts } from '../tenancy/prompts.ts';
import { describeBound, resolveFilters } from './analytics-filters.ts';
import { PromptPerformance } from './analytics-schemas.ts';
import { PROMPT_SORTS, promptBasis, promptFigures, sortPrompts } from '../analytics/prompt-performance.ts';
import { competitorsOf } from '../tenancy/brands.ts';
import { PLATFORMS } from '../tenancy/tracked.ts';
import { withAnalysisVersions } from './analysis-versions.ts';

const Topic = z.object({
  id: z.string().uuid(),
  name: z.string(),
  is_active: z.boolean(),
  prompt_count: z.number().int(),
  created_at: z.string(),
});

export const topics = operation({
  name: 'topics',
  method: 'GET',
  tool: 'list_topics',
  params: z.object({ brand_id: brandId }),
  result: z.array(Topic),
  description:
    'Lists the topics (groups of tracked prompts) of a brand, oldest first, with how many prompts each holds.',
  run: async (ctx, p) => listTopics(ctx.stores.pg, (await ctx.brand(p.brand_id)).id),
});

/** A tracked prompt as the API shows it (the list and the writes). */
export const Prompt = z.object({
  id: z.string().uuid(),
  text: z.string(),
  topic_id: z.string().uuid().nullable(),
  topic_name: z.string().nullable(),
  platforms: z.array(z.enum(PLATFORMS)),
  models: z.array(z.string()),
  regions: z.array(z.string()),
  is_active: z.boolean(),
  created_at: z.string(),
});

export const prompts = operation({
  name: 'prompts',
  method: 'GET',
  tool: 'list_prompts',
  errors: [topicNotFound],
  params: z.object({
    brand_id: brandId,
    topic_id: optionalUuid('topic_id').describe('Only prompts of this topic (UUID from list_topics)'),
    is_active: optionalBool('is_active'),
    limit: limit(1, 500, 100),
  }),
  result: z.array(Prompt),
  description: 'Lists the tracked prompts of a brand, newest first; filter by topic_id or is_active.',
  run: async (ctx, p) => {
    const brand = await ctx.brand(p.brand_id);
    return listPrompts(ctx.stores.pg, brand.id, { topicId: p.topic_id, isActive: p.is_active, limit: p.limit });
  },
});

export const promptPerformance = withAnalysisVersions(
  operation({
    name: 'prompt-performance',
    method: 'GET',
    tool: 'get_prompt_performance',
    metrics: true,
    errors: [topicNotFound, sourceUnknown],
    params: z.object({
      brand_id: brandId,
      ...dateRange,
      model: commaList('model'),
      region: optionalText('region', 64).describe('Region code, e.g. US'),
      source: sourceFilter,
      topic_id: optionalUuid('topic_id').describe('Only prompts of this topic (UUID from list_topics)'),
      sort_by: oneOf('sort_by', PROMPT_SORTS)
        .default('visibility')
        .describe(
          'visibility (default: avg_visibility), ai_visibility_score, mention_rate, mentions, citations, or ' +
            'appearances (answer count)',
        ),
      order: oneOf('order', ['desc', 'asc']).default('desc'),
      limit: limit(1, 100, 10).describe('1-100, default 10'),
    }),
    result: PromptPerformance,
    description:
      "Per tracked prompt with answers in range: answer count, the brand's mean visibility, mentions, " +
      "citations and the competitors' mean score. Sort ascending by ai_visibility_score (the score shown " +
      "beside the best competitor's) to find the prompts where the brand is weakest.",
    run: async (ctx, p) => {
      const { brand, filters } = await resolveFilters(ctx, p);
      const [figures, texts] = await Promise.all([
        ctx.cached(brand, ['prompt-figures', filters], () => promptFigures(ctx.stores.ch, filters), filters.to),
        promptTexts(ctx.stores.pg, brand.id),
      ]);
      const rows = figures
        .filter((f) => texts.has(f.prompt_id))
        .map((f) => ({
          ...f,
          prompt_text: texts.get(f.prompt_id)!.text,
          topic_name: texts.get(f.prompt_id)!.topic_name,
        }));
      const listed = sortPrompts(rows, p.sort_by, p.order).slice(0, p.limit);
      const ids = listed.map((r) => r.prompt_id);
      const basis = await ctx.cached(
        brand,
        ['prompt-basis', filters, ids],
        async () =>
          Object.fromEntries(
            await promptBasis(ctx.stores.ch, filters, ids, await competitorsOf(ctx.stores.pg, brand.id)),
          ),
        filters.to,
      );
      return {
        brand: { id: brand.id, name: brand.name },
        window: { dateFrom: describeBound(p.date_from, false), dateTo: describeBound(p.date_to, true) },
        prompts: listed.map((r) => ({
          prompt_id: r.prompt_id,
          prompt_text: r.prompt_text,
          topic_name: r.topic_name,
          result_count: r.result_count,
          avg_visibility: r.avg_visibility,
          total_mentions: r.total_mentions,
          total_citations: r.total_citations,
          avg_competitor_score: r.avg_competitor_score,
          ai_visibility_score: r.ai_visibility_score,
          mention_rate: r.mention_rate,
          ...basis[r.prompt_id],
        })),
      };
    },
  }),
);
