// Settings > Reports: the person's email reports, one per brand and frequency (daily or weekly),
// sent at the UTC hour they choose: the six figures with their change and verdict, the competitors
// that moved and the top gap domains, linking back here. Mail needs SMTP_URL on the server; without
// it the page says so and offers no subscription.
import { useState } from 'preact/hooks';
import { post, get } from '../../api.ts';
import { useApp } from '../../context.ts';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import { dateTime } from '../../format.ts';
import { useLoad } from '../../load.ts';
import { Select } from '../../components/field.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { Empty, PageHead, Panel, Pending, Problem } from '../../components/page.tsx';

interface Subscription {
  id: string;
  brand_id: string;
  frequency: 'daily' | 'weekly';
  hour: number;
  last_period_end: string | null;
  last_sent_at: string | null;
}

interface Reports {
  mail_configured: boolean;
  subscriptions: Subscription[];
}

const FREQUENCIES = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
];
const hourText = (h: number) => `${String(h).padStart(2, '0')}:00 UTC`;
const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: hourText(h) }));

function Subscribe(p: { onDone: () => void; disabled: boolean }) {
  const { brands, brand } = useApp();
  const [brandId, setBrandId] = useState(brand?.id ?? brands[0]?.id ?? '');
  const [frequency, setFrequency] = useState('weekly');
  const [hour, setHour] = useState('7');
  const [error, setError] = useState<FormError>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      await post('/reports', { brand_id: brandId, frequency, hour: Number(hour) });
      const name = brands.find((b) => b.id === brandId)?.name ?? 'the brand';
      setDone(`Subscribed: a ${frequency} report on ${name}. The first one goes out at ${hourText(Number(hour))}.`);
      p.onDone();
    } catch (err) {
      setError(formError(err, ['brand_id', 'frequency', 'hour']));
    }
    setBusy(false);
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label="Subscribe to a report">
      <Select
        id="report-brand"
        label="Brand"
        value={brandId}
        options={brands.map((b) => ({ value: b.id, label: b.name }))}
        onChange={setBrandId}
        error={errorAt(error, 'brand_id')}
      />
      <Select
        id="report-frequency"
        label="Frequency"
        value={frequency}
        options={FREQUENCIES}
        onChange={setFrequency}
        error={errorAt(error, 'frequency')}
      />
      <Select
        id="report-hour"
        label="Hour"
        value={hour}
        options={HOURS}
        onChange={setHour}
        error={errorAt(error, 'hour')}
      />
      <button type="submit" class="primary" disabled={busy || p.disabled}>
        Subscribe
      </button>
      {error && !error.field && <Problem message={error.message} />}
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
    </form>
  );
}

export function ReportsPage() {
  const { brands } = useApp();
  const reports = useLoad(() => get<Reports>('/reports'), []);
  const [error, setError] = useState<string>();
  const r = reports.data;
  const brandName = (id: string) => brands.find((b) => b.id === id)?.name ?? id;
  return (
    <>
      <PageHead
        title="Reports"
        intro={
          'A daily or weekly email per brand: the six figures with their change, the competitors that moved and ' +
          'the top gap domains, each linking here.'
        }
      />
      <Pending load={reports} />
      {r && (
        <Panel title="Subscribe">
          {!r.mail_configured && (
            <p class="notice warn" role="status">
              Email reports need <code>SMTP_URL</code>, which is not set on this server: ask whoever runs it to set it.
              Until then nothing can be mailed.
            </p>
          )}
          <Subscribe onDone={reports.reload} disabled={!r.mail_configured} />
        </Panel>
      )}
      {r && (
        <Panel title="Your reports">
          {error && <Problem message={error} />}
          {!r.subscriptions.length ? (
            <Empty>No reports yet: subscribe above to get one.</Empty>
          ) : (
            <DataTable<Subscription>
              caption="Your email reports"
              rows={r.subscriptions}
              rowKey={(s) => s.id}
              columns={[
                {
                  key: 'brand_id',
                  label: 'Brand',
                  render: (s) => brandName(s.brand_id),
                  sort: (s) => brandName(s.brand_id),
                },
                { key: 'frequency', label: 'Frequency', render: (s) => (s.frequency === 'daily' ? 'Daily' : 'Weekly') },
                { key: 'hour', label: 'Hour', render: (s) => hourText(s.hour) },
                { key: 'last_sent_at', label: 'Last sent', render: (s) => dateTime(s.last_sent_at) },
                {
                  key: 'actions',
                  label: 'Actions',
                  hideLabel: true,
                  cellClass: 'actions-cell',
                  render: (s) => (
                    <button
                      type="button"
                      onClick={async () => {
                        setError(undefined);
                        try {
                          await post(`/reports/${s.id}/unsubscribe`);
                          reports.reload();
                        } catch (err) {
                          setError((err as Error).message);
                        }
                      }}
                    >
                      Unsubscribe{' '}
                      <span class="sr-only">
                        from the {s.frequency} report on {brandName(s.brand_id)}
                      </span>
                    </button>
                  ),
                },
              ]}
            />
          )}
        </Panel>
      )}
    </>
  );
}
