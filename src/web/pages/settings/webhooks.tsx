// Settings > Webhooks: the webhook operations of the API as a page. An endpoint is a URL with its
// events, in the Standard Webhooks format (signed; its secret is shown once) or the Slack format (a
// Slack incoming webhook: messages, unsigned); Send test queues a webhook.test; each endpoint's
// recent deliveries show their status and attempts.
import { DataTable } from '../../components/data-table.tsx';
import { useState } from 'preact/hooks';
import { change, messageOf, read } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import { dateTime } from '../../format.ts';
import { useLoad } from '../../load.ts';
import { Field, Notes, Select } from '../../components/field.tsx';
import { CopyField } from '../../components/copy-field.tsx';
import { Confirm } from '../../components/confirm.tsx';
import { Empty, PageHead, Panel, Pending, Problem } from '../../components/page.tsx';

type Endpoint = Result<'webhooks'>[number];
type Delivery = Result<'webhook-deliveries'>[number];

const EVENTS = [
  { value: 'opportunity.sent', label: 'opportunity.sent: a content opportunity is marked sent' },
  { value: 'digest.daily', label: "digest.daily: each brand's figures of the previous day" },
  { value: 'alert.fired', label: 'alert.fired: an alert rule fired' },
  { value: 'webhook.test', label: 'webhook.test: the test event' },
];

const FORMATS = [
  { value: 'standard', label: 'Standard Webhooks (signed JSON)' },
  { value: 'slack', label: 'Slack (incoming webhook)' },
];
/** What a Slack endpoint takes (the API refuses the others for it). */
const SLACK_EVENTS = ['alert.fired', 'digest.daily', 'webhook.test'];

function AddWebhook(p: { onAdded: (secret: string | null) => void }) {
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState('standard');
  const [events, setEvents] = useState<string[]>(['digest.daily']);
  const [error, setError] = useState<FormError>();
  const [busy, setBusy] = useState(false);
  const toggle = (event: string, on: boolean) =>
    setEvents((list) => (on ? [...list, event] : list.filter((e) => e !== event)));
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const created = await change('create-webhook', { url, events, format });
      setUrl('');
      p.onAdded(created.secret);
    } catch (err) {
      setError(formError(err, ['url', 'events', 'format']));
    }
    setBusy(false);
  };
  const eventsError = errorAt(error, 'events');
  return (
    <form class="stack" onSubmit={submit} aria-label="Add webhook">
      <Field
        id="webhook-url"
        label="URL"
        type="url"
        value={url}
        onInput={setUrl}
        error={errorAt(error, 'url')}
        hint="An https address that answers 2xx within 10 seconds."
        required
      />
      <Select
        id="webhook-format"
        label="Format"
        value={format}
        options={FORMATS}
        onChange={(f) => {
          setFormat(f);
          if (f === 'slack') setEvents((list) => list.filter((e) => SLACK_EVENTS.includes(e)));
        }}
        error={errorAt(error, 'format')}
      />
      <fieldset aria-describedby={eventsError ? 'events-error' : undefined}>
        <legend>Events</legend>
        {EVENTS.filter((ev) => format !== 'slack' || SLACK_EVENTS.includes(ev.value)).map((ev) => (
          <label class="check" key={ev.value}>
            <input
              type="checkbox"
              checked={events.includes(ev.value)}
              onChange={(e) => toggle(ev.value, e.currentTarget.checked)}
            />
            {ev.label}
          </label>
        ))}
        <Notes id="events" error={eventsError} />
      </fieldset>
      {format === 'slack' ? (
        <p class="hint">
          Paste a Slack incoming webhook URL (<code>https://hooks.slack.com/services/…</code>): alerts and the daily
          digest arrive in its channel as messages, unsigned.
        </p>
      ) : (
        <p class="hint">
          Format: JSON <code>{'{type, timestamp, data}'}</code>
          {', signed as Standard Webhooks ('}
          <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>).
        </p>
      )}
      {error && !error.field && <Problem message={error.message} />}
      <div>
        <button type="submit" class="primary" disabled={busy}>
          Add webhook
        </button>
      </div>
    </form>
  );
}

