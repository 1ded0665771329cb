// The six cards: each value is visibility-change's `current` for the page's filters (the one
// operation that gives all six, rounded as each metric's endpoint rounds it), with the change
// against the previous period of the same length, its interval and its verdict in words; the 95%
// interval of the value is visibility-confidence's (score, mention and citation rates, share of
// voice). visibility-confidence takes no topic: with a topic chosen the value's interval is not
// shown rather than one for other answers. Each card links to exactly the answers its figure counts,
// with their number from visibility-change's `counts` (the explorer's `total` for the same filters),
// and has an `About` control with its definition (figure-definitions.ts). Changes are in points
// (pts), rates and score alike.
import type { ComponentChildren } from 'preact';
import { About } from '../../components/about.tsx';
import type { FigureName } from '../../figure-definitions.ts';
import { read } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { METRIC_NAMES, VERDICT_WORDS as VERDICTS } from '../../../analytics/metric-names.ts';
import { useLoad } from '../../load.ts';
import { Problem } from '../../components/page.tsx';
import { utcDay } from '../../format.ts';
import { withoutTopic } from '../../filters.ts';
import { type PartProps, useReport } from './part.ts';

type VisibilityChange = Result<'visibility-change'>;
type Confidence = Result<'visibility-confidence'>;
type ChangeMetric = VisibilityChange['metrics'][number];
type Verdict = ChangeMetric['verdict'];
type Estimate = Confidence['entities'][number]['mention_rate'];

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
  average_position: 'Rank among the tracked names an answer mentions, when named; lower is better',
  net_sentiment: 'Positive minus negative, −100 to 100',
};

type Counts = VisibilityChange['counts'];
/** The answers each card's figure counts: the explorer's parameters and their number, in words (one: "answer"). */
const COUNTED: Record<string, (c: Counts) => { own: Record<string, string>; n: number; words: string }[]> = {
  ai_visibility_score: (c) => [{ own: {}, n: c.answers, words: 'answers' }],
  mention_rate: (c) => [{ own: { mentioned: 'brand' }, n: c.mention_answers, words: 'answers naming you' }],
  citation_rate: (c) => [{ own: { cited: 'brand' }, n: c.citation_answers, words: 'answers citing you' }],
  share_of_voice: (c) => [{ own: { mentioned: 'brand' }, n: c.mention_answers, words: 'answers naming you' }],
  average_position: (c) => [{ own: { mentioned: 'brand' }, n: c.mention_answers, words: 'answers naming you' }],
  net_sentiment: (c) => [
    { own: { mentioned: 'brand', sentiment: 'positive' }, n: c.positive_answers, words: 'positive' },
    { own: { mentioned: 'brand', sentiment: 'negative' }, n: c.negative_answers, words: 'negative' },
  ],
};

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
const withUnit = (n: number | null, unit: string) => (n === null ? '—' : `${n}${unit === ' / 100' ? '' : unit}`);

function Card(p: {
  title: FigureName;
  counted?: ComponentChildren;
  unit: string;
  hint?: string;
  metric?: ChangeMetric;
  interval?: Estimate['ci95'];
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
      {p.counted && <p class="counted">{p.counted}</p>}
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
              {m.metric === 'average_position' ? '' : ' pts'} vs previous {p.previousDays} days
            </span>
          )}
        </p>
      )}
      {m?.ci95 && (
        <p class="interval">
          Change 95% interval {signed(m.ci95[0])} to {signed(m.ci95[1])}
          {m.metric === 'average_position' ? '' : ' pts'}
        </p>
      )}
      <About figure={p.title} />
    </section>
  );
}

const ZERO: Counts = { answers: 0, mention_answers: 0, citation_answers: 0, positive_answers: 0, negative_answers: 0 };

const daysOf = (from: string, to: string) =>
  Math.round((Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / 86_400_000) +
  1;

export function Cards(p: PartProps & { hasTopic: boolean }) {
  // The page's first reads: sent before the other parts' (read priority), so answered first.
  const change = useLoad(() => read('visibility-change', p.params, 'first'), [p.paramsKey]);
  const confidence = useLoad(
    () => (p.hasTopic ? Promise.resolve(undefined) : read('visibility-confidence', withoutTopic(p.params), 'first')),
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
          const counts = change.data?.counts;
          const counted = counts
            ? COUNTED[c.metric](counts).map((x, i) => (
                <span key={x.words}>
                  {i > 0 && ', '}
                  <a href={p.link(x.own)} data-count={x.n}>
                    {x.n.toLocaleString('en')} {x.n === 1 ? x.words.replace(/^answers\b/, 'answer') : x.words}
                  </a>
                </span>
              ))
            : undefined;
          return (
            <Card
              key={c.metric}
              title={c.title}
              unit={c.unit}
              hint={HINTS[c.metric]}
              counted={counted}
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
              // Net sentiment is over the answers naming the brand; its counts link to each side.
              href={p.link(c.metric === 'net_sentiment' ? { mentioned: 'brand' } : COUNTED[c.metric](ZERO)[0].own)}
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
