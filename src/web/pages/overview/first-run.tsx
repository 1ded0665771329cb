// The top of a brand's overview while it is new (docs/app.md "The first answers today"): the
// organization's set-up checklist, today's capture with `Capture now` and its progress (N of M
// answers, polled while it runs, and the overview's parts read again as answers arrive), when the
// daily capture runs next (UTC and the viewer's time), and the platforms the brand tracks that
// this server cannot ask. Every figure is an operation's.
import { useEffect, useRef, useState } from 'preact/hooks';
import { change, messageOf, read } from '../../api.ts';
import { useApp } from '../../context.ts';
import { useLoad, usePoll } from '../../load.ts';
import { Panel, Problem } from '../../components/page.tsx';
import { platformName } from '../../../tenancy/tracked.ts';
import { DEFAULT_DAYS, isoDay } from '../../filters.ts';
import { navigate } from '../../router.ts';
import '../first-run.css';

const STEPS: Record<string, { label: string; href: (brandId: string) => string }> = {
  brand: { label: 'Add a brand', href: () => '/app/brands/new' },
  competitors: { label: 'Add competitors', href: (b) => `/app/brands/${b}/setup` },
  prompts: { label: 'Add prompts', href: (b) => `/app/brands/${b}/setup` },
  platforms: { label: 'Configure the platforms', href: () => '/app/settings/platforms' },
  first_capture: { label: 'Capture the first answers', href: (b) => `/app/brands/${b}` },
  invite: { label: 'Invite someone', href: () => '/app/settings/members' },
  assistant: { label: 'Connect an assistant', href: () => '/app/settings/connect' },
};

const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const local = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });

/** `answered`: today's answers so far; a first one ticks `first_capture`, so the list is read again. */
function ChecklistPanel(p: { brandId: string; answered: number }) {
  const list = useLoad(() => read('checklist', {}, 'first'), [p.brandId, p.answered > 0]);
  const [problem, setProblem] = useState<string>();
  if (!list.data?.show) return null;
  const left = list.data.steps.filter((s) => !s.done).length;
  return (
    <Panel
      title="Get started"
      id="checklist-heading"
      actions={
        <button
          type="button"
          class="link"
          onClick={() => change('dismiss-checklist', {}).then(list.reload, (err) => setProblem(messageOf(err)))}
        >
          Dismiss
        </button>
      }
    >
      <p class="muted">{left === 1 ? 'One step left.' : `${left} steps left.`}</p>
      <ul class="checklist">
        {list.data.steps.map((s) => (
          <li key={s.step} class={s.done ? 'done' : undefined}>
            <span class="mark" aria-hidden="true">
              {s.done ? '✓' : '○'}
            </span>
            {s.done ? (
              <span class="step">
                {STEPS[s.step].label} <span class="sr-only">(done)</span>
              </span>
            ) : (
              <a href={STEPS[s.step].href(p.brandId)}>{STEPS[s.step].label}</a>
            )}
          </li>
        ))}
      </ul>
      {problem && <Problem message={problem} />}
    </Panel>
  );
}

