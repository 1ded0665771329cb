// Settings > Members: who belongs to the organization, with their role and when they joined, for
// every member. Admins also invite (the link is mailed to the invited address only where the server
// can send mail, else shown once), see and revoke pending invitations, change roles and remove
// members after a confirmation, never the last admin; members who are not admins see the list only.
import { DataTable } from '../../components/data-table.tsx';
import { useState } from 'preact/hooks';
import { get, messageOf, post } from '../../api.ts';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import { useApp } from '../../context.ts';
import { day } from '../../format.ts';
import { type Loaded, useLoad } from '../../load.ts';
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
  /** Shown once when the server cannot mail; null when it was mailed to the invited address. */
  link: string | null;
  expires_at: string;
  mailed: boolean;
}

interface PendingInvitation {
  id: string;
  email: string;
  role: 'admin' | 'member';
  invited_by: string | null;
  expires_at: string;
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

function PendingInvitations(p: { load: Loaded<PendingInvitation[]> }) {
  const [problem, setProblem] = useState<string>();
  const revoke = async (i: PendingInvitation) => {
    setProblem(undefined);
    try {
      await post(`/members/invitations/${i.id}/revoke`);
      p.load.reload();
    } catch (err) {
      setProblem(messageOf(err));
    }
  };
  return (
    <Panel title="Pending invitations">
      {problem && <Problem message={problem} />}
      <Pending load={p.load} />
      {p.load.data && (
        <DataTable<PendingInvitation>
          caption="Pending invitations"
          rows={p.load.data}
          rowKey={(i) => i.id}
          empty="No invitation is waiting: each one ends when it is used, revoked or 7 days old."
          columns={[
            { key: 'email', label: 'Email', render: (i) => i.email },
            { key: 'role', label: 'Role', render: (i) => i.role },
            { key: 'invited_by', label: 'Invited by', render: (i) => i.invited_by ?? '—' },
            { key: 'expires_at', label: 'Expires', render: (i) => day(i.expires_at) },
            {
              key: 'actions',
              label: 'Actions',
              hideLabel: true,
              cellClass: 'actions-cell',
              render: (i) => (
                <button type="button" class="danger" onClick={() => revoke(i)}>
                  Revoke invitation <span class="sr-only">{i.email}</span>
                </button>
              ),
            },
          ]}
        />
      )}
    </Panel>
  );
}

export function MembersPage() {
  const { me } = useApp();
  const isAdmin = me.role === 'admin';
  const members = useLoad(() => get<Member[]>('/members'), []);
  const invitations = useLoad(
    () => (isAdmin ? get<PendingInvitation[]>('/members/invitations') : Promise.resolve([])),
    [isAdmin],
  );
  const [invited, setInvited] = useState<Invited>();
  const [removing, setRemoving] = useState<Member>();
  const [problem, setProblem] = useState<string>();
  const admins = members.data?.filter((m) => m.role === 'admin').length ?? 0;
  const setRole = async (m: Member, role: 'admin' | 'member') => {
    setProblem(undefined);
    try {
      await post(`/members/${m.user_id}/role`, { role });
      members.reload();
      invitations.reload();
    } catch (err) {
      setProblem(messageOf(err));
    }
  };
  const columns = [
    {
      key: 'email',
      label: 'Email',
      render: (m: Member) => (
        <>
          {m.email}
          {m.email === me.email && <span class="muted"> (you)</span>}
        </>
      ),
    },
    {
      key: 'role',
      label: 'Role',
      render: (m: Member) => <span class={m.role === 'admin' ? 'badge accent' : 'badge'}>{m.role}</span>,
    },
    { key: 'joined_at', label: 'Joined', render: (m: Member) => day(m.joined_at) },
  ];
  // The last admin is offered nothing that would leave the organization without one.
  const lastAdmin = (m: Member) => m.role === 'admin' && admins <= 1;
  const actions = {
    key: 'actions',
    label: 'Actions',
    hideLabel: true,
    cellClass: 'actions-cell',
    render: (m: Member) =>
      lastAdmin(m) ? (
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
  };
  return (
    <>
      <PageHead
        title="Members"
        intro={
          isAdmin
            ? 'Everyone here sees every brand of the organization. Admins manage members.'
            : 'Everyone here sees every brand of the organization. Ask an admin to invite someone or change a role.'
        }
      />
      {isAdmin && (
        <Panel title="Invite">
          <InviteForm
            onInvited={(i) => {
              setInvited(i);
              invitations.reload();
            }}
          />
          {invited && (
            <div>
              <p class="notice" role="status">
                {invited.mailed
                  ? `Invitation mailed to ${invited.email}. The link goes to that address only.`
                  : `Invitation for ${invited.email} created. Send them this link.`}
              </p>
              {invited.link && (
                <CopyField
                  id="invitation-link"
                  label="Invitation link"
                  value={invited.link}
                  hint="Shown only this once. It works once, for 7 days."
                />
              )}
            </div>
          )}
        </Panel>
      )}
      <Panel title="Members">
        {problem && <Problem message={problem} />}
        <Pending load={members} />
        {members.data && (
          <DataTable<Member>
            caption="Members"
            rows={members.data}
            rowKey={(m) => m.user_id}
            columns={isAdmin ? [...columns, actions] : columns}
          />
        )}
      </Panel>
      {isAdmin && <PendingInvitations load={invitations} />}
      {removing && (
        <Confirm
          title={`Remove ${removing.email}?`}
          confirmLabel="Remove member"
          onClose={() => setRemoving(undefined)}
          onConfirm={async () => {
            await post(`/members/${removing.user_id}/remove`);
            members.reload();
            invitations.reload();
          }}
        >
          <p>Their keys, sessions and connected assistants stop seeing this organization from their next request.</p>
        </Confirm>
      )}
    </>
  );
}
