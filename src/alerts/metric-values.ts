// A rule's metric over one window of whole UTC days, read through the very analytics functions the
// endpoints serve (visibility summary, competitor comparison, the confidence rates, sentiment)
// with the filters a `date_from`/`date_to` request for those days resolves to: an alert quotes the
// figure the user sees in the API for the same days, never a second formula.
import type { BrandId } from '../stores/scoped-query.ts';
import type { ClickHouse } from '../stores/clickhouse.ts';
import { readsOnce } from '../stores/reads-once.ts';
import type { Filters } from '../analytics/filters.ts';
import { wilson } from '../analytics/intervals.ts';
import { visibilitySummary } from '../analytics/visibility-summary.ts';
import { competitorComparison } from '../analytics/competitor-comparison.ts';
import { sentimentFigures } from '../analytics/sentiment.ts';
import type { Metric } from './rules.ts';
import type { Window } from './firings.ts';

export interface AlertBrand {
  id: BrandId;
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
 * The metrics of one brand's windows. Rules of a brand often share windows, and the summary and the
 * comparison start from the same per-entity sums, so each distinct read is made once per evaluation
 * run and shared by the rules that need it (stores/reads-once.ts).
 */
export function brandFigures(ch: ClickHouse, brand: AlertBrand, competitors: { id: string; name: string }[]) {
  const names = new Map(competitors.map((c) => [c.id, c.name]));
  const reads = readsOnce(ch);
  const voice = async (f: Filters) =>
    (await competitorComparison(reads, f, brand, competitors)).share_of_voice.overall_sov_pct;
  const netSentiment = async (f: Filters) =>
    (await sentimentFigures(reads, f, brand, competitors)).entities.find((e) => e.is_brand)?.net_sentiment ?? null;

  return async function metricValue(metric: Metric, w: Window): Promise<WindowValue> {
    const f = windowFilters(brand, w);
    const { totals } = await visibilitySummary(reads, f, brand, names);
    const n = totals.resultCount;
    switch (metric) {
      case 'ai_visibility_score':
        return { value: totals.aiVisibilityScore, n };
      case 'mention_rate':
        return { value: rate(totals.mentionAnswers, n), n };
      case 'citation_rate':
        return { value: rate(totals.citationAnswers, n), n };
      case 'share_of_voice':
        return { value: n > 0 ? await voice(f) : null, n };
      case 'net_sentiment':
        return { value: await netSentiment(f), n };
    }
  };
}

export type MetricValue = ReturnType<typeof brandFigures>;
