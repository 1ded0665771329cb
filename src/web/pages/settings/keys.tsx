// Settings > API keys: the person's keys (the command line's too), a new key shown once with
// Copy, and Revoke after a confirmation; a revoked key answers 401 on its next request.
import { DataTable } from '../../components/data-table.tsx';
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, post } from '../../api.ts';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import { dateTime } from '../../format.ts';
import { useLoad } from '../../load.ts';
import { Field } from '../../components/field.tsx';
import { CopyField } from '../../components/copy-field.tsx';
import { Confirm } from '../../components/confirm.tsx';
import { TrashIcon } from '../../components/icons.tsx';
import { Empty, PageHead, Panel, Pending, Problem } from '../../components/page.tsx';

interface Key {
  id: string;
  name: string | null;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

const keyName = (k: Key) => k.name ?? k.prefix;

function NewKey(p: { onCreated: (key: string) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<FormError>();
  const [busy, setBusy] = useState(false);
  // The button that opened the form is gone: the keyboard goes on in the form's first field.
  useEffect(() => document.getElementById('name')?.focus(), []);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const created = await post<{ key: string }>('/keys', { name });
      p.onCreated(created.key);
    } catch (err) {
      setError(formError(err, ['name']));
      setBusy(false);
    }
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label="New key">
      <Field
        id="name"
        label="Name"
        value={name}
        onInput={setName}
        error={errorAt(error, 'name')}
        hint="Where the key will be used, e.g. Looker Studio."
        required
      />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Create key
        </button>
        <button type="button" onClick={p.onCancel}>
          Cancel
        </button>
      </div>
      {error && error.field !== 'name' && <Problem message={error.message} />}
    </form>
  );
}

export function KeysPage() {
  const keys = useLoad(() => get<Key[]>('/keys'), []);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string>();
  const [revoking, setRevoking] = useState<Key>();
  // Keyboard focus follows what the person is doing: the new key once it is shown (to copy it),
  // and New key again when the form or the key is put away, never the page's top.
  const newKeyButton = useRef<HTMLButtonElement>(null);
  const [backToButton, setBackToButton] = useState(false);
  useEffect(() => {
    if (created) document.getElementById('new-key')?.focus();
  }, [created]);
  useEffect(() => {
    if (backToButton && !creating && !created) newKeyButton.current?.focus();
    setBackToButton(false);
  }, [backToButton, creating, created]);
  return (
    <>
      <PageHead title="API keys" intro="Keys let scripts, reporting tools and AI assistants read your figures as you.">
        {!creating && (
          <button
            type="button"
            class="primary"
            ref={newKeyButton}
            onClick={() => {
              setCreated(undefined);
              setCreating(true);
            }}
          >
            New key
          </button>
        )}
      </PageHead>
      {creating && (
        <Panel title="New key">
          <NewKey
            onCancel={() => {
              setCreating(false);
              setBackToButton(true);
            }}
            onCreated={(key) => {
              setCreating(false);
              setCreated(key);
              keys.reload();
            }}
          />
        </Panel>
      )}
      {created && (
        <Panel title="Your new key">
          <CopyField id="new-key" label="New API key" value={created} hint="Copy it now: it is shown only this once." />
          <button
            type="button"
            onClick={() => {
              setCreated(undefined);
              setBackToButton(true);
            }}
          >
            Done
          </button>
        </Panel>
      )}
      <Panel title="Your keys">
        <Pending load={keys} />
        {keys.data && !keys.data.length && <Empty>No keys yet. Create one with New key.</Empty>}
        {keys.data && keys.data.length > 0 && (
          <DataTable<Key>
            caption="Your API keys"
            rows={keys.data}
            rowKey={(k) => k.id}
            columns={[
              { key: 'name', label: 'Name', render: (k) => k.name ?? <span class="muted">No name</span> },
              { key: 'prefix', label: 'Key', render: (k) => <code>{k.prefix}…</code> },
              { key: 'created_at', label: 'Created', render: (k) => dateTime(k.created_at) },
              { key: 'last_used_at', label: 'Last used', render: (k) => dateTime(k.last_used_at) },
              {
                key: 'actions',
                label: 'Actions',
                hideLabel: true,
                cellClass: 'actions-cell',
                render: (k) => (
                  <button
                    type="button"
                    class="icon"
                    aria-label={`Revoke ${keyName(k)}`}
                    title="Revoke"
                    onClick={() => setRevoking(k)}
                  >
                    <TrashIcon />
                  </button>
                ),
              },
            ]}
          />
        )}
      </Panel>
      {revoking && (
        <Confirm
          title={`Revoke ${keyName(revoking)}?`}
          confirmLabel="Revoke key"
          onClose={() => setRevoking(undefined)}
          onConfirm={async () => {
            await post(`/keys/${revoking.id}/revoke`);
            keys.reload();
          }}
        >
          <p>Anything using this key gets 401 Invalid API key from its next request. This cannot be undone.</p>
        </Confirm>
      )}
    </>
  );
}
