// suggest-topics: proposes topics from the last 30 days of tracking (prompt themes, cited pages,
// competitors' strengths the brand lacks) for every brand or one (--brand), topping each brand up
// to 10 pending suggestions. A name once suggested (pending, accepted or dismissed) never returns.
// Prints {date, brands, candidates, created}.
import { defineJob } from './registry.ts';
import { perBrand } from './per-brand.ts';
import { suggestTopicsForBrand } from '../src/content/suggestions.ts';

export const suggestTopics = defineJob({
  name: 'suggest-topics',
  schedule: '45 6 * * *',
  description: 'Proposes topics worth tracking from prompts, cited sources and competitor strengths',
  run: (ctx, args) =>
    perBrand(ctx, args, ['candidates', 'created'], (brand) => suggestTopicsForBrand(ctx.stores, brand, args.date)),
});