/** `onAnswers`: told the number of today's answers whenever it grows, so the overview reads again. */
export function FirstRun(p: { brandId: string; onAnswers: (answered: number) => void }) {
  const { me } = useApp();
  const progress = useLoad(() => read('capture-progress', { brand_id: p.brandId }, 'first'), [p.brandId]);
  const summary = useLoad(
    () => read('visibility-summary', { brand_id: p.brandId }, 'first'),
    [p.brandId, progress.data?.answered],
  );
  const tracked = useLoad(() => read('capture-estimate', { brand_id: p.brandId }, 'idle'), [p.brandId]);
  const [problem, setProblem] = useState<string>();
  const [starting, setStarting] = useState(false);
  // A read of the progress that fails leaves the last one on screen, and the next read follows.
  const last = useRef(progress.data);
  if (progress.data) last.current = progress.data;
  const g = last.current;
  const running = Boolean(g?.capture_now && !g.capture_now.finished_at);

  // While the capture runs (by the last progress read, so a failed read does not stop it).
  usePoll(progress, running, 1500);
  useEffect(() => {
    if (g) p.onAnswers(g.answered);
  }, [g?.answered]);
  // The overview's default range ends yesterday; once today has a capture, it ends today, so
  // today's answers fill the figures as they arrive (an address that names its dates is kept).
  useEffect(() => {
    const query = new URLSearchParams(location.search);
    if (!g?.capture_now || query.has('date_to')) return;
    const today = Date.parse(`${g.day}T00:00:00Z`);
    query.set('date_from', isoDay(today - (DEFAULT_DAYS - 1) * 86_400_000));
    query.set('date_to', g.day);
    navigate(`${location.pathname}?${query}`, { replace: true });
  }, [g?.capture_now?.started_at]);

  const captureNow = async () => {
    setProblem(undefined);
    setStarting(true);
    try {
      await change('capture-now', { brand_id: p.brandId });
      progress.reload();
    } catch (err) {
      setProblem(messageOf(err));
    }
    setStarting(false);
  };

  const unconfigured = (tracked.data?.platforms ?? []).filter((x) => !x.configured);
  const noAnswers = summary.data?.totals.resultCount === 0;
  return (
    <>
      {me.organization && <ChecklistPanel brandId={p.brandId} answered={g?.answered ?? 0} />}
      {/* Part of the page, not news: no live region (role=status is for what changes while one reads). */}
      {unconfigured.length > 0 && (
        <p class="notice">
          Tracked but not configured on this server, so not captured:{' '}
          {unconfigured.map((x) => `${platformName(x.platform)} (set ${x.key_variable})`).join(', ')}. See{' '}
          <a href="/app/settings/platforms">Settings › Platforms</a>.
        </p>
      )}
      {g && (noAnswers || running || g.capture_now) && (
        <Panel title={noAnswers && !running ? 'No answers yet' : "Today's answers"} id="capture-heading">
          <div class="capture-now">
            <div>
              {running ? (
                <>
                  <p>
                    Capturing: <strong>{`${g.answered} of ${g.planned} answers`}</strong>
                  </p>
                  <progress max={g.planned} value={g.answered} aria-label="Answers captured" />
                </>
              ) : g.capture_now ? (
                <p>
                  Today's capture: <strong>{`${g.answered} of ${g.planned} answers`}</strong>
                  {g.failed > 0 && `, ${g.failed} failed`}
                  {g.not_configured > 0 && `, ${g.not_configured} on platforms not configured`}
                  {g.no_answer > 0 && `, ${g.no_answer} with no AI answer shown`}.
                  {g.capture_now.error && ` It stopped: ${g.capture_now.error}`}
                </p>
              ) : (
                <p>
                  {g.planned === 0
                    ? 'The brand has no active prompt to ask yet: add prompts on its set-up page.'
                    : `The brand has no answers yet: its ${g.planned} daily captures have not run.`}
                </p>
              )}
              <p class="muted">
                The daily capture runs next at {utc(g.next_scheduled_at)} ({local(g.next_scheduled_at)} your time).
                {g.can_run_again_at && ` Capture now can run again from ${utc(g.can_run_again_at)}.`}
              </p>
            </div>
            {!g.capture_now && g.planned > 0 && (
              <button type="button" class="primary" disabled={starting} onClick={captureNow}>
                Capture now
              </button>
            )}
            {g.planned === 0 && (
              <a class="button primary" href={`/app/brands/${p.brandId}/setup`}>
                Set up tracking
              </a>
            )}
          </div>
          {problem && <Problem message={problem} />}
          {running && progress.error && <Problem message={`${progress.error} (reading the progress again)`} />}
        </Panel>
      )}
    </>
  );
}
