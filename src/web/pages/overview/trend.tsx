// The trend (entity-trend, by day or ISO week): the same figure for the brand and each competitor
// (the 5 most mentioned) over the same answers, the AI visibility score by default and the mention
// rate on a toggle (`trend_metric` in the address). A day or week without answers is a gap in every
// line, never a zero. A click on a point opens that day's (week's) answers, as does each row of the
// same buckets as a table (with CSV). The seed's visibility-trend, whose competitor line averages
// only the answers naming a competitor, is not drawn.
import { useState } from 'preact/hooks';
import { read } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { useLoad } from '../../load.ts';
import { navigate, useLocation } from '../../router.ts';
import { Panel, Pending } from '../../components/page.tsx';
import { LineChart } from '../../components/chart.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { About } from '../../components/about.tsx';
import { type Filters, isoDay } from '../../filters.ts';
import { utcDay } from '../../format.ts';
import { type PartProps, useReport } from './part.ts';

type Bucket = Result<'entity-trend'>['buckets'][number];

type Metric = 'ai_visibility_score' | 'mention_rate';
const METRICS: Record<Metric, { name: 'AI visibility score' | 'Mention rate'; unit: string }> = {
  ai_visibility_score: { name: 'AI visibility score', unit: '' },
  mention_rate: { name: 'Mention rate', unit: '%' },
};

/** The days a bucket covers within the page's range. */
function bucketDays(date: string, granularity: 'day' | 'week', f: Filters) {
  if (granularity === 'day') return { date_from: date, date_to: date };
  const end = isoDay(Date.parse(`${date}T00:00:00Z`) + 6 * 86_400_000);
  // Days as YYYY-MM-DD compare as text; the week clipped to the page's range.
  const [, from] = [date, f.date_from].sort();
  const [to] = [end, f.date_to].sort();
  return { date_from: from, date_to: to };
}

/** A pair of buttons writing one parameter of the address (the first value is the default, left out). */
function Segmented<T extends string>(p: { name: string; legend: string; value: T; options: [T, string][] }) {
  const { path, query } = useLocation();
  return (
    <fieldset class="segmented">
      <legend class="sr-only">{p.legend}</legend>
      {p.options.map(([value, label], i) => (
        <button
          key={value}
          type="button"
          aria-pressed={p.value === value}
          onClick={() => {
            const next = new URLSearchParams(query);
            if (i === 0) next.delete(p.name);
            else next.set(p.name, value);
            const qs = next.toString();
            navigate(`${path}${qs ? `?${qs}` : ''}`, { replace: true });
          }}
        >
          {label}
        </button>
      ))}
    </fieldset>
  );
}

export function Trend(p: PartProps & { granularity: 'day' | 'week'; metric: Metric; filters: Filters }) {
  const trend = useLoad(
    () => read('entity-trend', { ...p.params, granularity: p.granularity, metric: p.metric }),
    [p.paramsKey, p.granularity, p.metric],
  );
  const entities = trend.data?.entities ?? [];
  const buckets = trend.data?.buckets ?? [];
  const withAnswers = buckets.filter((b) => b.answers > 0);
  const days = buckets.map((b) => b.date);
  const { name, unit } = METRICS[p.metric];
  const series = entities.map((e) => ({
    label: e.role === 'own' ? `${e.name} (you)` : e.name,
    values: buckets.map((b) => b.values[e.entity_id] ?? null),
    dashed: e.role === 'competitor',
  }));
  // Drawn once the chart has drawn these very points (no chart without answers or on a failure).
  const points = JSON.stringify([days, series]);
  const [drawnPoints, setDrawnPoints] = useState<string>();
  useReport(
    p.report,
    'trend',
    !trend.loading && (Boolean(trend.error) || !withAnswers.length || drawnPoints === points),
  );
  const unitWord = p.granularity === 'day' ? 'days' : 'weeks';
  const last = withAnswers[withAnswers.length - 1];
  const own = entities.find((e) => e.role === 'own');
  const summary =
    last && own
      ? `${name} of ${own.name} and ${entities.length - 1} competitors over the same answers, ${buckets.length} ` +
        `${unitWord}, ${buckets.length - withAnswers.length} without answers (gaps); the latest with answers, ` +
        `${utcDay(last.date)}: ${own.name} ${last.values[own.entity_id]}${unit} over ${last.answers} answers.`
      : undefined;
  const open = (date: string) => navigate(p.link(bucketDays(date, p.granularity, p.filters)));
  const table = (
    <DataTable<Bucket>
      caption={`${name} by ${p.granularity}`}
      csvName={`entity-trend-${p.metric}-${p.granularity}`}
      rows={buckets}
      rowKey={(b) => b.date}
      columns={[
        {
          key: 'date',
          label: p.granularity === 'day' ? 'Day' : 'Week of',
          render: (b) => <a href={p.link(bucketDays(b.date, p.granularity, p.filters))}>{utcDay(b.date)}</a>,
        },
        {
          key: 'answers',
          label: 'Answers',
          align: 'right',
          render: (b) => <a href={p.link(bucketDays(b.date, p.granularity, p.filters))}>{b.answers}</a>,
        },
        ...entities.map((e) => ({
          key: e.entity_id,
          label: e.name,
          align: 'right' as const,
          render: (b: Bucket) => b.values[e.entity_id] ?? '—',
          csv: (b: Bucket) => String(b.values[e.entity_id] ?? ''),
        })),
      ]}
    />
  );
  return (
    <Panel
      title={`${name}: you and your competitors`}
      busy={trend.loading}
      actions={
        <div class="trend-tools">
          <Segmented
            name="trend_metric"
            legend="Figure drawn"
            value={p.metric}
            options={[
              ['ai_visibility_score', 'Score'],
              ['mention_rate', 'Mention rate'],
            ]}
          />
          <Segmented
            name="granularity"
            legend="Trend by"
            value={p.granularity}
            options={[
              ['day', 'Day'],
              ['week', 'Week'],
            ]}
          />
        </div>
      }
    >
      <p class="hint">
        Every line is the same figure over the same answers; a gap is a {p.granularity} without answers. Click a point
        to read that {p.granularity}'s answers.
      </p>
      <Pending load={trend} />
      {trend.data && (
        <LineChart
          label={`${name} by ${p.granularity}, you and your competitors`}
          days={withAnswers.length ? days : []}
          series={series}
          range={[0, 100]}
          summary={summary}
          table={table}
          empty="No answers in this range."
          onDrawn={() => setDrawnPoints(points)}
          onPoint={(i) => buckets[i] && buckets[i].answers > 0 && open(buckets[i].date)}
        />
      )}
      <About figure={name} />
    </Panel>
  );
}
