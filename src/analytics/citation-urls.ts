// The details a listed URL shows (its text, domain, title, category and article type): those of its
// newest live citation in range. The top-URL query names the newest day holding a live (or
// replaced) citation of each URL and the newest holding a titled one, so only those days' raw rows
// are read.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { select, type ScopedQuery } from '../stores/scoped-query.ts';
import type { Read } from './read-together.ts';
import type { Category } from '../tracking/types.ts';

const NO_DAY = '1970-01-01';

export interface UrlDetails {
  hash: string;
  url: string;
  url_domain: string;
  latest_category: Category;
  latest_title: string;
  latest_type: string;
  newest_day: string;
  titled_day: string;
}

/** A listed URL: its hash, count, and the newest days holding a citation of it (see above). */
export interface TopUrl {
  hash: string;
  total: number;
  url_count: number;
  latest_day: string;
  titled_day: string;
}

const DETAIL_COLUMNS = [
  'hash',
  'url',
  'url_domain',
  'latest_category',
  'latest_title',
  'latest_type',
  'newest_day',
  'titled_day',
] as const;

/**
 * The read of the listed URLs' details on the newest days their counts name, to run with the
 * figure's other reads (read-together.ts); null when no URL is listed.
 */
export function urlDetailsRead(f: Filters, scope: string, urls: TopUrl[]): Read | null {
  const days = [...new Set(urls.flatMap((u) => [u.latest_day, u.titled_day]))].filter((d) => d > NO_DAY);
  const query = detailsQuery(
    f,
    scope,
    urls.map((u) => u.hash),
    days,
  );
  return query && { query, columns: DETAIL_COLUMNS };
}

/**
 * Details of the listed URLs, keyed by hash, from the rows urlDetailsRead gave. A URL's newest day
 * may hold only replaced rows (its citation was dropped on re-import): then its details come from
 * the whole range, read here.
 */
export async function latestUrlDetails(
  ch: ClickHouse,
  f: Filters,
  scope: string,
  urls: TopUrl[],
  read: readonly Record<string, unknown>[],
): Promise<Map<string, UrlDetails>> {
  const found = new Map((read as unknown as UrlDetails[]).map((u) => [u.hash, u]));
  const stale = urls
    .filter((u) => {
      const r = found.get(u.hash);
      return !r || r.newest_day !== u.latest_day || (u.titled_day > NO_DAY && r.titled_day !== u.titled_day);
    })
    .map((u) => u.hash);
  const query = detailsQuery(f, scope, stale);
  if (query) for (const u of await ch.rows<UrlDetails>(query)) found.set(u.hash, u);
  return found;
}

/**
 * Live rows first (net count above 0: a replaced row and its cancel copy drop out), then the
 * newest of them; ties at one instant go to the greatest value. `days` limits the rows read.
 */
function detailsQuery(f: Filters, scope: string, hashes: string[], days?: string[]): ScopedQuery | null {
  if (!hashes.length) return null;
  const live = select(
    { table: 'answer_citations', scope: f },
    {
      select: 'url_hash, url, domain, category, title, article_type, collected_at, sum(sign) AS live',
      where: `${scope}${days ? ' AND day IN {days:Array(Date)}' : ''} AND url_hash IN {hashes:Array(UInt64)}`,
      groupBy: 'url_hash, url, domain, category, title, article_type, collected_at',
      having: 'live > 0',
      // As BigInt: the client writes them as bare integers, and they exceed 2^53.
      params: { ...(days ? { days } : {}), hashes: hashes.map((h) => BigInt(h)) },
    },
  );
  return select(live, {
    select: `toString(url_hash) AS hash, url, any(domain) AS url_domain,
       argMax(category, (collected_at, category)) AS latest_category,
       argMaxIf(title, (collected_at, title), title != '') AS latest_title,
       argMax(article_type, (collected_at, article_type)) AS latest_type,
       toDate(max(collected_at)) AS newest_day, toDate(maxIf(collected_at, title != '')) AS titled_day`,
    groupBy: 'url_hash, url',
  });
}
