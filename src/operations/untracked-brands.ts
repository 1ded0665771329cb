// untracked-brands: the brands the answers name that the workspace does not track (docs/api.md
// section 24; docs/metrics.md "Brands you don't track"), for the Competitors page's `Track <name>`.
import { z } from 'zod';
import { operation } from './registry.ts';
import { withAnalysisVersions } from './analysis-versions.ts';
import { topicFilters, topicNotFound, sourceUnknown } from './params.ts';
import { resolveFilters } from './analytics-filters.ts';
import { brandEntities } from '../tenancy/brands.ts';
import { MIN_ANSWERS, trackedForms, untrackedBrands as untracked } from '../analytics/untracked-brands.ts';

export const UntrackedBrands = z.object({
  brands: z
    .array(
      z.object({
        name: z.string(),
        answers: z.number().int().describe('Answers naming it in range'),
        first_seen: z.string().describe('YYYY-MM-DD: the first day in range an answer names it'),
        platforms: z.array(z.string()).describe('Platforms whose answers name it'),
      }),
    )
    .describe(`Names in at least ${MIN_ANSWERS} answers in range, by answers descending then name`),
});

export const untrackedBrands = withAnalysisVersions(
  operation({
    name: 'untracked-brands',
    method: 'GET',
    tool: 'get_untracked_brands',
    metrics: true,
    errors: [topicNotFound, sourceUnknown],
    params: z.object(topicFilters),
    result: UntrackedBrands,
    description:
      'Brands the AI answers name that you do not track: the name opening a numbered or bulleted list ' +
      "item, a bold name, and shopping cards' product brands, leaving out every form (name, alias) of the brand " +
      `and its competitors. Listed when named in at least ${MIN_ANSWERS} answers in range, most named first. ` +
      'Track one with add_competitor; list_answers with untracked=<name> lists exactly the answers counted. Dates ' +
      'are YYYY-MM-DD (UTC); omit both for all history.',
    run: async (ctx, p) => {
      const { brand, filters } = await resolveFilters(ctx, p);
      const forms = trackedForms(await brandEntities(ctx.stores.pg, brand));
      return ctx.cached(
        brand,
        ['untracked-brands', filters, forms],
        async () => ({ brands: await untracked(ctx.stores.ch, filters, forms) }),
        filters.to,
      );
    },
  }),
);
