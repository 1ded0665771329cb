// How sure the visibility figures are: the summary's figures with 95% intervals, answers per
// capture slot and capture completeness (docs/api.md section 12; docs/metrics.md "How sure a figure is").
import { z } from 'zod';
import { operation } from './registry.ts';
import { resolveFilters } from './analytics-filters.ts';
import { visibilitySummary } from './visibility.ts';
import { competitorsOf } from '../tenancy/brands.ts';
import { captureCompleteness } from '../tracking/capture/runs.ts';
import { visibilityConfidence as confidence } from '../analytics/confidence.ts';
import { round } from '../analytics/formulas.ts';
import type { Filters } from '../analytics/filters.ts';
import { isoDay } from '../instant.ts';
import { withAnalysisVersions } from './analysis-versions.ts';

const ci95 = z
  .array(z.number())
  .length(2)
  .nullable()
  .describe('[low, high] of the 95% interval, 1 decimal; null without answers');

const estimate = (what: string) =>
  z.object({ value: z.number().nullable().describe(`${what}; null without answers`), ci95 });

const rate = (what: string) =>
  estimate(`${what}, percent, 1 decimal`).describe('The rate with its Wilson score interval (z = 1.96)');

export const VisibilityConfidence = z.object({
  n: z.number().int().describe('Answers in range (shopping answers excluded): the n of the summary'),
  samples_per_slot: z
    .number()
    .nullable()
    .describe(
      'Mean answers per (prompt, platform, region, day) with answers in range, 2 decimals; null without answers',
    ),
  capture_completeness: z
    .number()
    .nullable()
    .describe('Succeeded capture slots / planned slots in range x 100, 1 decimal; null where no capture was planned'),
  entities: z
    .array(
      z.object({
        entity_id: z.string(),
        name: z.string(),
        is_brand: z.boolean(),
        mention_rate: rate('Answers naming the entity / n'),
        citation_rate: rate('Answers citing the entity / n'),
        ai_visibility_score: estimate('The AI visibility score, 0-100, 1 decimal').describe(
          'With a percentile bootstrap interval over answers (1,000 resamples, fixed seed)',
        ),
        share_of_voice: estimate('Brand mentions / all tracked mentions x 100, 1 decimal')
          .optional()
          .describe('The brand only, with a percentile bootstrap interval over answers'),
      }),
    )
    .describe('The brand first, then each competitor by mentions (then name)'),
});

const day = (d: Date | undefined) => (d ? isoDay(d) : undefined);

/** Succeeded / planned capture slots of the days the filters touch, percent; null when none was planned. */
async function completeness(pg: Parameters<typeof captureCompleteness>[0], f: Filters): Promise<number | null> {
  const { planned, succeeded } = await captureCompleteness(pg, f.brandId, {
    fromDay: day(f.from),
    toDay: day(f.to),
    region: f.region,
  });
  return planned ? round((100 * succeeded) / planned, 1) : null;
}

export const visibilityConfidence = withAnalysisVersions(
  operation({
    name: 'visibility-confidence',
    method: 'GET',
    tool: 'get_visibility_confidence',
    metrics: true,
    params: visibilitySummary.params,
    result: VisibilityConfidence,
    description:
      'How sure the visibility figures are, for the same filters as get_visibility_summary: n (answers), and ' +
      'for the brand and each competitor the mention rate and citation rate (Wilson 95% interval) and AI ' +
      'visibility score (bootstrap 95% interval), the brand share of voice with its interval, mean answers per ' +
      'prompt/platform/region/day slot, and capture completeness. A change smaller than the interval may be ' +
      'noise.',
    run: async (ctx, p) => {
      const { brand, filters } = await resolveFilters(ctx, p);
      // The figures are cached with the summary's key rules; completeness is read each time, since a
      // failed capture changes it without changing the brand's data version.
      const [figures, capture] = await Promise.all([
        ctx.cached(
          brand,
          ['visibility-confidence', filters],
          async () => confidence(ctx.stores.ch, filters, brand, await competitorsOf(ctx.stores.pg, brand.id)),
          filters.to,
        ),
        completeness(ctx.stores.pg, filters),
      ]);
      return {
        n: figures.n,
        samples_per_slot: figures.samples_per_slot,
        capture_completeness: capture,
        entities: figures.entities,
      };
    },
  }),
);
