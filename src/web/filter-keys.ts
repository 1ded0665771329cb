// The address parameters the filters own, and how a link carries them from page to page. Apart from
// filters.ts so the router can use them without importing what imports it.

/** The address parameters the filters own (a page may keep others of its own in the address). */
export const FILTER_KEYS = ['date_from', 'date_to', 'model', 'region', 'topic_id', 'source'] as const;

/**
 * `href` with the filters of the address in view added where it names none of its own, so the
 * dates, platform/model, region, topic and source follow the person from page to page (and a copied link
 * keeps them). A link that names a filter itself (a figure's day, say) keeps its own.
 */
export function keepFilters(href: string, from: URLSearchParams = new URLSearchParams(location.search)): string {
  const url = new URL(href, location.origin);
  if (!url.pathname.startsWith('/app/')) return href;
  for (const key of FILTER_KEYS) {
    const value = from.get(key);
    if (value && !url.searchParams.has(key)) url.searchParams.set(key, value);
  }
  return url.pathname + url.search + url.hash;
}

/** The address in view without any filter (and without a cursor into the filtered list). */
export function withoutFilters(path: string, query: URLSearchParams): string {
  const next = new URLSearchParams(query);
  for (const key of [...FILTER_KEYS, 'cursor']) next.delete(key);
  const qs = next.toString();
  return `${path}${qs ? `?${qs}` : ''}`;
}
