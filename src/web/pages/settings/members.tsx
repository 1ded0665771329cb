// Settings > Members (admins): who belongs to the organization, with their role and when they
// joined; Invite shows the link once (and says whether it was mailed); roles change and members
// leave after a confirmation, never the last admin.
import { DataTable } from '../../components/data-table.tsx';
import { useState } from 'preact/hooks';
import { get, messageOf, post } from '../../api.ts';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import { useApp } from '../../context.ts';
import { day } from '../../format.ts';
import { useLoad } from '../../load.ts';
import { Field, Select } from '../../components/field.tsx';
import { CopyField } from '../../components/copy-field.tsx';
import { Confirm } from '../../components/confirm.tsx';
import { PageHead, Panel, Pending, Problem } from '../../components/page.tsx';

interface Member {
  user_id: string;
  email: string;
  role: 'admin' | 'member';
  joined_at: string;
}

interface Invited {
  email: string;
  role: string;
  link: string;
  expires_at: string;
  mailed: boolean;
  mail_error: string | null;
}

const ROLES = [
  { value: 'member', label: 'Member' },
  { value: 'admin', label: 'Admin' },
];

function InviteForm(p: { onInvited: (invited: Invited) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [error, setError] = useState<FormError>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      p.onInvited(await post<Invited>('/members/invite', { email, role }));
      setEmail('');
    } catch (err) {
      setError(formError(err, ['email', 'role']));
    }
    setBusy(false);
  };
  const at = (field: string) => errorAt(error, field);
  return (
    <form class="inline-form" onSubmit={submit} aria-label="Invite a member">
      <Field
        id="invite-email"
        label="Email"
        type="email"
        value={email}
        onInput={setEmail}
        error={at('email')}
        required
      />
      <Select id="invite-role" label="Role" value={role} options={ROLES} onChange={setRole} error={at('role')} />
      <button type="submit" class="primary" disabled={busy}>
        Invite
      </button>
      {error && !error.field && <Problem message={error.message} />}
    </form>
  );
}

export function MembersPage() {
  const { me } = useApp();
  const members = useLoad(() => get<Member[]>('/members'), []);
  const [invited, setInvited] = useState<Invited>();
  const [removing, setRemoving] = useState<Member>();
  const [problem, setProblem] = useState<string>();
  const setRole = async (m: Member, role: 'admin' | 'member') => {
    setProblem(undefined);
    try {
      await post(`/members/${m.user_id}/role`, { role });
      members.reload();
    } catch (err) {
      setProblem(messageOf(err));
    }
  };
  return (
    <>
      <PageHead title="Members" intro="Everyone here sees every brand of the organization. Admins manage members." />
      <Panel title="Invite">
        <InviteForm onInvited={setInvited} />
        {invited && (
          <div>
            <p class="notice" role="status">
              {invited.mailed
                ? `Invitation mailed to ${invited.email}. You can also send the link yourself.`
                : `Invitation for ${invited.email} created. Send them this link.`}
            </p>
            {invited.mail_error && <Problem message={invited.mail_error} />}
            <CopyField
              id="invitation-link"
              label="Invitation link"
              value={invited.link}
              hint="Shown only this once. It works once, for 7 days."
            />
          </div>
        )}
      </Panel>
      <Panel title="Members">
        {problem && <Problem message={problem} />}
        <Pending load={members} />
        {members.data && (
          <DataTable<Member>
            caption="Members"
            rows={members.data}
            rowKey={(m) => m.user_id}
            columns={[
              {
                key: 'email',
                label: 'Email',
                render: (m) => (
                  <>
                    {m.email}
                    {m.email === me.email && <span class="muted"> (you)</span>}
                  </>
                ),
              },
              {
                key: 'role',
                label: 'Role',
                render: (m) => <span class={m.role === 'admin' ? 'badge accent' : 'badge'}>{m.role}</span>,
              },
              { key: 'joined_at', label: 'Joined', render: (m) => day(m.joined_at) },
              {
                key: 'actions',
                label: 'Actions',
                hideLabel: true,
                cellClass: 'actions-cell',
                render: (m) =>
                  // The only admin can be neither made a member nor removed (the server refuses
                  // both): offering the buttons would only lead to a refusal.
                  m.role === 'admin' && members.data?.filter((x) => x.role === 'admin').length === 1 ? (
                    <span class="muted">Only admin</span>
                  ) : (
                    <div class="actions">
                      <button type="button" onClick={() => setRole(m, m.role === 'admin' ? 'member' : 'admin')}>
                        {m.role === 'admin' ? 'Make member' : 'Make admin'}
                        <span class="sr-only">: {m.email}</span>
                      </button>
                      <button type="button" class="danger" onClick={() => setRemoving(m)}>
                        Remove <span class="sr-only">{m.email}</span>
                      </button>
                    </div>
                  ),
              },
            ]}
          />
        )}
      </Panel>
      {removing && (
        <Confirm
          title={`Remove ${removing.email}?`}
          confirmLabel="Remove member"
          onClose={() => setRemoving(undefined)}
          onConfirm={async () => {
            await post(`/members/${removing.user_id}/remove`);
            members.reload();
          }}
        >
          <p>Their keys, sessions and connected assistants stop seeing this organization from their next request.</p>
        </Confirm>
      )}
    </>
  );
}
