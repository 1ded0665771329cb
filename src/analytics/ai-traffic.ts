// The AI traffic figure (SPEC.md "AI traffic"): visits recorded by /t.js for one brand, in total and
// by platform, page path (top 10) and country. Lists are ordered by visits, most first, then by key
// ascending, so equal counts always come back in the same order.
import type { ClickHouse } from '../stores/index.ts';
import { select } from '../stores/scoped-query.ts';
import { type Read, readTogether } from './read-together.ts';
import { byteOrder } from './text-order.ts';

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

// Column names come from this fixed list only, never from the request.
type Dimension = 'platform' | 'path' | 'country';

/** Most visits first, then the key in byte order (as ClickHouse sorts strings). */
const byVisits = (a: { key: string; visits: number }, b: { key: string; visits: number }) =>
  b.visits - a.visits || byteOrder(a.key, b.key);

/** Visits per value of one column, most first. `day` bounds as every figure, so whole partitions are skipped. */
function breakdown(q: AiTrafficQuery, column: Dimension, limit?: number): Read {
  return {
    query: select(
      { table: 'ai_visits', scope: q },
      {
        select: `${column} AS key, count() AS visits`,
        groupBy: 'key',
        orderBy: 'visits DESC, key ASC',
        limit: limit ? String(limit) : undefined,
      },
    ),
    columns: ['key', 'visits'],
  };
}

export async function aiTraffic(ch: ClickHouse, q: AiTrafficQuery): Promise<AiTraffic> {
  // One query: its three scans of the visits run side by side (read-together.ts). Each branch keeps
  // its own ORDER BY and LIMIT; the rows of a union come back in no set order, so they are put
  // back in that order here.
  const read = await readTogether(ch, {
    platforms: breakdown(q, 'platform'),
    pages: breakdown(q, 'path', TOP_PAGES),
    countries: breakdown(q, 'country'),
  });
  const [platforms, pages, countries] = [read.platforms, read.pages, read.countries].map((rows) =>
    (rows as { key: string; visits: number }[]).sort(byVisits),
  );
  return {
    // Every visit has exactly one platform, so the platform counts add up to the total.
    total_visits: platforms.reduce((sum, r) => sum + r.visits, 0),
    platform_breakdown: platforms.map((r) => ({ platform: r.key, visits: r.visits })),
    top_pages: pages.map((r) => ({ url: r.key, visits: r.visits })),
    country_breakdown: countries.map((r) => ({ country: r.key, visits: r.visits })),
  };
}
