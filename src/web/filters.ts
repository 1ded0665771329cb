// The dashboard's filters live in the address under the API's own parameter names, so a copied
// link shows the same view. Dates are UTC days (YYYY-MM-DD). Without dates in the address the
// range is the last 30 complete UTC days (yesterday and the 29 days before it): the API's own
// default is all history (or, for visibility-change, 7 days), which would make the cards and the
// change disagree, so the app always sends both dates.
import { FILTER_KEYS } from './filter-keys.ts';
import { navigate, useLocation } from './router.ts';

export interface Filters {
  date_from: string;
  date_to: string;
  model?: string;
  region?: string;
  topic_id?: string;
  /** A tracker the brand imported answers from; none: Answerscope's own answers (the API's default). */
  source?: string;
}

export { FILTER_KEYS, keepFilters, withoutFilters } from './filter-keys.ts';

const DAY_MS = 86_400_000;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The last `days` complete UTC days before `now`: [first day, yesterday]. */
export function lastDays(days: number, now = Date.now()): { date_from: string; date_to: string } {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return { date_from: isoDay(today - days * DAY_MS), date_to: isoDay(today - DAY_MS) };
}

export const DEFAULT_DAYS = 30;

/** The filters an address names, the defaults filling what it leaves out. */
export function filtersOf(query: URLSearchParams, now = Date.now()): Filters {
  const fallback = lastDays(DEFAULT_DAYS, now);
  const day = (key: 'date_from' | 'date_to') => {
    const v = query.get(key) ?? '';
    return DAY_RE.test(v) ? v : fallback[key];
  };
  const opt = (key: 'model' | 'region' | 'topic_id' | 'source') => query.get(key) || undefined;
  return {
    date_from: day('date_from'),
    date_to: day('date_to'),
    model: opt('model'),
    region: opt('region'),
    topic_id: opt('topic_id'),
    source: opt('source'),
  };
}

/** The filters as a read's parameters, under the API's names (add the brand_id). */
export type FilterParams = { [K in (typeof FILTER_KEYS)[number]]?: string };

/** The filters as parameters for `read()` (add the brand_id). */
export function filterParams(f: Filters): FilterParams {
  return Object.fromEntries(FILTER_KEYS.map((key) => [key, f[key]]));
}

/** A read's parameters without topic_id, for the operations that take no topic. */
export function withoutTopic<P extends { topic_id?: string }>(params: P): Omit<P, 'topic_id'> {
  const { topic_id: _topic, ...rest } = params;
  return rest;
}

/** The filters of the page in view, and a change that writes them to the address (one history entry). */
export function useFilters(): [Filters, (change: Partial<Filters>) => void] {
  const { path, query } = useLocation();
  const filters = filtersOf(query);
  const update = (change: Partial<Filters>) => {
    const next = new URLSearchParams(query);
    for (const [k, v] of Object.entries(change)) {
      if (v === undefined || v === '') next.delete(k);
      else next.set(k, v);
    }
    // A new filter shows a new list: a page's cursor would point into the old one.
    next.delete('cursor');
    const qs = next.toString();
    navigate(`${path}${qs ? `?${qs}` : ''}`);
  };
  return [filters, update];
}
