// Memberships (docs/app.md, "People, organizations, keys and grants"): a person may belong to
// several organizations, with a role in each. Adding a person to an organization never removes
// them from another; removing ends one membership. An organization's first member is its admin,
// and so is anyone given the admin role (a workspace file's `"role": "admin"`, an invitation).
//
// Admins manage members, and no path (remove, demote, leave) leaves an organization that has
// members without an admin: every such change runs under the organization's row lock, so two admins
// demoting each other at once cannot both succeed. When someone stops being an admin of an
// organization, the invitations they made to it die with their power to make them.
import { randomUUID } from 'node:crypto';
import type { Postgres, Queryable } from '../stores/postgres.ts';
import { ApiError, UserError } from '../errors.ts';
import { UUID_RE } from '../uuid.ts';
import { normaliseEmail } from './emails.ts';
import { lockOrganization, organizationExists } from './organizations.ts';
import type { Role } from './sessions.ts';

/** The rule every path keeps, named in its 409. */
export const LAST_ADMIN = 'The last admin cannot be removed or demoted';
export const LAST_ADMIN_LEAVING = 'The last admin cannot leave the organization: make another member admin first';

/** The person's id for an email, created without a password when there is none. */
export async function userFor(db: Queryable, email: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO users (id, email) VALUES ($1, $2)
     ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email RETURNING id`,
    [randomUUID(), normaliseEmail(email)],
  );
  return rows[0].id;
}

/**
 * Makes the person a member of the organization (creating the person if needed), leaving every
 * other membership as it is. `role` admin makes them admin; otherwise a newcomer is a member unless
 * they are the organization's first, and a member already there keeps their role.
 */
export async function upsertMember(db: Queryable, email: string, organizationId: string, role?: Role) {
  const userId = await userFor(db, email);
  await joinOrganization(db, userId, organizationId, role);
  return { userId, organizationId };
}

/** upsertMember for a person known by id. */
export async function joinOrganization(db: Queryable, userId: string, organizationId: string, role?: Role) {
  // The organization's row lock makes "the first member" one answer under concurrent joins.
  await lockOrganization(db, organizationId);
  await db.query(
    `INSERT INTO memberships (user_id, organization_id, role)
     VALUES ($1, $2, CASE WHEN $3::text = 'admin' OR NOT EXISTS (
       SELECT 1 FROM memberships WHERE organization_id = $2 AND user_id <> $1) THEN 'admin' ELSE 'member' END)
     ON CONFLICT (user_id, organization_id) DO UPDATE
       SET role = CASE WHEN $3::text = 'admin' THEN 'admin' ELSE memberships.role END`,
    [userId, organizationId, role ?? null],
  );
  // A person's first organization is the one their first sign-in opens.
  await db.query('UPDATE users SET last_organization_id = COALESCE(last_organization_id, $2) WHERE id = $1', [
    userId,
    organizationId,
  ]);
}

/** `answerscope members add`: one more membership; the person's others stay. */
export async function addMember(pg: Postgres, email: string, organizationId: string) {
  if (!(await organizationExists(pg, organizationId))) throw new UserError(`No organization with id ${organizationId}`);
  return pg.tx((c) => upsertMember(c, email, organizationId));
}

/**
 * `answerscope members remove`: ends one membership. The operator may empty an organization (its
 * last member goes), but not leave members without an admin.
 */
export async function removeMember(pg: Postgres, email: string, organizationId: string) {
  const e = normaliseEmail(email);
  return pg.tx(async (c) => {
    await lockOrganization(c, organizationId);
    const { rows } = await c.query<{ user_id: string }>(
      `SELECT m.user_id FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE u.email = $1 AND m.organization_id = $2`,
      [e, organizationId],
    );
    if (!rows[0]) throw new UserError(`${e} is not a member of organization ${organizationId}`);
    await endMembership(c, organizationId, rows[0].user_id, { emptying: 'allowed', message: LAST_ADMIN });
    return { userId: rows[0].user_id, organizationId };
  });
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
  return rows.map((r) => ({ user_id: r.user_id, email: r.email, role: r.role, joined_at: iso(r.created_at) }));
}

export interface Membership {
  organization_id: string;
  name: string;
  role: Role;
}

/** The organizations a person belongs to, by name. */
export async function membershipsOf(db: Queryable, userId: string): Promise<Membership[]> {
  const { rows } = await db.query<Membership>(
    `SELECT m.organization_id, o.name, m.role FROM memberships m JOIN organizations o ON o.id = m.organization_id
      WHERE m.user_id = $1 ORDER BY o.name, o.id`,
    [userId],
  );
  return rows;
}

/** The person's role in the organization, or null when they are not a member. */
export async function roleIn(db: Queryable, userId: string, organizationId: string): Promise<Role | null> {
  const { rows } = await db.query<{ role: Role }>(
    'SELECT role FROM memberships WHERE user_id = $1 AND organization_id = $2',
    [userId, organizationId],
  );
  return rows[0]?.role ?? null;
}

/**
 * Settings > Members: changes a member's role (`role`) or removes them (null). The app never
 * removes, demotes or lets leave the last admin, even the only member: an organization nobody can
 * manage from the app is one only an operator can reach again.
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
    const current = await roleIn(c, userId, organizationId);
    if (!current) throw new ApiError(404, 'Member not found');
    if (role === null) {
      await endMembership(c, organizationId, userId, { emptying: 'refused', message: LAST_ADMIN });
    } else if (role !== current) {
      if (current === 'admin') await keepAnAdmin(c, organizationId, userId, LAST_ADMIN);
      await c.query('UPDATE memberships SET role = $3 WHERE organization_id = $1 AND user_id = $2', [
        organizationId,
        userId,
        role,
      ]);
      if (role !== 'admin') await revokeInvitationsBy(c, organizationId, userId);
    }
    return { userId, role };
  });
}

/** Settings > Account, `Leave <organization>`: ends one's own membership. */
export async function leaveOrganization(pg: Postgres, userId: string, organizationId: string): Promise<void> {
  await pg.tx(async (c) => {
    await lockOrganization(c, organizationId);
    if (!(await roleIn(c, userId, organizationId))) throw new ApiError(404, 'Organization not found');
    await endMembership(c, organizationId, userId, { emptying: 'refused', message: LAST_ADMIN_LEAVING });
  });
}

/** 409 when `userId` is the organization's only admin (the caller holds the organization's lock). */
async function keepAnAdmin(c: Queryable, organizationId: string, userId: string, message: string) {
  const { rows } = await c.query<{ others: string }>(
    `SELECT count(*) AS others FROM memberships WHERE organization_id = $1 AND role = 'admin' AND user_id <> $2`,
    [organizationId, userId],
  );
  if (Number(rows[0].others) === 0) throw new ApiError(409, message);
}

/**
 * Ends a membership under the organization's lock (held by the caller), with what dies with it:
 * the invitations the person made to the organization, and those still pending for their email
 * there (a removed member does not come back through an older link). Their keys, sessions and
 * grants stop acting on the organization by themselves: each is checked against the membership.
 */
async function endMembership(
  c: Queryable,
  organizationId: string,
  userId: string,
  rule: { emptying: 'allowed' | 'refused'; message: string },
): Promise<void> {
  const { rows } = await c.query<{ role: Role; members: string }>(
    `SELECT m.role, (SELECT count(*) FROM memberships WHERE organization_id = $1) AS members
       FROM memberships m WHERE m.organization_id = $1 AND m.user_id = $2`,
    [organizationId, userId],
  );
  const member = rows[0];
  const last = Number(member.members) === 1;
  if (member.role === 'admin' && !(last && rule.emptying === 'allowed')) {
    await keepAnAdmin(c, organizationId, userId, rule.message);
  }
  await c.query('DELETE FROM memberships WHERE organization_id = $1 AND user_id = $2', [organizationId, userId]);
  await revokeInvitationsBy(c, organizationId, userId);
  await c.query(
    `UPDATE invitations SET revoked_at = now()
      WHERE organization_id = $1 AND used_at IS NULL AND revoked_at IS NULL
        AND email = (SELECT email FROM users WHERE id = $2)`,
    [organizationId, userId],
  );
}

/** The pending invitations `userId` made to the organization die (they stopped being its admin). */
async function revokeInvitationsBy(c: Queryable, organizationId: string, userId: string): Promise<void> {
  await c.query(
    `UPDATE invitations SET revoked_at = now()
      WHERE organization_id = $1 AND invited_by = $2 AND used_at IS NULL AND revoked_at IS NULL`,
    [organizationId, userId],
  );
}

const iso = (d: Date) => new Date(d).toISOString();
