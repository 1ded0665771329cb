// Membership: a user belongs to at most one organization; adding them elsewhere moves them. Each
// member has a role: an organization's first member is its admin, and so is anyone given the
// admin role (a workspace file's `"role": "admin"`, an invitation); admins manage members, and an
// organization always keeps at least one.
import { randomUUID } from 'node:crypto';
import type { Postgres } from '../stores/postgres.ts';
import { ApiError, UserError } from '../errors.ts';
import { lockOrganization, organizationExists } from './organizations.ts';
import type { Queryable } from '../stores/postgres.ts';
import type { Role } from './sessions.ts';
import { UUID_RE } from '../uuid.ts';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!EMAIL_RE.test(e)) throw new UserError(`Invalid email: ${email}`);
  return e;
}

/**
 * Creates the user if needed and makes them a member of the organization (moving them). `role`:
 * admin makes them admin; otherwise one who joins keeps member, but the organization's first member
 * is admin, and a member already there keeps their role.
 */
export async function upsertMember(db: Queryable, email: string, organizationId: string, role?: Role) {
  const e = normaliseEmail(email);
  const user = await db.query<{ id: string }>(
    `INSERT INTO users (id, email) VALUES ($1, $2)
     ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email RETURNING id`,
    [randomUUID(), e],
  );
  const userId = user.rows[0].id;
  // The organization's row lock makes "the first member" one answer under concurrent joins.
  await lockOrganization(db, organizationId);
  await db.query(
    `INSERT INTO memberships (user_id, organization_id, role)
     VALUES ($1, $2, CASE WHEN $3::text = 'admin' OR NOT EXISTS (
       SELECT 1 FROM memberships WHERE organization_id = $2 AND user_id <> $1) THEN 'admin' ELSE 'member' END)
     ON CONFLICT (user_id) DO UPDATE SET organization_id = EXCLUDED.organization_id,
       created_at = CASE WHEN memberships.organization_id = EXCLUDED.organization_id
                         THEN memberships.created_at ELSE now() END,
       role = CASE WHEN memberships.organization_id = EXCLUDED.organization_id AND $3::text IS NULL
                   THEN memberships.role ELSE EXCLUDED.role END`,
    [userId, organizationId, role ?? null],
  );
  return { userId, organizationId };
}

export async function addMember(pg: Postgres, email: string, organizationId: string) {
  if (!(await organizationExists(pg, organizationId))) throw new UserError(`No organization with id ${organizationId}`);
  return pg.tx((c) => upsertMember(c, email, organizationId));
}

export async function removeMember(pg: Postgres, email: string, organizationId: string) {
  const { rows } = await pg.query<{ user_id: string }>(
    `DELETE FROM memberships m USING users u
      WHERE m.user_id = u.id AND u.email = $1 AND m.organization_id = $2 RETURNING m.user_id`,
    [normaliseEmail(email), organizationId],
  );
  if (!rows[0]) throw new UserError(`${email} is not a member of organization ${organizationId}`);
  return { userId: rows[0].user_id, organizationId };
}

export interface MemberRow {
  user_id: string;
  email: string;
  role: Role;
  joined_at: string;
}

/** The organization's members, in the order they joined. */
export async function listMembers(db: Queryable, organizationId: string): Promise<MemberRow[]> {
  const { rows } = await db.query<{ user_id: string; email: string; role: Role; created_at: Date }>(
    `SELECT m.user_id, u.email, m.role, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.organization_id = $1 ORDER BY m.created_at, u.email`,
    [organizationId],
  );
  return rows.map((r) => ({ ...r, joined_at: new Date(r.created_at).toISOString() }));
}

export const LAST_ADMIN = 'The last admin cannot be removed or demoted';

/**
 * Changes a member's role (`role`) or removes them (null), refusing to leave the organization
 * without an admin. In one transaction under the organization's lock, so two admins demoting each
 * other at once cannot both succeed.
 */
export async function changeMember(
  pg: Postgres,
  organizationId: string,
  userId: string,
  role: Role | null,
): Promise<{ userId: string; role: Role | null }> {
  if (!UUID_RE.test(userId)) throw new ApiError(404, 'Member not found');
  return pg.tx(async (c) => {
    await lockOrganization(c, organizationId);
    const { rows } = await c.query<{ role: Role; admins: string }>(
      `SELECT m.role, (SELECT count(*) FROM memberships WHERE organization_id = $1 AND role = 'admin') AS admins
         FROM memberships m WHERE m.organization_id = $1 AND m.user_id = $2`,
      [organizationId, userId],
    );
    const member = rows[0];
    if (!member) throw new ApiError(404, 'Member not found');
    if (member.role === 'admin' && role !== 'admin' && Number(member.admins) <= 1) throw new ApiError(409, LAST_ADMIN);
    if (role === null) {
      await c.query('DELETE FROM memberships WHERE organization_id = $1 AND user_id = $2', [organizationId, userId]);
    } else {
      await c.query('UPDATE memberships SET role = $3 WHERE organization_id = $1 AND user_id = $2', [
        organizationId,
        userId,
        role,
      ]);
    }
    return { userId, role };
  });
}
