// generate-opportunities: content opportunities from the last 30 days of tracking (ending on the
// job's date) for every brand or one (--brand). Never duplicates an open opportunity for the same
// prompt and type; refreshes the figures of open ones when they moved.
// Prints {date, brands, candidates, created, updated}.
import { defineJob } from './registry.ts';
import { brandsInScope } from '../src/content/scope.ts';
import { generateBrandOpportunities } from '../src/content/opportunities.ts';

export const generateOpportunities = defineJob({
  name: 'generate-opportunities',
  schedule: '30 6 * * *',
  description: 'Finds prompts where AI answers name or cite competitors and not the brand, and records them as content opportunities',
  run: async (ctx, args) => {
    const brands = await brandsInScope(ctx.stores.pg, args.brandId);
    const total = { candidates: 0, created: 0, updated: 0 };
    for (const brand of brands) {
      const r = await generateBrandOpportunities(ctx.stores, brand, args.date, ctx.now());
      total.candidates += r.candidates;
      total.created += r.created;
      total.updated += r.updated;
    }
    return { date: args.date, brands: brands.length, ...total };
  },
});
