// The brand's re-analysis (brand-reanalysis): queued, running with its progress, failed with its
// error, or idle since it last finished. Read again every 2 seconds while queued or running, and
// whenever a change on the page may have queued one (`round`).
import { read } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { dateTime } from '../../format.ts';
import { useLoad, usePoll } from '../../load.ts';
import { Panel, Problem } from '../../components/page.tsx';

type ReanalysisState = Result<'brand-reanalysis'>;

const POLL_MS = 2000;

function Body(p: { s: ReanalysisState }) {
  const { s } = p;
  const last = s.last_finished_at ? `Last finished ${dateTime(s.last_finished_at)}.` : 'None has run yet.';
  if (s.state === 'queued')
    return (
      <>
        <p>
          <span class="badge accent">Queued</span> The stored answers will be analysed again shortly; until then every
          figure is the one from before the change.
        </p>
        {s.reason && <p class="muted">For: {s.reason}</p>}
      </>
    );
  if (s.state === 'running')
    return (
      <>
        <p>
          <span class="badge accent">Running</span> {s.progress ?? 0}% of the stored answers analysed again; the figures
          switch over when it finishes.
        </p>
        <progress class="reanalysis-progress" max={100} value={s.progress ?? 0} aria-label="Re-analysis progress" />
        {s.reason && <p class="muted">For: {s.reason}</p>}
      </>
    );
  if (s.state === 'failed')
    return (
      <>
        <p>
          <span class="badge bad">Failed</span> {s.error ?? 'No reason was recorded.'}
        </p>
        <p class="muted">
          The figures stay those of before. The next change runs it again. {s.reason && `For: ${s.reason}. `}
          {last}
        </p>
      </>
    );
  return (
    <p>
      <span class="badge ok">Up to date</span> The figures follow the workspace as it is. {last}
    </p>
  );
}

export function Reanalysis(p: { brandId: string; round: number }) {
  const status = useLoad(() => read('brand-reanalysis', { id: p.brandId }), [p.brandId, p.round]);
  const pending = status.data?.state === 'queued' || status.data?.state === 'running';
  usePoll(status, pending, POLL_MS);
  return (
    <Panel title="Re-analysis" id="reanalysis-heading">
      <p class="hint">
        A change of the brand's name, aliases or domains, or of its competitors, analyses every stored answer again.
      </p>
      <div role="status" aria-live="polite" data-state={status.data?.state}>
        {status.error && <Problem message={status.error} />}
        {status.data && <Body s={status.data} />}
      </div>
    </Panel>
  );
}
