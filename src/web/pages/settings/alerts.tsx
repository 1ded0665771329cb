// Settings > Alerts: the alert rules of the brand in view (create, delete) and its recent firings,
// through the API's alert operations.
import { DataTable } from '../../components/data-table.tsx';
import { useState } from 'preact/hooks';
import { change, read } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import { useApp } from '../../context.ts';
import { day } from '../../format.ts';
import { useLoad } from '../../load.ts';
import { Field, Select } from '../../components/field.tsx';
import { Confirm } from '../../components/confirm.tsx';
import { TrashIcon } from '../../components/icons.tsx';
import { Empty, PageHead, Panel, Pending, Problem } from '../../components/page.tsx';

type Rule = Result<'alert-rules'>[number];
type Firing = Result<'alerts'>['alerts'][number];

const METRICS = [
  { value: 'ai_visibility_score', label: 'AI visibility score' },
  { value: 'mention_rate', label: 'Mention rate' },
  { value: 'citation_rate', label: 'Citation rate' },
  { value: 'share_of_voice', label: 'Share of voice' },
  { value: 'net_sentiment', label: 'Net sentiment' },
];
const CONDITIONS = [
  { value: 'drops_by', label: 'drops by (points)' },
  { value: 'rises_by', label: 'rises by (points)' },
  { value: 'below', label: 'is below' },
  { value: 'above', label: 'is above' },
];
const metricLabel = (m: string) => METRICS.find((x) => x.value === m)?.label ?? m;
const conditionLabel = (c: string) => CONDITIONS.find((x) => x.value === c)?.label ?? c;
const ruleText = (r: { metric: string; condition: string; threshold: number }) =>
  `${metricLabel(r.metric)} ${conditionLabel(r.condition)} ${r.threshold}`;

function NewRule(p: { brandId: string; onCreated: () => void }) {
  const [metric, setMetric] = useState('ai_visibility_score');
  const [condition, setCondition] = useState('drops_by');
  const [threshold, setThreshold] = useState('5');
  const [windowDays, setWindowDays] = useState('7');
  const [error, setError] = useState<FormError>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      await change('create-alert-rule', { brand_id: p.brandId, metric, condition, threshold, window_days: windowDays });
      p.onCreated();
    } catch (err) {
      setError(formError(err, ['metric', 'condition', 'threshold', 'window_days']));
    }
  };
  const at = (f: string) => errorAt(error, f);
  return (
    <form class="inline-form" onSubmit={submit} aria-label="New alert rule">
      <Select id="metric" label="Metric" value={metric} options={METRICS} onChange={setMetric} error={at('metric')} />
      <Select
        id="condition"
        label="Condition"
        value={condition}
        options={CONDITIONS}
        onChange={setCondition}
        error={at('condition')}
      />
      <Field
        id="threshold"
        label="Threshold"
        value={threshold}
        onInput={setThreshold}
        inputMode="decimal"
        error={at('threshold')}
        required
      />
      <Field
        id="window_days"
        label="Window (days)"
        value={windowDays}
        onInput={setWindowDays}
        inputMode="numeric"
        error={at('window_days')}
        required
      />
      <button type="submit" class="primary">
        Create rule
      </button>
      {error && !error.field && <Problem message={error.message} />}
    </form>
  );
}

export function AlertsPage() {
  const { brand } = useApp();
  const brandId = brand?.id;
  const rules = useLoad(() => (brandId ? read('alert-rules', { brand_id: brandId }) : Promise.resolve([])), [brandId]);
  const firings = useLoad(
    () => (brandId ? read('alerts', { brand_id: brandId, limit: '20' }).then((r) => r.alerts) : Promise.resolve([])),
    [brandId],
  );
  const [deleting, setDeleting] = useState<Rule>();
  if (!brand) {
    return (
      <>
        <PageHead title="Alerts" />
        <Empty>Alerts watch a brand; your organization has none yet.</Empty>
      </>
    );
  }
  return (
    <>
      <PageHead
        title="Alerts"
        intro={
          `Rules for ${brand.name}, checked daily over complete UTC days; a rule fires only with at least 20 ` +
          'answers in both windows.'
        }
      />
      <Panel title="New rule">
        <NewRule brandId={brand.id} onCreated={rules.reload} />
      </Panel>
      <Panel title="Rules">
        <Pending load={rules} />
        {rules.data && !rules.data.length && <Empty>No rules yet.</Empty>}
        {rules.data && rules.data.length > 0 && (
          <DataTable<Rule>
            caption="Alert rules"
            rows={rules.data}
            rowKey={(r) => r.id}
            columns={[
              { key: 'rule', label: 'Rule', render: (r) => ruleText(r) },
              { key: 'window_days', label: 'Window', align: 'right', render: (r) => `${r.window_days} days` },
              {
                key: 'firing',
                label: 'State',
                render: (r) => (r.firing ? <span class="badge bad">firing</span> : <span class="badge">quiet</span>),
              },
              { key: 'evaluated_on', label: 'Last checked', render: (r) => day(r.evaluated_on) },
              {
                key: 'actions',
                label: 'Actions',
                hideLabel: true,
                cellClass: 'actions-cell',
                render: (r) => (
                  <button
                    type="button"
                    class="icon"
                    aria-label={`Delete rule: ${ruleText(r)}`}
                    title="Delete"
                    onClick={() => setDeleting(r)}
                  >
                    <TrashIcon />
                  </button>
                ),
              },
            ]}
          />
        )}
      </Panel>
      <Panel title="Recent firings">
        {firings.error && <Problem message={firings.error} />}
        {firings.data && !firings.data.length && <Empty>Nothing has fired.</Empty>}
        {firings.data && firings.data.length > 0 && (
          <DataTable<Firing>
            caption="Recent firings"
            rows={firings.data}
            rowKey={(a) => a.id}
            columns={[
              { key: 'rule', label: 'Rule', render: (a) => ruleText(a) },
              { key: 'previous', label: 'Previous', align: 'right' },
              { key: 'current', label: 'Current', align: 'right' },
              { key: 'evaluated_on', label: 'Day', render: (a) => day(a.evaluated_on) },
            ]}
          />
        )}
      </Panel>
      {deleting && (
        <Confirm
          title="Delete this rule?"
          confirmLabel="Delete rule"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await change('delete-alert-rule', { id: deleting.id });
            rules.reload();
          }}
        >
          <p>{ruleText(deleting)}. Its past firings stay listed.</p>
        </Confirm>
      )}
    </>
  );
}
