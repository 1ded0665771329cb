// One site audit as the site-audit operation gives it: polled while it runs, then its total and
// category scores, its recommendations (largest expected gain first, as the API orders them) and
// every signal with its evidence. Every text in it (URL, evidence, error) is shown as text.
import { useEffect } from 'preact/hooks';
import { read } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { dateTime, figure } from '../../format.ts';
import { useLoad, usePoll } from '../../load.ts';
import { DataTable } from '../../components/data-table.tsx';
import { Loading, Problem } from '../../components/page.tsx';
import { OutsideLink } from '../../components/outside-link.tsx';
import { followLink } from '../../router.ts';
import { CATEGORIES, CATEGORY_LABELS, type Category } from '../../../audits/categories.ts';

export type Audit = Result<'site-audit'>;
export type Signal = Audit['signals'][number];
export type Recommendation = Audit['recommendations'][number];

/** How often a running audit is read again: it finishes in about 30 seconds. */
export const POLL_MS = 1500;

/** Short category names for the signal rows; the category table uses the rubric's full labels. */
const CATEGORY_SHORT: Record<Category, string> = {
  technical: 'Technical',
  structure: 'Structure',
  content: 'Content',
  authority: 'Authority',
  eeat: 'E-E-A-T',
};

const STATUS_WORDS: Record<Signal['status'], string> = {
  pass: 'Pass',
  warn: 'Warning',
  fail: 'Fail',
  na: 'Not applicable',
};
const STATUS_CLASS: Record<Signal['status'], string> = {
  pass: 'badge ok',
  warn: 'badge warn',
  fail: 'badge bad',
  na: 'badge',
};

export function AuditStatus(p: { status: Audit['status'] }) {
  if (p.status === 'completed') return <span class="badge ok">Completed</span>;
  if (p.status === 'failed') return <span class="badge bad">Failed</span>;
  return <span class="badge accent">Running</span>;
}

export function AuditView(p: { auditId: string; onSettled: () => void; closeHref: string }) {
  const audit = useLoad(() => read('site-audit', { id: p.auditId }), [p.auditId]);
  const a = audit.data;
  const running = a?.status === 'running';
  usePoll(audit, running, POLL_MS);
  // The list above shows the status too: read it again once this audit has finished.
  useEffect(() => {
    if (a && !running) p.onSettled();
  }, [a?.id, a?.status]);

  if (audit.error && !a) return <Problem message={audit.error} />;
  if (!a || a.id !== p.auditId) return <Loading />;
  const slug = (s: string) => s.replace(/[^a-z0-9]+/gi, '-');
  return (
    <section class="panel" aria-labelledby="audit-title" aria-busy={running}>
      <div class="panel-head">
        <h2 id="audit-title">Audit of {a.url}</h2>
        <div class="actions">
          <AuditStatus status={a.status} />
          <a href={p.closeHref} onClick={followLink}>
            Close
          </a>
        </div>
      </div>
      <dl class="facts">
        <div>
          <dt>Page</dt>
          <dd>
            <OutsideLink url={a.url}>Open the page</OutsideLink>
          </dd>
        </div>
        {a.finalUrl && a.finalUrl !== a.url && (
          <div>
            <dt>Answered from</dt>
            <dd>
              <OutsideLink url={a.finalUrl} />
            </dd>
          </div>
        )}
        <div>
          <dt>Started</dt>
          <dd>{dateTime(a.createdAt)}</dd>
        </div>
        {a.completedAt && (
          <div>
            <dt>Finished</dt>
            <dd>{dateTime(a.completedAt)}</dd>
          </div>
        )}
      </dl>
      {running && (
        <p class="status-note" role="status">
          Checking the page. An audit takes about 30 seconds; this view updates by itself.
        </p>
      )}
      {audit.error && <Problem message={audit.error} />}
      {a.status === 'failed' && <Problem message={`The audit failed: ${a.error ?? 'no reason was given'}`} />}
      {a.status === 'completed' && (
        <>
          <div class="cards">
            <section class="card" aria-label="Total score">
              <h3>Total score</h3>
              <p class="value">
                {figure(a.totalScore)}
                <span class="of"> / 100</span>
              </p>
            </section>
            <section class="card" aria-label="Signals evaluated">
              <h3>Signals evaluated</h3>
              <p class="value">
                {figure(a.signalsEvaluated)}
                <span class="of"> of {figure(a.signalsTotal)}</span>
              </p>
            </section>
          </div>
          <h3 class="section-title">Scores by category</h3>
          <DataTable
            caption="Scores by category"
            csvName={`audit-${a.id}-categories`}
            undated
            columns={[
              { key: 'label', label: 'Category' },
              {
                key: 'score',
                label: 'Score (0-100)',
                align: 'right',
                render: (r) => figure(r.score),
                csv: (r) => r.score,
              },
            ]}
            rows={CATEGORIES.map((c) => ({ label: CATEGORY_LABELS[c], score: a.categoryScores?.[c] ?? null }))}
            empty="No category was scored."
          />
          <h3 class="section-title">Recommendations</h3>
          {a.recommendations.length === 0 ? (
            <p class="empty">Every signal passed: nothing to recommend.</p>
          ) : (
            <ol class="recommendations">
              {a.recommendations.map((r) => (
                <li key={r.signal}>
                  <div class="recommendation-head">
                    <span class={STATUS_CLASS[r.status]}>{STATUS_WORDS[r.status]}</span>
                    <code>{r.signal}</code>
                    <span class="muted">{CATEGORY_SHORT[r.category]}</span>
                    <span class="gain">+{r.expectedGain} points</span>
                  </div>
                  <p>{r.fix}</p>
                  <p class="muted">{r.why}</p>
                </li>
              ))}
            </ol>
          )}
          <h3 class="section-title">Signals checked</h3>
          <DataTable
            caption="Signals checked"
            class="signals"
            csvName={`audit-${a.id}-signals`}
            undated
            columns={[
              { key: 'key', label: 'Signal', render: (s) => <code id={`signal-${slug(s.key)}`}>{s.key}</code> },
              {
                key: 'category',
                label: 'Category',
                render: (s) => CATEGORY_SHORT[s.category],
                csv: (s) => s.category,
              },
              {
                key: 'status',
                label: 'Result',
                render: (s) => <span class={STATUS_CLASS[s.status]}>{STATUS_WORDS[s.status]}</span>,
                csv: (s) => s.status,
              },
              { key: 'score', label: 'Score (0-1)', align: 'right' },
              { key: 'evidence', label: 'Evidence' },
            ]}
            rows={a.signals}
            empty="No signal was checked."
          />
        </>
      )}
    </section>
  );
}
