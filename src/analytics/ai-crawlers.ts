// The AI crawler figure (docs/api.md section 14, docs/metrics.md "AI crawlers"): server-log hits of
// AI crawlers and agents on the brand's site. A spoofed hit (a bot's name from outside the ranges
// its provider publishes) is not the bot's visit: it counts only in its bot's `spoofed_hits`, and
// in no other figure (total_hits, by_bot.hits, by_type, top_pages, status_breakdown, last_visit).
//
// Whole-day ranges read the daily rollup (ai_crawler_daily); a range bounded inside a day, and the
// top pages (the rollup keeps no path), read the hits themselves. Lists are ordered by hits, most
// first, then by name ascending (byte order). Aliases differ from the rollup's column names, which an alias
// would shadow inside the aggregate.
import type { ClickHouse } from '../stores/index.ts';
import { select, wholeDays, type BrandId } from '../stores/scoped-query.ts';
import type { BotType } from '../traffic/crawlers/bots.ts';
import { byteOrder } from '../text-order.ts';

export interface AiCrawlersQuery {
  brandId: BrandId;
  from?: Date;
  to?: Date;
}

export interface AiCrawlers {
  total_hits: number;
  by_bot: {
    bot_name: string;
    provider: string;
    bot_type: BotType;
    hits: number;
    verified_hits: number;
    spoofed_hits: number;
    last_visit: string | null;
  }[];
  by_type: { bot_type: BotType; hits: number }[];
  top_pages: { path: string; hits: number; bots: number }[];
  status_breakdown: { status_class: string; hits: number }[];
}

export const TOP_PAGES = 20;
const NOT_SPOOFED = "verification != 'spoofed'";

/** The table a range reads and how a row counts there: a rollup row holds `hits`, a hit row is one. */
function source(q: AiCrawlersQuery) {
  return wholeDays(q)
    ? { table: 'ai_crawler_daily' as const, hits: 'hits', last: 'last_visit' }
    : { table: 'ai_crawler_hits' as const, hits: '1', last: 'ts' };
}

const byHitsThenName =
  <T extends { hits: number }>(key: (r: T) => string) =>
  (a: T, b: T) =>
    b.hits - a.hits || byteOrder(key(a), key(b));

export async function aiCrawlers(ch: ClickHouse, q: AiCrawlersQuery): Promise<AiCrawlers> {
  const src = source(q);
  const scope = { table: src.table, scope: q };
  const [bots, statuses, pages] = await Promise.all([
    ch.rows<{
      bot_name: string;
      provider: string;
      bot_type: BotType;
      n: string | number;
      verified: string | number;
      spoofed: string | number;
      latest: string | number;
    }>(
      select(scope, {
        select:
          `bot_name, provider, bot_type, sumIf(${src.hits}, ${NOT_SPOOFED}) AS n, ` +
          `sumIf(${src.hits}, verification = 'verified') AS verified, ` +
          `sumIf(${src.hits}, verification = 'spoofed') AS spoofed, ` +
          `toUnixTimestamp64Milli(maxIf(${src.last}, ${NOT_SPOOFED})) AS latest`,
        groupBy: 'bot_name, provider, bot_type',
      }),
    ),
    ch.rows<{ status_class: string; n: string | number }>(
      select(scope, {
        select: `status_class, sum(${src.hits}) AS n`,
        where: NOT_SPOOFED,
        groupBy: 'status_class',
      }),
    ),
    ch.rows<{ path: string; hits: string | number; bots: string | number }>(
      select(
        { table: 'ai_crawler_hits', scope: q },
        {
          select: 'path, count() AS hits, uniqExact(bot_name) AS bots',
          where: NOT_SPOOFED,
          groupBy: 'path',
          orderBy: 'hits DESC, path ASC',
          limit: String(TOP_PAGES),
        },
      ),
    ),
  ]);
  const by_bot = bots
    .map((r) => {
      const hits = Number(r.n);
      return {
        bot_name: r.bot_name,
        provider: r.provider,
        bot_type: r.bot_type,
        hits,
        verified_hits: Number(r.verified),
        spoofed_hits: Number(r.spoofed),
        last_visit: hits > 0 ? new Date(Number(r.latest)).toISOString() : null,
      };
    })
    .sort(byHitsThenName((r) => r.bot_name));
  const types = new Map<BotType, number>();
  for (const b of by_bot) if (b.hits > 0) types.set(b.bot_type, (types.get(b.bot_type) ?? 0) + b.hits);
  return {
    total_hits: by_bot.reduce((sum, b) => sum + b.hits, 0),
    by_bot,
    by_type: [...types].map(([bot_type, hits]) => ({ bot_type, hits })).sort(byHitsThenName((r) => r.bot_type)),
    top_pages: pages.map((r) => ({ path: r.path, hits: Number(r.hits), bots: Number(r.bots) })),
    status_breakdown: statuses
      .map((r) => ({ status_class: r.status_class, hits: Number(r.n) }))
      .filter((r) => r.hits > 0)
      .sort(byHitsThenName((r) => r.status_class)),
  };
}
