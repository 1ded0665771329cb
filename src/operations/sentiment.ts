// Sentiment per entity: how the answers in range speak of the brand and each competitor, and the
// brand per platform (docs/api.md section 13; docs/metrics.md "Sentiment"; docs/analysis.md says
// how each answer is judged).
import { z } from 'zod';
import { operation } from './registry.ts';
import { topicFilters, topicNotFound, sourceUnknown } from './params.ts';
import { resolveFilters } from './analytics-filters.ts';
import { competitorsOf } from '../tenancy/brands.ts';
import { sentimentFigures } from '../analytics/sentiment.ts';
import { withAnalysisVersions } from './analysis-versions.ts';

const counts = {
  assessed: z.number().int().describe('Answers in range naming the entity (each is judged once)'),
  positive: z.number().int().describe('Of those, answers speaking of it positively'),
  neutral: z.number().int().describe('Of those, answers neither positive nor negative about it'),
  negative: z.number().int().describe('Of those, answers speaking of it negatively'),
  net_sentiment: z
    .number()
    .nullable()
    .describe('100 x (positive - negative) / assessed, -100 to 100, 1 decimal; null when assessed is 0'),
};

export const Sentiment = z.object({
  entities: z
    .array(z.object({ entity_id: z.string(), name: z.string(), is_brand: z.boolean(), ...counts }))
    .describe('The brand first, then each competitor by assessed (then name)'),
  by_platform: z
    .array(z.object({ platform: z.string(), model_used: z.string(), ...counts }))
    .describe("The brand's counts per platform and model_used with answers in range, by platform then model"),
});

export const sentiment = withAnalysisVersions(
  operation({
    name: 'sentiment',
    method: 'GET',
    tool: 'get_sentiment',
    metrics: true,
    errors: [topicNotFound, sourceUnknown],
    params: z.object(topicFilters),
    result: Sentiment,
    description:
      'How AI answers speak of the brand and each competitor: for each, the answers naming it (assessed) split ' +
      'into positive, neutral and negative, and net sentiment (-100 to 100); plus the brand per platform and ' +
      'model. Each answer is judged from the sentences naming the entity. Dates are YYYY-MM-DD (UTC); omit ' +
      'both for all history.',
    run: async (ctx, p) => {
      const { brand, filters } = await resolveFilters(ctx, p);
      return ctx.cached(
        brand,
        ['sentiment', filters],
        async () => sentimentFigures(ctx.stores.ch, filters, brand, await competitorsOf(ctx.stores.pg, brand.id)),
        filters.to,
      );
    },
  }),
);
