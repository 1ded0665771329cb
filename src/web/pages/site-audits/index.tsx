// Site audits: start one (the URL field with its problem beside it, this month's quota beside the
// button), watch it finish, and read it. The audit in view is in the address (?audit=ID), so a
// copied link opens it again; the recent audits are the site-audits operation's list.
import { useState } from 'preact/hooks';
import { change, read } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import { dateTime, figure } from '../../format.ts';
import { useLoad, usePoll } from '../../load.ts';
import { navigate } from '../../router.ts';
import { DataTable } from '../../components/data-table.tsx';
import { OpenLink } from '../../components/open-link.tsx';
import { type Quota, quotaWords } from '../../components/quota.tsx';
import { Field } from '../../components/field.tsx';
import { PageHead, Panel, Pending, Problem } from '../../components/page.tsx';
import type { PageProps } from '../../page-props.ts';
import { AuditStatus, AuditView, POLL_MS } from './audit.tsx';
import '../activity.css';

type AuditItem = Result<'site-audits'>[number];

const auditHref = (brandId: string, id: string) =>
  `/app/brands/${encodeURIComponent(brandId)}/site-audits?audit=${encodeURIComponent(id)}`;

function StartAudit(p: { brandId: string; quota: Quota | undefined; onStarted: (id: string) => void }) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState<FormError>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const started = await change('run-site-audit', { brand_id: p.brandId, url: url.trim() });
      setUrl('');
      p.onStarted(started.id);
    } catch (err) {
      // 402 (quota used up) and 429 are not about the field: shown under the form as the API words them.
      setError(formError(err, ['url']));
    }
    setBusy(false);
  };
  return (
    <form class="inline-form start-audit" onSubmit={submit} aria-label="Start a site audit" noValidate>
      <Field
        id="audit-url"
        label="Page URL"
        type="url"
        value={url}
        onInput={setUrl}
        error={errorAt(error, 'url')}
        hint="An http(s) address of one page, e.g. https://www.example.com/pricing"
        required
      />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Starting…' : 'Start audit'}
        </button>
      </div>
      {error && error.field !== 'url' && <Problem message={error.message} />}
      <p class="quota-line" aria-live="polite">
        {p.quota ? quotaWords(p.quota, 'site audits') : 'Reading this month’s quota…'}
      </p>
    </form>
  );
}

export function SiteAuditsPage(p: PageProps) {
  const brandId = p.params.brandId;
  const auditId = p.query.get('audit') ?? undefined;
  const [round, setRound] = useState(0);
  const refresh = () => setRound((r) => r + 1);
  const quota = useLoad(() => read('site-audit-quota'), [round]);
  const list = useLoad(() => read('site-audits', { brand_id: brandId }), [brandId, round]);
  // An audit running with none open (the open one polls for itself): read the list again until it ends.
  const anyRunning = !auditId && !!list.data?.some((a) => a.status === 'running');
  usePoll(list, anyRunning, POLL_MS);
  return (
    <>
      <PageHead
        title="Site audits"
        intro={
          'How ready one page is for AI answers: technical access, structure, content, authority and E-E-A-T, ' +
          'with what to fix first.'
        }
      />
      <Panel title="Start an audit">
        <StartAudit
          brandId={brandId}
          quota={quota.data}
          onStarted={(id) => {
            refresh();
            navigate(auditHref(brandId, id));
          }}
        />
        {quota.error && <Problem message={quota.error} />}
      </Panel>
      {auditId && (
        <AuditView
          auditId={auditId}
          onSettled={refresh}
          closeHref={`/app/brands/${encodeURIComponent(brandId)}/site-audits`}
        />
      )}
      <Panel title="Recent audits">
        <Pending load={list} />
        {list.data && (
          <DataTable
            caption="The 50 most recent audits, newest first"
            csvName="site-audits"
            undated
            columns={[
              {
                key: 'url',
                label: 'Page',
                render: (r: AuditItem) => (
                  <OpenLink href={auditHref(brandId, r.id)} open={r.id === auditId}>
                    {r.url}
                  </OpenLink>
                ),
              },
              { key: 'status', label: 'Status', render: (r: AuditItem) => <AuditStatus status={r.status} /> },
              {
                key: 'totalScore',
                label: 'Score',
                align: 'right',
                render: (r: AuditItem) => figure(r.totalScore),
              },
              {
                key: 'signals',
                label: 'Signals evaluated',
                align: 'right',
                render: (r: AuditItem) => figure(r.signalsEvaluated),
              },
              {
                key: 'signalsTotal',
                label: 'Signals total',
                align: 'right',
                render: (r: AuditItem) => figure(r.signalsTotal),
              },
              {
                key: 'createdAt',
                label: 'Started',
                render: (r: AuditItem) => dateTime(r.createdAt),
                csv: (r: AuditItem) => r.createdAt,
              },
            ]}
            rows={list.data}
            empty="No audit yet. Start one above."
          />
        )}
      </Panel>
    </>
  );
}
