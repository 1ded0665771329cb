// Membership: a user belongs to at most one organization; adding them elsewhere moves them.
import { randomUUID } from 'node:crypto';
import type { Postgres } from '../stores/postgres.ts';
import { UserError } from '../errors.ts';
import { organizationExists } from './organizations.ts';
import type { Queryable } from '../stores/postgres.ts';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!EMAIL_RE.test(e)) throw new UserError(`Invalid email: ${email}`);
  return e;
}

/** Creates the user if needed and makes them a member of the organization (moving them). */
export async function upsertMember(db: Queryable, email: string, organizationId: string) {
  const e = normaliseEmail(email);
  const user = await db.query<{ id: string }>(
    `INSERT INTO users (id, email) VALUES ($1, $2)
     ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email RETURNING id`,
    [randomUUID(), e],
  );
  const userId = user.rows[0].id;
  await db.query(
    `INSERT INTO memberships (user_id, organization_id) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET organization_id = EXCLUDED.organization_id, created_at =
       CASE WHEN memberships.organization_id = EXCLUDED.organization_id THEN memberships.created_at ELSE now() END`,
    [userId, organizationId],
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
