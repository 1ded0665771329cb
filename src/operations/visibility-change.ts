// Change you can trust: a period against the one before it, six metrics, each change with its 95%
// interval and a verdict (docs/api.md section 21; docs/metrics.md "Change you can trust"), and each
// competitor's mention rate the same way (section 24: competitors move too).
import { z } from 'zod';
import { operation } from './registry.ts';
import { topicFilters, topicNotFound, sourceUnknown } from './params.ts';
import { describeBound, resolveFilters } from './analytics-filters.ts';
import { badRequest } from '../errors.ts';
import { competitorsOf } from '../tenancy/brands.ts';
import { DAY_MS } from '../instant.ts';
import {
  CHANGE_METRICS,
  competitorMentionChanges,
  MIN_ANSWERS,
  type Period,
  visibilityChange as change,
} from '../analytics/visibility-change.ts';
import { withAnalysisVersions } from './analysis-versions.ts';

/** The longest period compared (its previous period reaches as far back again). */
export const MAX_DAYS = 366;

const startOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * The current period (default: the last 7 complete UTC days before `now`; date_from alone: from it
 * to the end of yesterday; date_to alone: the 7 days ending with it) and the previous one: as many
 * days, ending the day before date_from's day.
 */
export function changePeriods(from: Date | undefined, to: Date | undefined, now: Date) {
  const end = to ?? new Date(startOfDay(now.getTime()) - 1);
  const start = from ?? new Date(startOfDay(end.getTime()) - 6 * DAY_MS);
  if (start > end) throw badRequest('date_from must not be after date_to');
  const days = (startOfDay(end.getTime()) - startOfDay(start.getTime())) / DAY_MS + 1;
  if (days > MAX_DAYS) throw badRequest(`date_from to date_to must span at most ${MAX_DAYS} days`);
  const previousTo = startOfDay(start.getTime()) - 1;
  const current: Period = { from: start, to: end };
  const previous: Period = { from: new Date(startOfDay(previousTo) - (days - 1) * DAY_MS), to: new Date(previousTo) };
  return { current, previous };
}

const periodSchema = z.object({
  date_from: z.string().describe('First day (or instant) of the period'),
  date_to: z.string().describe('Last day (or instant) of the period'),
  n: z.number().int().describe('Answers in the period (shopping answers excluded)'),
});

export const VisibilityChange = z.object({
  current: periodSchema,
  previous: periodSchema.describe('As many days as the current period, ending the day before its first day'),
  metrics: z
    .array(
      z.object({
        metric: z.enum(CHANGE_METRICS),
        current: z
          .number()
          .nullable()
          .describe('The metric over the current period, rounded as its endpoint rounds it'),
        previous: z.number().nullable(),
        change: z.number().nullable().describe('current - previous, computed unrounded, then rounded as the metric'),
        ci95: z
          .array(z.number())
          .length(2)
          .nullable()
          .describe(
            "[low, high] of the change's 95% interval: Newcombe's hybrid score interval for mention_rate and " +
              "citation_rate, a percentile bootstrap (1,000 resamples of each period's answers, fixed seed) for " +
              'the others; null where the metric is null in a period',
          ),
        verdict: z
          .enum(['up', 'down', 'within_noise', 'not_enough_data'])
          .describe(
            `not_enough_data when a period has fewer than ${MIN_ANSWERS} answers or the metric is null in ` +
              'either; else up when the whole interval is above 0, down when below, within_noise otherwise',
          ),
      }),
    )
    .describe(`One entry for each of ${CHANGE_METRICS.join(', ')}`),
  counts: z
    .object({
      answers: z.number().int().describe('Answers in the current period (its n)'),
      mention_answers: z.number().int().describe('Of those, answers naming the brand'),
      citation_answers: z.number().int().describe("Of those, answers citing the brand's domains"),
      positive_answers: z.number().int().describe('Of those naming it, answers speaking of the brand positively'),
      negative_answers: z.number().int().describe('Of those naming it, answers speaking of the brand negatively'),
    })
    .describe(
      "The current period's answers each figure counts (the answers explorer lists them with the same filters)",
    ),
  competitors: z
    .array(
      z.object({
        competitor_id: z.string(),
        name: z.string(),
        metric: z.literal('mention_rate'),
        current: z.number().nullable(),
        previous: z.number().nullable(),
        change: z.number().nullable(),
        ci95: z.array(z.number()).length(2).nullable(),
        verdict: z.enum(['up', 'down', 'within_noise', 'not_enough_data']),
      }),
    )
    .describe(
      "Each tracked competitor's mention rate over the same answers, with its change, interval (Newcombe) and " +
        'verdict as mention_rate has them, in workspace order',
    ),
});

export const visibilityChange = withAnalysisVersions(
  operation({
    name: 'visibility-change',
    method: 'GET',
    tool: 'get_visibility_change',
    metrics: true,
    errors: [topicNotFound, sourceUnknown],
    params: z.object(topicFilters),
    result: VisibilityChange,
    description:
      'Whether visibility really changed: a period (default the last 7 complete UTC days) against the ' +
      'period of the same length before it, for ai_visibility_score, mention_rate, citation_rate, share_of_voice, ' +
      'average_position and net_sentiment. Each metric has both values, the change, the 95% interval of the ' +
      'change and a verdict: up, down, within_noise (the interval includes 0: may be noise) or not_enough_data ' +
      `(fewer than ${MIN_ANSWERS} answers in a period). Dates are YYYY-MM-DD (UTC).`,
    run: async (ctx, p) => {
      const { brand, filters } = await resolveFilters(ctx, p);
      const periods = changePeriods(p.date_from, p.date_to, ctx.now());
      const { current, previous } = periods;
      const figures = await ctx.cached(
        brand,
        ['visibility-change', filters, current, previous],
        async () => {
          // Every read is started inside Promise.all, never before an await: a read that fails while
          // another is awaited would be a rejection nobody handles, which ends the process.
          const tracked = await competitorsOf(ctx.stores.pg, brand.id);
          const [brandFigures, competitors] = await Promise.all([
            change(ctx.stores.ch, filters, periods),
            competitorMentionChanges(ctx.stores.ch, filters, periods, tracked),
          ]);
          return { ...brandFigures, competitors };
        },
        current.to,
      );
      const describe = (period: Period, n: number) => ({
        date_from: describeBound(period.from, false)!,
        date_to: describeBound(period.to, true)!,
        n,
      });
      return {
        current: describe(current, figures.current.n),
        previous: describe(previous, figures.previous.n),
        metrics: figures.metrics,
        counts: figures.counts,
        competitors: figures.competitors,
      };
    },
  }),
);
