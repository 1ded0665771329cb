// The visibility trend (visibility-trend, by day or ISO week): the brand's mean answer score and the
// competitors' mean score as lines, the same buckets as a table with CSV; each bucket links to the
// answers of its days (a week clipped to the page's dates).
import { useState } from 'preact/hooks';
import { read } from '../../api.ts';
import { useLoad } from '../../load.ts';
import { navigate, useLocation } from '../../router.ts';
import { Panel, Pending } from '../../components/page.tsx';
import { LineChart } from '../../components/chart.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { type Filters, isoDay } from '../../filters.ts';
import { utcDay } from '../../format.ts';
import { type PartProps, useReport } from './part.ts';

interface Bucket {
  date: string;
  result_count: number;
  avg_visibility_score: number;
  ai_visibility_score: number | null;
  total_mentions: number;
  total_citations: number;
  avg_competitor_score: number | null;
}

/** The days a bucket covers within the page's range. */
function bucketDays(date: string, granularity: 'day' | 'week', f: Filters) {
  if (granularity === 'day') return { date_from: date, date_to: date };
  const end = isoDay(Date.parse(`${date}T00:00:00Z`) + 6 * 86_400_000);
  // Days as YYYY-MM-DD compare as text; the week clipped to the page's range.
  const [, from] = [date, f.date_from].sort();
  const [to] = [end, f.date_to].sort();
  return { date_from: from, date_to: to };
}

function GranularityPicker(p: { value: 'day' | 'week' }) {
  const { path, query } = useLocation();
  return (
    <fieldset class="segmented">
      <legend class="sr-only">Trend by</legend>
      {(['day', 'week'] as const).map((g) => (
        <button
          key={g}
          type="button"
          aria-pressed={p.value === g}
          onClick={() => {
            const next = new URLSearchParams(query);
            if (g === 'day') next.delete('granularity');
            else next.set('granularity', g);
            const qs = next.toString();
            navigate(`${path}${qs ? `?${qs}` : ''}`, { replace: true });
          }}
        >
          {g === 'day' ? 'Day' : 'Week'}
        </button>
      ))}
    </fieldset>
  );
}

export function Trend(p: PartProps & { granularity: 'day' | 'week'; filters: Filters }) {
  const trend = useLoad(
    () => read<{ buckets: Bucket[] }>('visibility-trend', { ...p.params, granularity: p.granularity }),
    [p.paramsKey, p.granularity],
  );
  const buckets = trend.data?.buckets ?? [];
  const days = buckets.map((b) => b.date);
  const series = [
    { label: 'Brand: mean answer score', values: buckets.map((b) => b.avg_visibility_score) },
    { label: 'Competitors: mean score', values: buckets.map((b) => b.avg_competitor_score), dashed: true },
  ];
  // Drawn once the chart has drawn these very points (no chart without points or on a failure).
  const points = JSON.stringify([days, series]);
  const [drawnPoints, setDrawnPoints] = useState<string>();
  useReport(p.report, 'trend', !trend.loading && (Boolean(trend.error) || !buckets.length || drawnPoints === points));
  const last = buckets[buckets.length - 1];
  const summary = last
    ? `${buckets.length} ${p.granularity === 'day' ? 'days' : 'weeks'} with answers; the latest, ${utcDay(last.date)}, mean answer score ${last.avg_visibility_score} over ${last.result_count} answers.`
    : undefined;
  const table = (
    <DataTable<Bucket>
      caption={`Visibility by ${p.granularity}`}
      csvName={`visibility-trend-${p.granularity}`}
      rows={buckets}
      rowKey={(b) => b.date}
      columns={[
        {
          key: 'date',
          label: p.granularity === 'day' ? 'Day' : 'Week of',
          render: (b) => <a href={p.link(bucketDays(b.date, p.granularity, p.filters))}>{utcDay(b.date)}</a>,
        },
        { key: 'result_count', label: 'Answers', align: 'right' },
        { key: 'avg_visibility_score', label: 'Mean answer score', align: 'right' },
        ...(p.granularity === 'day'
          ? [{ key: 'ai_visibility_score', label: 'AI visibility score', align: 'right' as const }]
          : []),
        { key: 'total_mentions', label: 'Mentions', align: 'right' },
        { key: 'total_citations', label: 'Citations', align: 'right' },
        { key: 'avg_competitor_score', label: 'Competitors: mean score', align: 'right' },
      ]}
    />
  );
  return (
    <Panel title="Visibility trend" busy={trend.loading} actions={<GranularityPicker value={p.granularity} />}>
      <Pending load={trend} />
      {trend.data && (
        <LineChart
          label={`Visibility trend by ${p.granularity}`}
          days={days}
          series={series}
          range={[0, 100]}
          summary={summary}
          table={table}
          empty="No answers in this range."
          onDrawn={() => setDrawnPoints(points)}
        />
      )}
    </Panel>
  );
}
