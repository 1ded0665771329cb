// The AI traffic figure (SPEC.md "AI traffic"): visits recorded by /t.js for one brand, in total and
// by platform, page path (top 10) and country. Lists are ordered by visits, most first, then by key
// ascending, so equal counts always come back in the same order.
import type { ClickHouse } from '../stores/index.ts';

export interface AiTrafficQuery {
  brandId: string;
  from?: Date;
  to?: Date;
}

export interface AiTraffic {
  total_visits: number;
  platform_breakdown: { platform: string; visits: number }[];
  top_pages: { url: string; visits: number }[];
  country_breakdown: { country: string; visits: number }[];
}

export const TOP_PAGES = 10;

/** The brand and, when given, the time range; `day` bounds too, so whole partitions are skipped. */
function filter(q: AiTrafficQuery): { where: string; params: Record<string, unknown> } {
  const clauses = ['brand_id = {brand:UUID}'];
  const params: Record<string, unknown> = { brand: q.brandId };
  if (q.from) {
    clauses.push("ts >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')", 'day >= {fromDay:Date}');
    Object.assign(params, { fromMs: q.from.getTime(), fromDay: q.from.toISOString().slice(0, 10) });
  }
  if (q.to) {
    clauses.push("ts <= fromUnixTimestamp64Milli({toMs:Int64}, 'UTC')", 'day <= {toDay:Date}');
    Object.assign(params, { toMs: q.to.getTime(), toDay: q.to.toISOString().slice(0, 10) });
  }
  return { where: clauses.join(' AND '), params };
}

// Column names come from this fixed list only, never from the request.
type Dimension = 'platform' | 'path' | 'country';

async function breakdown(ch: ClickHouse, q: AiTrafficQuery, column: Dimension, limit?: number) {
  const { where, params } = filter(q);
  return ch.rows<{ key: string; visits: number }>(
    `SELECT ${column} AS key, count() AS visits FROM ai_visits WHERE ${where}
     GROUP BY key ORDER BY visits DESC, key ASC${limit ? ` LIMIT ${limit}` : ''}`,
    params,
  );
}

export async function aiTraffic(ch: ClickHouse, q: AiTrafficQuery): Promise<AiTraffic> {
  const [platforms, pages, countries] = await Promise.all([
    breakdown(ch, q, 'platform'),
    breakdown(ch, q, 'path', TOP_PAGES),
    breakdown(ch, q, 'country'),
  ]);
  return {
    // Every visit has exactly one platform, so the platform counts add up to the total.
    total_visits: platforms.reduce((sum, r) => sum + r.visits, 0),
    platform_breakdown: platforms.map((r) => ({ platform: r.key, visits: r.visits })),
    top_pages: pages.map((r) => ({ url: r.key, visits: r.visits })),
    country_breakdown: countries.map((r) => ({ country: r.key, visits: r.visits })),
  };
}
