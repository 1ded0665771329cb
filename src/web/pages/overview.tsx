// A brand's overview: under the filter bar, the six cards (value, 95% interval, change against the
// previous period with its verdict), the trend of the brand and its competitors (entity-trend) with
// its table, the competitor leaderboard, citations by category with top domains and URLs, the
// citation gap, the prompts and the latest answers. Every figure is an API operation's for the
// page's filters; each part loads on its own, the cards' reads sent before the others
// (src/web/api.ts, read priority), and every figure links to the answers it was computed from. Once
// every part shows its figures (or its failure) for the page's filters, and the trend's chart is
// drawn, the page's main element carries data-ready="true" (what bench/app.ts waits for).
import { useCallback, useEffect, useState } from 'preact/hooks';
import { read } from '../api.ts';
import { answersHref } from '../answers-link.ts';
import { useApp } from '../context.ts';
import { utcDay } from '../format.ts';
import { filterParams, useFilters } from '../filters.ts';
import { useLoad } from '../load.ts';
import { PageHead } from '../components/page.tsx';
import { FilterBar } from '../components/filter-bar.tsx';
import type { PageProps } from '../page-props.ts';
import type { Report } from './overview/part.ts';
import { Cards } from './overview/cards.tsx';
import { Trend } from './overview/trend.tsx';
import { Leaderboard } from './overview/leaderboard.tsx';
import { CitationsPanel } from './overview/citations.tsx';
import { GapPanel } from './overview/gap.tsx';
import { PromptsPanel } from './overview/prompts.tsx';
import { LatestAnswers } from './overview/latest.tsx';
import { FirstRun } from './overview/first-run.tsx';
import '../honest-figures.css';

/** The parts that report when they have drawn (each calls useReport with its name). */
const PARTS = ['cards', 'trend', 'leaderboard', 'citations', 'gap', 'prompts', 'latest'];

export function Overview(p: PageProps) {
  const { brand } = useApp();
  const brandId = p.params.brandId;
  const [filters] = useFilters();
  const params = { brand_id: brandId, ...filterParams(filters) };
  // Today's answers so far (FirstRun): a new one makes every part read its figures again.
  const [arrived, setArrived] = useState(0);
  const key = `${JSON.stringify(params)}#${arrived}`;
  // The competitors' aliases, to mark them in the latest answers' texts.
  const competitors = useLoad(() => read('competitors', { brand_id: brandId }), [brandId]);
  const aliases = new Map((competitors.data ?? []).map((c) => [c.id, c.aliases]));
  const link = (own: Record<string, string | undefined> = {}) =>
    answersHref(brandId, { ...filterParams(filters), ...own });
  const [settled, setSettled] = useState<Record<string, boolean>>({});
  const report = useCallback<Report>(
    (part, done) => setSettled((s) => (s[part] === done ? s : { ...s, [part]: done })),
    [],
  );
  const ready = !competitors.loading && PARTS.every((part) => settled[part]);
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return;
    if (ready) main.dataset.ready = 'true';
    else delete main.dataset.ready;
    return () => {
      delete main.dataset.ready;
    };
  }, [ready]);
  const shared = { brandId, params, paramsKey: key, link, report };
  return (
    <>
      <PageHead
        title={brand?.name ?? 'Overview'}
        intro={`${utcDay(filters.date_from)} – ${utcDay(filters.date_to)} (UTC days)`}
      />
      <FilterBar brandId={brandId} />
      {/* One per brand: what it holds (the last progress read, a problem) is that brand's. */}
      <FirstRun key={brandId} brandId={brandId} onAnswers={setArrived} />
      <Cards {...shared} hasTopic={Boolean(filters.topic_id)} />
      <Trend
        {...shared}
        granularity={p.query.get('granularity') === 'week' ? 'week' : 'day'}
        metric={p.query.get('trend_metric') === 'mention_rate' ? 'mention_rate' : 'ai_visibility_score'}
        filters={filters}
      />
      <Leaderboard {...shared} />
      <CitationsPanel {...shared} />
      <GapPanel {...shared} />
      <PromptsPanel {...shared} />
      <LatestAnswers {...shared} aliases={aliases} />
    </>
  );
}