function Deliveries(p: { endpoint: Endpoint; round: number }) {
  const list = useLoad(() => read('webhook-deliveries', { id: p.endpoint.id, limit: '10' }), [p.endpoint.id, p.round]);
  if (!list.data) return <Pending load={list} />;
  if (!list.data.length) return <Empty>No deliveries yet.</Empty>;
  return (
    <DataTable<Delivery>
      caption={`Recent deliveries to ${p.endpoint.url}`}
      rows={list.data}
      rowKey={(d) => d.id}
      columns={[
        { key: 'type', label: 'Event', render: (d) => <code>{d.type}</code> },
        {
          key: 'status',
          label: 'Status',
          render: (d) => (
            <span class={d.status === 'succeeded' ? 'badge ok' : d.status === 'failed' ? 'badge bad' : 'badge'}>
              {d.status}
            </span>
          ),
        },
        { key: 'attempt_count', label: 'Attempts', align: 'right' },
        { key: 'created_at', label: 'Created', render: (d) => dateTime(d.created_at) },
      ]}
    />
  );
}

function EndpointPanel(p: { endpoint: Endpoint; onDelete: () => void }) {
  const [round, setRound] = useState(0);
  const [note, setNote] = useState<string>();
  const test = async () => {
    try {
      await change('test-webhook', { id: p.endpoint.id });
      setNote('Test event queued.');
      setRound((r) => r + 1);
    } catch (err) {
      setNote(messageOf(err));
    }
  };
  return (
    <section class="panel" aria-label={p.endpoint.url}>
      <div class="panel-head">
        <div>
          <h2 class="mono">{p.endpoint.url}</h2>
          <p class="muted">
            {p.endpoint.format === 'slack' ? 'Slack · ' : ''}
            {p.endpoint.events.join(', ')} · added {dateTime(p.endpoint.created_at)}
          </p>
        </div>
        <div class="actions">
          <button type="button" onClick={test}>
            Send test
          </button>
          <button type="button" class="danger" onClick={p.onDelete}>
            Delete <span class="sr-only">{p.endpoint.url}</span>
          </button>
        </div>
      </div>
      {note && (
        <p class="notice" role="status">
          {note}
        </p>
      )}
      <h3 class="nav-heading">Recent deliveries</h3>
      <Deliveries endpoint={p.endpoint} round={round} />
    </section>
  );
}

export function WebhooksPage() {
  const endpoints = useLoad(() => read('webhooks'), []);
  const [secret, setSecret] = useState<string | null>();
  const [deleting, setDeleting] = useState<Endpoint>();
  return (
    <>
      <PageHead
        title="Webhooks"
        intro="Events sent to your own systems as they happen, signed so you can check they came from here."
      />
      <Panel title="Add a webhook">
        <AddWebhook
          onAdded={(s) => {
            setSecret(s);
            endpoints.reload();
          }}
        />
        {secret && (
          <CopyField
            id="webhook-secret"
            label="Signing secret"
            value={secret}
            hint="Shown only this once: keep it where you verify signatures."
          />
        )}
      </Panel>
      <Pending load={endpoints} />
      {endpoints.data && !endpoints.data.length && (
        <Panel title="Endpoints">
          <Empty>No webhooks yet.</Empty>
        </Panel>
      )}
      {endpoints.data?.map((ep) => (
        <EndpointPanel key={ep.id} endpoint={ep} onDelete={() => setDeleting(ep)} />
      ))}
      {deleting && (
        <Confirm
          title="Delete this webhook?"
          confirmLabel="Delete webhook"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await change('delete-webhook', { id: deleting.id });
            endpoints.reload();
          }}
        >
          <p>
            <code>{deleting.url}</code> gets no more events; deliveries still pending are dropped.
          </p>
        </Confirm>
      )}
    </>
  );
}
