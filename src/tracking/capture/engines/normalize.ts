// Small pieces every adapter needs to turn a provider's answer into a Capture.
import type { CitationInput } from '../../types.ts';
import { MAX_SEARCH_QUERIES, MAX_SEARCH_QUERY_LENGTH } from '../../ingest/answer-schema.ts';

// Two-letter codes used as regions that are not countries.
const NOT_COUNTRIES = new Set(['EU', 'UN', 'XX', 'ZZ']);

/**
 * The ISO 3166-1 alpha-2 country of a prompt region, for providers' location options: "us" -> "US",
 * "UK" -> "GB" (the usual slip). Anything else (a city, "EU", "LATAM") has no country and gets no location.
 */
export function countryCode(region: string): string | undefined {
  const r = region.trim().toUpperCase();
  if (r === 'UK') return 'GB';
  return /^[A-Z]{2}$/.test(r) && !NOT_COUNTRIES.has(r) ? r : undefined;
}

/** http(s) citations in first-seen order, one per URL; a later title fills a missing one. */
export function uniqueCitations(list: { url?: unknown; title?: unknown }[]): CitationInput[] {
  const byUrl = new Map<string, CitationInput>();
  for (const c of list) {
    if (typeof c?.url !== 'string') continue;
    const url = c.url.trim();
    if (!/^https?:\/\//i.test(url)) continue;
    const title = typeof c.title === 'string' && c.title.trim() ? c.title.trim() : null;
    const seen = byUrl.get(url);
    if (!seen) byUrl.set(url, { url, title });
    else if (!seen.title && title) seen.title = title;
  }
  return [...byUrl.values()];
}

/**
 * A provider's search queries as an answer keeps them: strings only, trimmed, empty ones dropped,
 * within the answer file's bounds (a longer list or query is cut rather than losing the answer).
 */
export function searchQueryList(list: unknown[]): string[] {
  return list
    .filter((q): q is string => typeof q === 'string' && q.trim() !== '')
    .map((q) => q.trim().slice(0, MAX_SEARCH_QUERY_LENGTH))
    .slice(0, MAX_SEARCH_QUERIES);
}

/** Non-empty strings joined with a separator; non-strings are skipped. */
export function joinText(parts: unknown[], separator: string): string {
  return parts
    .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
    .join(separator)
    .trim();
}
