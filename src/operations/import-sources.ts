// The trackers a brand imported answers from (answerscope import-tracker, Settings > Import), with
// how many answers each: the names its figures' `source` filter takes beyond capture and import.
// The app's filter bar offers them as its Source choice.
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId } from './params.ts';
import { importSources } from '../tracking/ingest/tracker-readings.ts';

export const importSourcesOperation = operation({
  name: 'import-sources',
  method: 'GET',
  tool: 'list_import_sources',
  params: z.object({ brand_id: brandId }),
  result: z.array(
    z.object({
      source: z.string().describe('The tool the answers were imported from, as given to --format'),
      answers: z.number().int().describe('Answers imported from it for the brand'),
    }),
  ),
  description:
    'Lists the other trackers a brand imported answers from (answerscope import-tracker), by name, with how ' +
    'many answers each: the names the source filter of every figure and of the answers list takes.',
  run: async (ctx, p) => importSources(ctx.stores.pg, (await ctx.brand(p.brand_id)).id),
});
