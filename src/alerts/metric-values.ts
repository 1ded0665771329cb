// A rule's metric over one window of whole UTC days, read through the very analytics functions the
// endpoints serve (visibility summary, competitor comparison, the confidence rates, sentiment)
// with the filters a `date_from`/`date_to` request for those days resolves to: an alert quotes the
// figure the user sees in the API for the same days, never a second formula.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from '../analytics/filters.ts';
import { wilson } from '../analytics/intervals.ts';
import { visibilitySummary } from '../analytics/visibility-summary.ts';
import { competitorComparison } from '../analytics/competitor-comparison.ts';
import { sentimentFigures } from '../analytics/sentiment.ts';
import type { Metric } from './rules.ts';
import type { Window } from './firings.ts';

export interface AlertBrand {
  id: string;
  name: string;
  analysis_generation: number;
}

export interface WindowValue {
  /** The metric as the endpoint rounds it; null when it is undefined for the window (no answers). */
  value: number | null;
  /** Non-shopping answers in the window: the visibility summary's n (`resultCount`). */
  n: number;
}

/** The filters of `?brand_id=...&date_from=<from>&date_to=<to>` (a bare end day covers the whole day). */
export const windowFilters = (brand: AlertBrand, w: Window): Filters => ({
  brandId: brand.id,
  generation: brand.analysis_generation,
  from: new Date(`${w.from}T00:00:00.000Z`),
  to: new Date(`${w.to}T23:59:59.999Z`),
});

/** A share of the n answers in percent, 1 decimal, as visibility-confidence gives the rates; null when n = 0. */
const rate = (count: number, n: number) => wilson(count, n).value;

/**
 * The metrics of one brand's windows. Rules of a brand often share windows, so each analytics read
 * of a window is made once per evaluation run and shared by the rules that need it.
 */
export function brandFigures(ch: ClickHouse, brand: AlertBrand, competitors: { id: string; name: string }[]) {
  const names = new Map(competitors.map((c) => [c.id, c.name]));
  const reads = new Map<string, Promise<unknown>>();
  const once = <T>(kind: string, w: Window, read: (f: Filters) => Promise<T>): Promise<T> => {
    const key = `${kind}|${w.from}|${w.to}`;
    if (!reads.has(key)) reads.set(key, read(windowFilters(brand, w)));
    return reads.get(key) as Promise<T>;
  };
  const summary = (w: Window) => once('summary', w, (f) => visibilitySummary(ch, f, brand, names));
  const comparison = (w: Window) => once('comparison', w, (f) => competitorComparison(ch, f, brand, competitors));
  const sentiment = (w: Window) => once('sentiment', w, (f) => sentimentFigures(ch, f, brand, competitors));

  return async function metricValue(metric: Metric, w: Window): Promise<WindowValue> {
    const { totals } = await summary(w);
    const n = totals.resultCount;
    switch (metric) {
      case 'ai_visibility_score':
        return { value: totals.aiVisibilityScore, n };
      case 'mention_rate':
        return { value: rate(totals.mentionAnswers, n), n };
      case 'citation_rate':
        return { value: rate(totals.citationAnswers, n), n };
      case 'share_of_voice':
        return { value: n > 0 ? (await comparison(w)).share_of_voice.overall_sov_pct : null, n };
      case 'net_sentiment':
        return { value: (await sentiment(w)).entities.find((e) => e.is_brand)?.net_sentiment ?? null, n };
    }
  };
}

export type MetricValue = ReturnType<typeof brandFigures>;
