// analyze-volumes: intent, keywords and search volumes of every prompt of every brand (or one with
// --brand), from the imported keyword volumes (`answerscope volumes import`). Writes only what
// changed, so a re-run on the same data changes nothing. Prints {date, brands, prompts, changed}.
import { defineJob } from './registry.ts';
import { perBrand } from './per-brand.ts';
import { analyzeBrandVolumes } from '../src/content/volumes.ts';

export const analyzeVolumes = defineJob({
  name: 'analyze-volumes',
  schedule: '0 6 * * *',
  description: 'Derives intent, keywords, Google volumes and the estimated AI volume of every tracked prompt',
  run: (ctx, args) =>
    perBrand(ctx, args, ['prompts', 'changed'], (brand) =>
      analyzeBrandVolumes(ctx.stores.pg, brand, ctx.config.content.aiVolumeMultiplier),
    ),
});
