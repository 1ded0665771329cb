// The AI traffic figure (docs/api.md section 23, "AI traffic"): visits recorded by /t.js for one brand, in total and
// by platform, page path (top 10) and country. Lists are ordered by visits, most first, then by key
// ascending (byte order), so equal counts always come back in the same order.
import type { ClickHouse } from '../stores/index.ts';
import { type ScopedQuery, select, unionAll, wholeDays, type BrandId } from '../stores/scoped-query.ts';
import { byteOrder } from '../text-order.ts';

export interface AiTrafficQuery {
  brandId: BrandId;
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
const DIMENSIONS = ['platform', 'path', 'country'] as const;

/** Most visits first, then the key in byte order (as ClickHouse sorts strings). */
const byVisits = (a: { key: string; visits: number }, b: { key: string; visits: number }) =>
  b.visits - a.visits || byteOrder(a.key, b.key);

/**
 * Visits per breakdown (`dim`: platform, path or country) and value (`key`). A whole-day range
 * reads the daily rollup (clickhouse/019), once; a range bounded inside a day, the visits
 * themselves, once per breakdown (the branches of one query). `raw`: the visits always (tests
 * compare both).
 */
function visitCounts(q: AiTrafficQuery, raw: boolean): ScopedQuery {
  if (wholeDays(q) && !raw) {
    return select(
      { table: 'ai_visits_daily', scope: q },
      { select: 'dim, key, sum(visits) AS visits', groupBy: 'dim, key' },
    );
  }
  return unionAll(
    DIMENSIONS.map((d) =>
      select(
        { table: 'ai_visits', scope: q },
        { select: `'${d}' AS dim, toString(${d}) AS key, count() AS visits`, groupBy: 'key' },
      ),
    ),
  );
}

export async function aiTraffic(ch: ClickHouse, q: AiTrafficQuery, opts: { raw?: boolean } = {}): Promise<AiTraffic> {
  // Every platform and country, and the top pages: ranked within each breakdown as the lists are
  // ordered, so the cut at TOP_PAGES keeps the pages the list shows.
  const ranked = select(visitCounts(q, opts.raw ?? false), {
    select: 'dim, key, visits, row_number() OVER (PARTITION BY dim ORDER BY visits DESC, key ASC) AS place',
  });
  const rows = await ch.rows<{ dim: (typeof DIMENSIONS)[number]; key: string; visits: number }>(
    select(ranked, { select: 'dim, key, visits', where: `dim != 'path' OR place <= ${TOP_PAGES}` }),
  );
  // The rows come back in no set order: each list is put in its order here.
  const list = (dim: (typeof DIMENSIONS)[number]) =>
    rows
      .filter((r) => r.dim === dim)
      .map((r) => ({ key: r.key, visits: Number(r.visits) }))
      .sort(byVisits);
  const [platforms, pages, countries] = DIMENSIONS.map(list);
  return {
    // Every visit has exactly one platform, so the platform counts add up to the total.
    total_visits: platforms.reduce((sum, r) => sum + r.visits, 0),
    platform_breakdown: platforms.map((r) => ({ platform: r.key, visits: r.visits })),
    top_pages: pages.map((r) => ({ url: r.key, visits: r.visits })),
    country_breakdown: countries.map((r) => ({ country: r.key, visits: r.visits })),
  };
}
