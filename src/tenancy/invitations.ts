// Invitations to an organization (docs/api.md section 18): an admin invites an email with a role;
// the link holds a random token (only its SHA-256 is stored), good for 7 days and once. Accepting
// sets the person's password and makes them a member, moving one who belonged elsewhere (as
// `members add` does), all in one transaction: a failure leaves nothing half-done. A person who
// already has a password proves it instead of setting a new one: the admin sees the link too, and
// must not be able to take over someone's account with it.
import { ApiError } from '../errors.ts';
import type { Postgres, Queryable } from '../stores/postgres.ts';
import { hashKey, newSecret } from './keys.ts';
import { normaliseEmail, upsertMember } from './members.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { checkSignIn, throttledMessage } from './sign-in.ts';
import type { Role } from './sessions.ts';

export const INVITATION_DAYS = 7;
export const INVITATION_GONE = 'This invitation link was already used or has expired';

export interface Invitation {
  organizationId: string;
  organization: string;
  email: string;
  role: Role;
  expiresAt: string;
  /** The invited email already has a password: accepting asks for it instead of a new one. */
  hasPassword: boolean;
}

/** Creates an invitation and returns its token (shown once, in the link). */
export async function createInvitation(
  db: Queryable,
  opts: { organizationId: string; email: string; role: Role; invitedBy: string },
): Promise<{ token: string; email: string; expiresAt: string }> {
  let email: string;
  try {
    email = normaliseEmail(opts.email);
  } catch {
    throw new ApiError(400, 'Email must be an email address', 'email');
  }
  const { rows: members } = await db.query(
    'SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1 AND m.organization_id = $2',
    [email, opts.organizationId],
  );
  if (members.length) throw new ApiError(409, `${email} is already a member`, 'email');
  const token = newSecret();
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO invitations (token_hash, organization_id, email, role, invited_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6)) RETURNING expires_at`,
    [hashKey(token), opts.organizationId, email, opts.role, opts.invitedBy, INVITATION_DAYS],
  );
  return { token, email, expiresAt: new Date(rows[0].expires_at).toISOString() };
}

const LIVE = `SELECT i.organization_id, o.name, i.email, i.role, i.expires_at, u.password_hash IS NOT NULL AS has_password
                FROM invitations i JOIN organizations o ON o.id = i.organization_id
                LEFT JOIN users u ON u.email = i.email
               WHERE i.token_hash = $1 AND i.used_at IS NULL AND i.expires_at > now()`;

/** The invitation a link names, while it is still good; null otherwise. */
export async function invitationByToken(db: Queryable, token: string): Promise<Invitation | null> {
  const { rows } = await db.query<{
    organization_id: string;
    name: string;
    email: string;
    role: Role;
    expires_at: Date;
    has_password: boolean;
  }>(LIVE, [hashKey(token)]);
  const r = rows[0];
  return r
    ? {
        organizationId: r.organization_id,
        organization: r.name,
        email: r.email,
        role: r.role,
        expiresAt: new Date(r.expires_at).toISOString(),
        hasPassword: r.has_password,
      }
    : null;
}

export const WRONG_PASSWORD = 'Password is incorrect';

/**
 * Uses the invitation: sets the password (or checks the one the person has) and the membership.
 * Returns the person's id.
 */
export async function acceptInvitation(
  pg: Postgres,
  token: string,
  password: string,
  /** The client address: checking an existing password counts against the sign-in throttle. */
  address: string,
): Promise<string> {
  const invitation = await invitationByToken(pg, token);
  if (!invitation) throw new ApiError(404, INVITATION_GONE);
  let hash: string | null = null;
  if (invitation.hasPassword) {
    const checked = await checkSignIn(pg, { email: invitation.email, password, address });
    if (!checked.ok && checked.reason === 'throttled') {
      throw new ApiError(429, throttledMessage(checked.retryAt, new Date()), 'password');
    }
    if (!checked.ok) throw new ApiError(400, WRONG_PASSWORD, 'password');
  } else {
    const problem = passwordProblem(password);
    if (problem) throw new ApiError(400, problem, 'password');
    hash = await hashPassword(password);
  }
  return pg.tx(async (c) => {
    // Marked used first, under its row lock: a second acceptance of the same link finds nothing.
    const { rows } = await c.query<{ organization_id: string; email: string; role: Role }>(
      `UPDATE invitations SET used_at = now()
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
        RETURNING organization_id, email, role`,
      [hashKey(token)],
    );
    const invitation = rows[0];
    if (!invitation) throw new ApiError(404, INVITATION_GONE);
    // Only admin is passed on: a member role never demotes someone who became admin meanwhile.
    const role = invitation.role === 'admin' ? 'admin' : undefined;
    const { userId } = await upsertMember(c, invitation.email, invitation.organization_id, role);
    if (hash) await c.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, hash]);
    return userId;
  });
}
