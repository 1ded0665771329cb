// Settings > Account: who is signed in; a change of password (the current one first; every other
// session ends, and so does every assistant allowed while signed in, keys stay); the person's
// sessions with `Sign out other sessions`; and their organizations, each with `Leave <organization>`.
import { useState } from 'preact/hooks';
import { get, messageOf, post } from '../../api.ts';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import { useApp } from '../../context.ts';
import { day } from '../../format.ts';
import { useLoad } from '../../load.ts';
import { Field } from '../../components/field.tsx';
import { Confirm } from '../../components/confirm.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { PageHead, Panel, Pending, Problem } from '../../components/page.tsx';

interface SessionRow {
  id: string;
  current: boolean;
  started_at: string;
  last_used_at: string;
  address: string | null;
  browser: string | null;
}

const when = (iso: string) => `${day(iso)} ${iso.slice(11, 16)} UTC`;

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<FormError>();
  const [done, setDone] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setDone(false);
    try {
      await post('/account/password', { current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setDone(true);
    } catch (err) {
      setError(formError(err, ['current_password', 'new_password']));
    }
  };
  const at = (f: string) => errorAt(error, f);
  return (
    <form class="stack" onSubmit={submit} aria-label="Change password">
      <Field
        id="current_password"
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={current}
        onInput={setCurrent}
        error={at('current_password')}
        required
      />
      <Field
        id="new_password"
        label="New password"
        type="password"
        autoComplete="new-password"
        value={next}
        onInput={setNext}
        error={at('new_password')}
        hint={
          'At least 10 characters. Your other sessions are signed out and assistants you allowed while signed in ' +
          'are disconnected; your API keys keep working.'
        }
        required
      />
      {error && !error.field && <Problem message={error.message} />}
      {done && (
        <p class="notice" role="status">
          Password changed.
        </p>
      )}
      <div>
        <button type="submit" class="primary">
          Change password
        </button>
      </div>
    </form>
  );
}

function Sessions() {
  const sessions = useLoad(() => get<SessionRow[]>('/account/sessions'), []);
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const others = (sessions.data?.length ?? 0) > 1;
  const signOutOthers = async () => {
    setProblem(undefined);
    try {
      await post('/account/sessions/sign-out-others');
      setNotice('Your other sessions are signed out.');
      sessions.reload();
    } catch (err) {
      setProblem(messageOf(err));
    }
  };
  return (
    <Panel title="Sessions">
      <p class="muted">Where you are signed in. A session ends after 14 days unused, and 30 days after signing in.</p>
      {problem && <Problem message={problem} />}
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <Pending load={sessions} />
      {sessions.data && (
        <DataTable<SessionRow>
          caption="Sessions"
          rows={sessions.data}
          rowKey={(s) => s.id}
          columns={[
            {
              key: 'browser',
              label: 'Browser',
              render: (s) => (
                <>
                  {s.browser ?? 'Unknown'}
                  {s.current && <span class="muted"> (this session)</span>}
                </>
              ),
            },
            { key: 'address', label: 'Address', render: (s) => s.address ?? '—' },
            { key: 'started_at', label: 'Started', render: (s) => when(s.started_at) },
            { key: 'last_used_at', label: 'Last used', render: (s) => when(s.last_used_at) },
          ]}
        />
      )}
      <div class="after-table">
        <button type="button" onClick={signOutOthers} disabled={!others}>
          Sign out other sessions
        </button>
      </div>
    </Panel>
  );
}

function Organizations() {
  const { me } = useApp();
  const [leaving, setLeaving] = useState<{ id: string; name: string }>();
  return (
    <Panel title="Organizations">
      <ul class="plain-list">
        {me.organizations.map((o) => (
          <li key={o.id} class="plain-list-item row-between">
            <span>
              {o.name} <span class="muted">({o.role})</span>
            </span>
            <button type="button" class="danger" onClick={() => setLeaving(o)}>
              Leave {o.name}
            </button>
          </li>
        ))}
      </ul>
      {leaving && (
        <Confirm
          title={`Leave ${leaving.name}?`}
          confirmLabel="Leave organization"
          onClose={() => setLeaving(undefined)}
          onConfirm={async () => {
            await post('/account/leave', { organization_id: leaving.id });
            location.assign('/app');
          }}
        >
          <p>
            You will no longer see its brands; your keys of this organization and the assistants you allowed for it stop
            working. An admin can invite you again.
          </p>
        </Confirm>
      )}
    </Panel>
  );
}

export function AccountPage() {
  const { me } = useApp();
  return (
    <>
      <PageHead
        title="Account"
        intro={`Signed in as ${me.email}${me.role ? `, ${me.role} of ${me.organization?.name}` : ''}.`}
      />
      <Panel title="Change password">
        <PasswordForm />
      </Panel>
      <Sessions />
      <Organizations />
    </>
  );
}
