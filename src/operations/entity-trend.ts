// entity-trend: the brand and its competitors on one figure, per day or ISO week, over the same
// answers (docs/api.md section 24; docs/metrics.md "Entity trend"). What the overview's chart draws.
import { z } from 'zod';
import { operation } from './registry.ts';
import { withAnalysisVersions } from './analysis-versions.ts';
import { commaList, oneOf, topicFilters, topicNotFound, sourceUnknown } from './params.ts';
import { resolveFilters } from './analytics-filters.ts';
import { badRequest, notFound } from '../errors.ts';
import { competitorsOf } from '../tenancy/brands.ts';
import { entitySums } from '../analytics/entity-sums.ts';
import { entityTrend as trend, TREND_METRICS } from '../analytics/entity-trend.ts';
import { humanOrder } from '../text-order.ts';
import { UUID_RE } from '../uuid.ts';
import { COMPETITOR_NOT_FOUND } from './answers.ts';

/** Competitors drawn when none is asked for: the most mentioned in range. */
export const DEFAULT_COMPETITORS = 5;
export const COMPETITOR_ID_INVALID = 'competitor_id must be a UUID';

export const EntityTrend = z.object({
  entities: z
    .array(z.object({ entity_id: z.string(), name: z.string(), role: z.enum(['own', 'competitor']) }))
    .describe('The brand first, then the competitors by mentions in range descending, then name'),
  buckets: z
    .array(
      z.object({
        date: z.string().describe('YYYY-MM-DD: the day, or the Monday of the ISO week'),
        answers: z.number().int().describe("Answers in the bucket (the range's days only)"),
        values: z
          .record(z.string(), z.number().nullable())
          .describe('Entity id to the figure, 1 decimal; null when the bucket has no answer'),
      }),
    )
    .describe('One bucket for every day (ISO week) of the range, oldest first'),
});

export const entityTrend = withAnalysisVersions(
  operation({
    name: 'entity-trend',
    method: 'GET',
    tool: 'get_entity_trend',
    metrics: true,
    errors: [topicNotFound, sourceUnknown, { status: 404, message: COMPETITOR_NOT_FOUND }],
    params: z.object({
      ...topicFilters,
      granularity: oneOf('granularity', ['day', 'week'])
        .default('day')
        .describe('day (default) or week (ISO weeks, Monday first, counting only the days in range)'),
      metric: oneOf('metric', TREND_METRICS)
        .default('ai_visibility_score')
        .describe('ai_visibility_score (default), mention_rate or citation_rate'),
      competitor_id: commaList('competitor_id').describe(
        'Competitors to draw (repeatable or comma-separated, see list_competitors); default the ' +
          `${DEFAULT_COMPETITORS} most mentioned in range`,
      ),
    }),
    result: EntityTrend,
    description:
      'The brand and its competitors on the same figure (AI visibility score, mention rate or citation rate) ' +
      'per day or ISO week, over the same answers: each value is what get_visibility_summary (brand) or ' +
      "get_competitor_comparison (competitor) gives for that bucket's dates. Every day or week of the range " +
      'has a bucket; one without answers holds null (a gap, not a zero). Dates are YYYY-MM-DD (UTC).',
    run: async (ctx, p) => {
      const asked = p.competitor_id?.map((id) => id.toLowerCase());
      if (asked?.some((id) => !UUID_RE.test(id))) throw badRequest(COMPETITOR_ID_INVALID);
      const { brand, filters } = await resolveFilters(ctx, p);
      const competitors = await competitorsOf(ctx.stores.pg, brand.id);
      if (asked?.some((id) => !competitors.some((c) => c.id === id))) throw notFound(COMPETITOR_NOT_FOUND);
      return ctx.cached(
        brand,
        ['entity-trend', filters, p.granularity, p.metric, asked ?? null],
        async () => {
          const { competitors: sums } = await entitySums(ctx.stores.ch, filters);
          const mentions = (id: string) => sums.get(id)?.mentions ?? 0;
          const chosen = competitors
            .filter((c) => !asked || asked.includes(c.id))
            .sort((a, b) => mentions(b.id) - mentions(a.id) || humanOrder(a.name, b.name))
            .slice(0, asked ? undefined : DEFAULT_COMPETITORS);
          const entities = [
            { entity_id: brand.id, name: brand.name, role: 'own' as const },
            ...chosen.map((c) => ({ entity_id: c.id, name: c.name, role: 'competitor' as const })),
          ];
          const buckets = await trend(ctx.stores.ch, filters, entities, p);
          return { entities, buckets };
        },
        filters.to,
      );
    },
  }),
);
