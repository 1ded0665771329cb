// The web searches the AI platforms ran before answering the brand's prompts (their fan-out):
// how often they searched and which queries came up most (docs/api.md section 12; docs/metrics.md
// "Search queries").
import { z } from 'zod';
import { operation } from './registry.ts';
import {
  commaList,
  limit,
  promptFilter,
  promptNotFound,
  topicFilters,
  topicNotFound,
  sourceUnknown,
} from './params.ts';
import { resolveFilters } from './analytics-filters.ts';
import { searchQueries as figures } from '../analytics/search-queries.ts';
import { withAnalysisVersions } from './analysis-versions.ts';

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

export const searchQueries = withAnalysisVersions(
  operation({
    name: 'search-queries',
    method: 'GET',
    tool: 'list_search_queries',
    metrics: true,
    errors: [topicNotFound, sourceUnknown, promptNotFound],
    params: z.object({
      ...topicFilters,
      model: commaList('model').describe('Comma-separated model_used values'),
      prompt_id: promptFilter,
      limit: limit(1, 200, 50).describe('Top queries to list: 1-200, default 50'),
    }),
    result: SearchQueries,
    description:
      "The web searches AI platforms ran before answering the brand's prompts (query fan-out): how many " +
      'answers searched (trigger_rate, over the answers whose searches are known), queries per search, and the ' +
      'most frequent queries with the platforms that ran them and how often those answers name the brand. Use ' +
      'it to see which searches a page must rank for. Filter by date, model, region, topic and prompt.',
    run: async (ctx, p) => {
      const { brand, filters } = await resolveFilters(ctx, p);
      return ctx.cached(
        brand,
        ['search-queries', filters, p.limit],
        () => figures(ctx.stores.ch, filters, { limit: p.limit }),
        filters.to,
      );
    },
  }),
);
