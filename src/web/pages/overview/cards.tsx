// The six cards: each value is visibility-change's `current` for the page's filters (the one
// operation that gives all six, rounded as each metric's endpoint rounds it), with the change
// against the previous period of the same length, its interval and its verdict in words; the 95%
// interval of the value is visibility-confidence's (score, mention and citation rates, share of
// voice). visibility-confidence takes no topic: with a topic chosen the value's interval is not
// shown rather than one for other answers.
import { read } from '../../api.ts';
import { METRIC_NAMES, VERDICT_WORDS as VERDICTS } from '../../../analytics/metric-names.ts';
import { useLoad } from '../../load.ts';
import { Problem } from '../../components/page.tsx';
import { utcDay } from '../../format.ts';
import { type PartProps, useReport, withoutTopic } from './part.ts';

type Verdict = 'up' | 'down' | 'within_noise' | 'not_enough_data';

interface ChangeMetric {
  metric: string;
  current: number | null;
  previous: number | null;
  change: number | null;
  ci95: [number, number] | null;
  verdict: Verdict;
}

export interface VisibilityChange {
  current: { date_from: string; date_to: string; n: number };
  previous: { date_from: string; date_to: string; n: number };
  metrics: ChangeMetric[];
}

interface Estimate {
  value: number | null;
  ci95: [number, number] | null;
}

export interface Confidence {
  n: number;
  entities: {
    is_brand: boolean;
    mention_rate: Estimate;
    citation_rate: Estimate;
    ai_visibility_score: Estimate;
    share_of_voice?: Estimate;
  }[];
}

/** The cards, in order: heading, the metric's name in both operations, its unit. */
export const CARDS = [
  {
    title: METRIC_NAMES.ai_visibility_score,
    metric: 'ai_visibility_score',
    unit: ' / 100',
    confidence: 'ai_visibility_score',
  },
  { title: METRIC_NAMES.mention_rate, metric: 'mention_rate', unit: '%', confidence: 'mention_rate' },
  { title: METRIC_NAMES.citation_rate, metric: 'citation_rate', unit: '%', confidence: 'citation_rate' },
  { title: METRIC_NAMES.share_of_voice, metric: 'share_of_voice', unit: '%', confidence: 'share_of_voice' },
  { title: METRIC_NAMES.average_position, metric: 'average_position', unit: '', confidence: undefined },
  { title: METRIC_NAMES.net_sentiment, metric: 'net_sentiment', unit: '', confidence: undefined },
] as const;

export const VERDICT_WORDS: Record<Verdict, string> = VERDICTS;

const HINTS: Record<string, string> = {
  average_position: 'Mean rank when named; lower is better',
  net_sentiment: 'Positive minus negative, −100 to 100',
};

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
const withUnit = (n: number | null, unit: string) => (n === null ? '—' : `${n}${unit === ' / 100' ? '' : unit}`);

function Card(p: {
  title: string;
  unit: string;
  hint?: string;
  metric?: ChangeMetric;
  interval?: [number, number] | null;
  intervalNote?: string;
  previousDays?: number;
  href: string;
  loading: boolean;
  busy: boolean;
}) {
  const id = `card-${p.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const m = p.metric;
  const value = m?.current ?? null;
  return (
    <section class="card stat" aria-labelledby={id} aria-busy={p.busy ? 'true' : undefined}>
      <h2 id={id}>{p.title}</h2>
      {p.loading ? (
        <p class="value muted" aria-busy="true">
          …
        </p>
      ) : (
        <p class="value">
          <a href={p.href} class="figure-link" data-figure={m?.metric}>
            <span class="sr-only">{p.title}: </span>
            <span class="figure">{value === null ? '—' : String(value)}</span>
            {value !== null && p.unit && <span class="of">{p.unit}</span>}
          </a>
        </p>
      )}
      {p.hint && <p class="hint">{p.hint}</p>}
      {p.interval && (
        <p class="interval">
          95% interval {withUnit(p.interval[0], p.unit)} – {withUnit(p.interval[1], p.unit)}
        </p>
      )}
      {!p.interval && p.intervalNote && <p class="interval muted">{p.intervalNote}</p>}
      {m && (
        <p class={`change verdict-${m.verdict}`}>
          <span class="verdict">{VERDICT_WORDS[m.verdict]}</span>
          {m.change !== null && (
            <span class="delta">
              {' '}
              {signed(m.change)}
              {p.unit === '%' ? ' pts' : ''} vs previous {p.previousDays} days
            </span>
          )}
        </p>
      )}
      {m?.ci95 && (
        <p class="interval">
          Change 95% interval {signed(m.ci95[0])} to {signed(m.ci95[1])}
        </p>
      )}
    </section>
  );
}

const daysOf = (from: string, to: string) =>
  Math.round((Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / 86_400_000) +
  1;

export function Cards(p: PartProps & { hasTopic: boolean }) {
  // The page's first reads: sent before the other parts' (read priority), so answered first.
  const change = useLoad(() => read<VisibilityChange>('visibility-change', p.params, 'first'), [p.paramsKey]);
  const confidence = useLoad(
    () =>
      p.hasTopic
        ? Promise.resolve(undefined)
        : read<Confidence>('visibility-confidence', withoutTopic(p.params), 'first'),
    [p.paramsKey],
  );
  useReport(p.report, 'cards', !change.loading && !confidence.loading);
  const brand = confidence.data?.entities.find((e) => e.is_brand);
  const byMetric = new Map((change.data?.metrics ?? []).map((m) => [m.metric, m]));
  const previous = change.data?.previous;
  const previousDays = previous ? daysOf(previous.date_from, previous.date_to) : undefined;
  return (
    <>
      {change.error && <Problem message={change.error} />}
      <div class="cards stats">
        {CARDS.map((c) => {
          const estimate = c.confidence && brand ? (brand[c.confidence] as Estimate | undefined) : undefined;
          return (
            <Card
              key={c.metric}
              title={c.title}
              unit={c.unit}
              hint={HINTS[c.metric]}
              metric={byMetric.get(c.metric)}
              interval={estimate?.ci95}
              intervalNote={
                c.confidence && p.hasTopic
                  ? 'No interval with a topic chosen'
                  : c.confidence && confidence.error
                    ? 'Interval unavailable'
                    : undefined
              }
              previousDays={previousDays}
              href={p.link()}
              loading={!change.data && !change.error}
              busy={change.loading || confidence.loading}
            />
          );
        })}
      </div>
      {change.data && (
        <p class="hint period-note">
          Change against {utcDay(change.data.previous.date_from)} – {utcDay(change.data.previous.date_to)} (
          {change.data.previous.n} answers; {change.data.current.n} in the current period). A verdict needs 20 answers
          in each.
        </p>
      )}
    </>
  );
}
