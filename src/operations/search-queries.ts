// The web searches the AI platforms ran before answering the brand's prompts (their fan-out):
// how often they searched and which queries came up most (CONTRACT.md section 12; docs/metrics.md
// "Search queries").
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, commaList, dateRange, limit, optionalText, optionalUuid, topicNotFound } from './params.ts';
import { resolveFilters } from './analytics-filters.ts';
import { notFound } from '../errors.ts';
import { promptsById } from '../tenancy/prompts.ts';
import { searchQueries as figures } from '../analytics/search-queries.ts';

const PROMPT_NOT_FOUND = 'Prompt not found';

const int = z.number().int();

export const SearchQueries = z.object({
  totals: z.object({
    answers: int.describe('Answers in range (shopping answers excluded)'),
    answers_known: int.describe(
      'Answers whose searches are known (captured from an API that reports them, or imported with search_queries)',
    ),
    answers_with_search: int.describe('Answers known to have run at least one search'),
    trigger_rate: z
      .number()
      .nullable()
      .describe("answers_with_search / answers_known x 100, 1 decimal; null when no answer's searches are known"),
    queries: int.describe('Distinct normalised queries per answer, summed over the answers with search'),
    avg_queries_per_search: z
      .number()
      .nullable()
      .describe('queries / answers_with_search, 2 decimals; null when no answer searched'),
  }),
  top_queries: z
    .array(
      z.object({
        query: z.string().describe('Lower-cased, runs of whitespace collapsed to one space, trimmed'),
        answers: int.describe('Answers that ran the query'),
        platforms: z.array(z.string()).describe('Platforms of those answers, sorted'),
        brand_named_pct: z.number().describe('Share of those answers naming the brand, percent, 1 decimal'),
      }),
    )
    .describe('By answers descending, then query'),
});

export const searchQueries = operation({
  name: 'search-queries',
  method: 'GET',
  tool: 'list_search_queries',
  metrics: true,
  errors: [topicNotFound, { status: 404, message: PROMPT_NOT_FOUND }],
  params: z.object({
    brand_id: brandId,
    ...dateRange,
    model: commaList('model').describe('Comma-separated model_used values'),
    region: optionalText('region', 64).describe('Region code, e.g. US'),
    topic_id: optionalUuid('topic_id').describe('Only answers to prompts of this topic (see list_topics)'),
    prompt_id: optionalUuid('prompt_id').describe('Only answers to this prompt (see list_prompts)'),
    limit: limit(1, 200, 50).describe('Top queries to list: 1-200, default 50'),
  }),
  result: SearchQueries,
  description:
    "The web searches AI platforms ran before answering the brand's prompts (query fan-out): how many answers searched (trigger_rate, over the answers whose searches are known), queries per search, and the most frequent queries with the platforms that ran them and how often those answers name the brand. Use it to see which searches a page must rank for. Filter by date, model, region, topic and prompt.",
  run: async (ctx, p) => {
    const { brand, filters } = await resolveFilters(ctx, p);
    if (p.prompt_id) {
      const prompt = (await promptsById(ctx.stores.pg, [p.prompt_id])).get(p.prompt_id);
      if (prompt?.brand_id !== brand.id) throw notFound(PROMPT_NOT_FOUND);
      // With a topic too: the prompt if it is one of the topic's, else nothing.
      filters.promptIds = filters.promptIds ? filters.promptIds.filter((id) => id === p.prompt_id) : [p.prompt_id];
    }
    return ctx.cached(
      brand,
      ['search-queries', filters, p.limit],
      () => figures(ctx.stores.ch, filters, { limit: p.limit }),
      filters.to,
    );
  },
});
