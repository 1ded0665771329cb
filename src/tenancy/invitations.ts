// Invitations to an organization (docs/app.md, "People, organizations, keys and grants"). An admin
// invites an email with a role; the link holds a random token (only its SHA-256 is stored), good for
// 7 days and once, and only while its inviter is still an admin of the organization. Pending
// invitations are listed and revoked by id.
//
// An invitation never changes an existing account's password and never removes anyone from an
// organization: it only adds a membership. Whoever holds the link (the admin too, when it is shown
// to them) can open a new account for an email that has none; for an email that has one, they
// must know its password, checked and throttled as a sign-in is. A wrong password and an account
// with no password yet read alike, and so does everything else the page says, whether or not the
// email has an account.
import { randomUUID } from 'node:crypto';
import { ApiError } from '../errors.ts';
import { UUID_RE } from '../uuid.ts';
import type { Postgres, Queryable } from '../stores/postgres.ts';
import { normaliseEmail } from './emails.ts';
import { hashKey, newSecret } from './keys.ts';
import { joinOrganization, roleIn } from './members.ts';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import { blockedUntil, checkSignIn, Throttled } from './sign-in.ts';
import type { Role } from './sessions.ts';

export const INVITATION_DAYS = 7;
export const INVITATION_GONE = 'This invitation link was already used or has expired';
export const WRONG_PASSWORD = 'Password is incorrect';

export interface Invitation {
  organizationId: string;
  organization: string;
  email: string;
  role: Role;
  expiresAt: string;
}

