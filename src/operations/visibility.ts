// Visibility, trend, competitors and citations: the figures reporting tools read all day.
import { z } from 'zod';
import { operation } from './registry.ts';
import {
  figureFilters as base,
  topicFilters as withTopic,
  oneOf,
  limit,
  topicNotFound,
  sourceUnknown,
} from './params.ts';
import { resolveFilters } from './analytics-filters.ts';
import { competitorsOf } from '../tenancy/brands.ts';
import { VisibilitySummary, VisibilityTrend, CompetitorComparison, Citations } from './analytics-schemas.ts';
import { visibilitySummary as summary } from '../analytics/visibility-summary.ts';
import { visibilityTrend as trend } from '../analytics/visibility-trend.ts';
import { competitorComparison as comparison } from '../analytics/competitor-comparison.ts';
import { citations as citationFigures } from '../analytics/citations.ts';
import { withAnalysisVersions } from './analysis-versions.ts';

export const visibilitySummary = withAnalysisVersions(
  operation({
    name: 'visibility-summary',
    method: 'GET',
    tool: 'get_visibility_summary',
    metrics: true,
    errors: [sourceUnknown],
    params: z.object(base),
    result: VisibilitySummary,
    description:
      'How visible a brand is in AI answers over a date range: answer count, mention and citation counts, the ' +
      '0-100 AI visibility score and its components, and the top 5 competitors. Filter by model_used or ' +
      'region. Dates are YYYY-MM-DD (UTC); omit both for all history.',
    run: async (ctx, p) => {
      const { brand, filters } = await resolveFilters(ctx, p);
      return ctx.cached(
        brand,
        ['visibility-summary', filters],
        async () => {
          const names = new Map((await competitorsOf(ctx.stores.pg, brand.id)).map((c) => [c.id, c.name]));
          return summary(ctx.stores.ch, filters, brand, names);
        },
        filters.to,
      );
    },
  }),
);

export const visibilityTrend = withAnalysisVersions(
  operation({
    name: 'visibility-trend',
    method: 'GET',
    tool: 'get_visibility_trend',
    metrics: true,
    errors: [topicNotFound, sourceUnknown],
    params: z.object({
      ...withTopic,
      granularity: oneOf('granularity', ['day', 'week'])
        .default('day')
        .describe('day (default) or week (ISO weeks, dated by Monday)'),
    }),
    result: VisibilityTrend,
    description:
      "The brand's visibility over time, one bucket per day or ISO week that has answers: answer count, mean " +
      'score, daily AI visibility score, mentions, citations and the mean competitor score. Use it to see ' +
      'whether visibility is rising or falling.',
    run: async (ctx, p) => {
      const { brand, filters } = await resolveFilters(ctx, p);
      return ctx.cached(
        brand,
        ['visibility-trend', filters, p.granularity],
        () => trend(ctx.stores.ch, filters, p.granularity),
        filters.to,
      );
    },
  }),
);

export const competitorComparison = withAnalysisVersions(
  operation({
    name: 'competitor-comparison',
    method: 'GET',
    tool: 'get_competitor_comparison',
    metrics: true,
    errors: [topicNotFound, sourceUnknown],
    params: z.object(withTopic),
    result: CompetitorComparison,
    description:
      'The brand against each tracked competitor on the same answers (mean score, AI visibility score, ' +
      'mentions, citations, appearances) and share of voice overall and per model_used and platform. Its ' +
      'model_used values are the ones the model filter takes.',
    run: async (ctx, p) => {
      const { brand, filters } = await resolveFilters(ctx, p);
      return ctx.cached(
        brand,
        ['competitor-comparison', filters],
        async () => comparison(ctx.stores.ch, filters, brand, await competitorsOf(ctx.stores.pg, brand.id)),
        filters.to,
      );
    },
  }),
);

export const citations = withAnalysisVersions(
  operation({
    name: 'citations',
    method: 'GET',
    tool: 'list_citations',
    metrics: true,
    errors: [topicNotFound, sourceUnknown],
    params: z.object({
      ...withTopic,
      limit: limit(1, 200, 50).describe('Rows of top_domains and top_urls, 1-200 (default 50)'),
      source_filter: oneOf('source_filter', ['all', 'owned', 'competitor', 'external'])
        .default('all')
        .describe("all (default); owned: your domains; competitor: competitors' domains; external: everything else"),
    }),
    result: Citations,
    description:
      "Which sources AI answers cite for the brand's prompts: totals, the mix of source types (your site, " +
      'competitors, editorial, forums, social, reviews, institutions), top domains and top URLs with how many ' +
      'answers cite them. Use it to find the pages and publications to win.',
    run: async (ctx, p) => {
      const { brand, filters } = await resolveFilters(ctx, p);
      const opts = { limit: p.limit, source: p.source_filter };
      return ctx.cached(
        brand,
        ['citations', filters, opts],
        () => citationFigures(ctx.stores.ch, filters, opts),
        filters.to,
      );
    },
  }),
);
