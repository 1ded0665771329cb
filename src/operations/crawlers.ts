// AI crawlers: which AI bots read the brand's site, from its server logs (docs/api.md section 14;
// the logs arrive through POST /api/mcp/crawler-logs or `answerscope crawler-logs import`).
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, dateRange } from './params.ts';
import { aiCrawlers as queryAiCrawlers, TOP_PAGES } from '../analytics/ai-crawlers.ts';
import { crawlerHitsVersion } from '../traffic/crawlers/store.ts';
import { BOT_TYPES } from '../traffic/crawlers/bots.ts';

// Hits do not bump the brand's data version, so the cache keys on the inserts this process made for
// the brand and on a 30-second window, as ai-traffic does: hits stored by another process (another
// instance, a command run without the server) show within 30 seconds.
const WINDOW_MS = 30_000;

const Count = z.number().int().nonnegative();
const BotType = z.enum(BOT_TYPES);

export const aiCrawlers = operation({
  name: 'ai-crawlers',
  method: 'GET',
  tool: 'get_ai_crawlers',
  metrics: true,
  params: z.object({ brand_id: brandId, ...dateRange }),
  result: z.object({
    total_hits: Count,
    by_bot: z.array(
      z.object({
        bot_name: z.string(),
        provider: z.string(),
        bot_type: BotType,
        hits: Count,
        verified_hits: Count,
        spoofed_hits: Count,
        last_visit: z.iso.datetime().nullable(),
      }),
    ),
    by_type: z.array(z.object({ bot_type: BotType, hits: Count })),
    top_pages: z.array(z.object({ path: z.string(), hits: Count, bots: Count })).max(TOP_PAGES),
    status_breakdown: z.array(z.object({ status_class: z.string(), hits: Count })),
  }),
  description:
    "AI crawlers and agents that fetched the brand's site, from its server logs: total hits, hits by bot " +
    '(provider, type, hits from addresses in the provider’s published ranges, spoofed hits claiming the bot from ' +
    'outside them, last visit), hits by type (ai_assistant, ai_search, ai_training, ai_agent), the 20 most ' +
    'fetched page paths with the number of distinct bots, and hits by HTTP status class. Spoofed hits count ' +
    'only in spoofed_hits. Filter with date_from / date_to (YYYY-MM-DD, UTC; date_to includes the whole day).',
  run: async (ctx, p) => {
    const brand = await ctx.brand(p.brand_id);
    const f = { brandId: brand.id, from: p.date_from, to: p.date_to };
    const key = ['ai-crawlers', f, crawlerHitsVersion(brand.id), Math.floor(ctx.now().getTime() / WINDOW_MS)];
    return ctx.cached(brand, key, () => queryAiCrawlers(ctx.stores.ch, f));
  },
});
