// AI traffic: visits that AI answers sent to the brand's site, as recorded by /t.js.
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, dateRange } from './params.ts';
import { aiTraffic as queryAiTraffic } from '../analytics/ai-traffic.ts';
import { visitsVersion } from '../traffic/buffer.ts';

// Visits do not arrive through an ingest that bumps the brand's data version, so the cache keys on
// the visits this process wrote for the brand and on a 30-second window: a reporting tool's repeats
// are answered from memory, and visits written by another instance show within 30 seconds.
const WINDOW_MS = 30_000;

const Count = z.number().int().nonnegative();

export const aiTraffic = operation({
  name: 'ai-traffic',
  method: 'GET',
  tool: 'get_ai_traffic',
  metrics: true,
  params: z.object({ brand_id: brandId, ...dateRange }),
  result: z.object({
    total_visits: Count,
    platform_breakdown: z.array(z.object({ platform: z.string(), visits: Count })),
    top_pages: z.array(z.object({ url: z.string(), visits: Count })).max(10),
    country_breakdown: z.array(z.object({ country: z.string(), visits: Count })),
  }),
  description:
    "Visits that AI platforms sent to the brand's site (recorded by the /t.js tracking script): the total, " +
    'visits by platform, the 10 most visited page paths and visits by country, each ordered by visits. ' +
    'Filter with date_from / date_to (YYYY-MM-DD, UTC; date_to includes the whole day).',
  run: async (ctx, p) => {
    const brand = await ctx.brand(p.brand_id);
    const f = { brandId: brand.id, from: p.date_from, to: p.date_to };
    const key = ['ai-traffic', f, visitsVersion(brand.id), Math.floor(ctx.now().getTime() / WINDOW_MS)];
    return ctx.cached(brand, key, () => queryAiTraffic(ctx.stores.ch, f));
  },
});
