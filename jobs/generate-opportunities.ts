// generate-opportunities: content opportunities from the last 30 days of tracking (ending on the
// job's date) for every brand or one (--brand). Never duplicates an open opportunity for the same
// prompt and type; refreshes the figures of open ones when they moved.
// Prints {date, brands, candidates, created, updated}.
import { defineJob } from './registry.ts';
import { perBrand } from './per-brand.ts';
import { generateBrandOpportunities } from '../src/content/opportunities.ts';

export const generateOpportunities = defineJob({
  name: 'generate-opportunities',
  schedule: '30 6 * * *',
  description:
    'Finds prompts where AI answers name or cite competitors and not the brand, ' +
    'and records them as content opportunities',
  run: (ctx, args) =>
    perBrand(ctx, args, ['candidates', 'created', 'updated'], (brand) =>
      generateBrandOpportunities(ctx.stores, brand, args.date, ctx.now()),
    ),
});