/** Creates a pending invitation (an earlier one for the same email dies) and returns its token. */
export async function createInvitation(
  db: Queryable,
  opts: { organizationId: string; email: string; role: Role; invitedBy: string },
): Promise<{ id: string; token: string; email: string; expiresAt: string }> {
  const email = normaliseEmail(opts.email);
  const { rows: members } = await db.query(
    'SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1 AND m.organization_id = $2',
    [email, opts.organizationId],
  );
  if (members.length) throw new ApiError(409, `${email} is already a member`, 'email');
  await db.query(
    `UPDATE invitations SET revoked_at = now()
      WHERE organization_id = $1 AND email = $2 AND used_at IS NULL AND revoked_at IS NULL`,
    [opts.organizationId, email],
  );
  const token = newSecret();
  const id = randomUUID();
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO invitations (id, token_hash, organization_id, email, role, invited_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(days => $7)) RETURNING expires_at`,
    [id, hashKey(token), opts.organizationId, email, opts.role, opts.invitedBy, INVITATION_DAYS],
  );
  return { id, token, email, expiresAt: new Date(rows[0].expires_at).toISOString() };
}

/** Drops a just-made invitation that could not be delivered: nothing of it remains. */
export async function dropInvitation(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM invitations WHERE id = $1 AND used_at IS NULL', [id]);
}

// Good: not used, not revoked, not expired, and its inviter still an admin of the organization.
const LIVE = `i.used_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()
  AND EXISTS (SELECT 1 FROM memberships a
               WHERE a.user_id = i.invited_by AND a.organization_id = i.organization_id AND a.role = 'admin')`;

/** The invitation a link names, while it is still good; null otherwise. */
export async function invitationByToken(db: Queryable, token: string): Promise<Invitation | null> {
  const { rows } = await db.query<{
    organization_id: string;
    name: string;
    email: string;
    role: Role;
    expires_at: Date;
  }>(
    `SELECT i.organization_id, o.name, i.email, i.role, i.expires_at
       FROM invitations i JOIN organizations o ON o.id = i.organization_id
      WHERE i.token_hash = $1 AND ${LIVE}`,
    [hashKey(token)],
  );
  const r = rows[0];
  return r
    ? {
        organizationId: r.organization_id,
        organization: r.name,
        email: r.email,
        role: r.role,
        expiresAt: new Date(r.expires_at).toISOString(),
      }
    : null;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

/** Settings > Members, Pending invitations: those still good, soonest to expire first. */
export async function pendingInvitations(db: Queryable, organizationId: string): Promise<PendingInvitation[]> {
  const { rows } = await db.query<{
    id: string;
    email: string;
    role: Role;
    invited_by: string | null;
    created_at: Date;
    expires_at: Date;
  }>(
    `SELECT i.id, i.email, i.role, u.email AS invited_by, i.created_at, i.expires_at
       FROM invitations i LEFT JOIN users u ON u.id = i.invited_by
      WHERE i.organization_id = $1 AND ${LIVE}
      ORDER BY i.expires_at, i.email`,
    [organizationId],
  );
  return rows.map((r) => ({
    ...r,
    created_at: new Date(r.created_at).toISOString(),
    expires_at: new Date(r.expires_at).toISOString(),
  }));
}

/** `Revoke invitation <email>`: the link stops working at once. Another organization's id is a 404. */
export async function revokeInvitation(db: Queryable, organizationId: string, id: string): Promise<void> {
  const { rowCount } = await db.query(
    `UPDATE invitations SET revoked_at = now()
      WHERE id = $1 AND organization_id = $2 AND used_at IS NULL AND revoked_at IS NULL`,
    [UUID_RE.test(id) ? id : '00000000-0000-0000-0000-000000000000', organizationId],
  );
  if (!rowCount) throw new ApiError(404, 'Invitation not found');
}

/** Who accepts: the signed-in person the invitation is for, or whoever gives a password for its email. */
export type Acceptance = { signedInAs: string } | { password: string; address: string };

/**
 * Uses the invitation and adds the membership. With a password: for an email without an account,
 * it becomes the new account's password; for one with an account, it must be that account's.
 * Returns the person and the organization they joined.
 */
export async function acceptInvitation(
  pg: Postgres,
  token: string,
  by: Acceptance,
): Promise<{ userId: string; organizationId: string }> {
  const invitation = await invitationByToken(pg, token);
  if (!invitation) throw new ApiError(404, INVITATION_GONE);
  let userId: string | null = null;
  let newHash: string | null = null;
  if ('signedInAs' in by) {
    userId = by.signedInAs;
  } else {
    // Asked first, for everyone: a short password cannot be any account's (they are 10 or more).
    const problem = passwordProblem(by.password);
    if (problem) throw new ApiError(400, problem, 'password');
    const retryAt = await blockedUntil(pg, invitation.email, by.address);
    if (retryAt) throw new Throttled(retryAt, 'password');
    const { rows } = await pg.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [invitation.email]);
    if (rows[0]) {
      const checked = await checkSignIn(pg, { email: invitation.email, password: by.password, address: by.address });
      if (!checked.ok && checked.reason === 'throttled') {
        throw new Throttled(checked.retryAt, 'password');
      }
      if (!checked.ok) throw new ApiError(400, WRONG_PASSWORD, 'password');
      userId = checked.userId;
    } else {
      // As long as a check of an existing account's password takes.
      [newHash] = await Promise.all([hashPassword(by.password), verifyPassword(by.password, null)]);
    }
  }
  return pg.tx(async (c) => {
    // Marked used first, under its row lock: a second acceptance of the same link finds nothing.
    const { rows } = await c.query<{ organization_id: string; email: string; role: Role }>(
      `UPDATE invitations i SET used_at = now()
        WHERE i.token_hash = $1 AND ${LIVE}
        RETURNING i.organization_id, i.email, i.role`,
      [hashKey(token)],
    );
    const used = rows[0];
    if (!used) throw new ApiError(404, INVITATION_GONE);
    let person = userId;
    if (person) {
      const { rows: signedIn } = await c.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [person]);
      if (signedIn[0]?.email !== used.email) throw new ApiError(403, 'This invitation is for another email');
    } else {
      // An account only where there is none: one made meanwhile keeps its own password.
      const made = await c.query<{ id: string }>(
        `INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING RETURNING id`,
        [randomUUID(), used.email, newHash],
      );
      if (!made.rows[0]) throw new ApiError(400, WRONG_PASSWORD, 'password');
      person = made.rows[0].id;
    }
    // Only admin is passed on: a member role never demotes someone who became admin meanwhile.
    const already = await roleIn(c, person, used.organization_id);
    if (!already || used.role === 'admin') {
      await joinOrganization(c, person, used.organization_id, used.role === 'admin' ? 'admin' : undefined);
    }
    return { userId: person, organizationId: used.organization_id };
  });
}
