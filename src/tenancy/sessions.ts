// Server-side sessions of people signed in to the app (docs/api.md section 17). The cookie holds a
// random token; only its SHA-256 is stored. A session is looked up afresh on every request with the
// person's membership, as a key is (keys.ts), so it acts on the organization its person belongs to
// now: removed from it, the person sees none of its data on the next request.
import type { Postgres, Queryable } from '../stores/postgres.ts';
import { hashKey, newSecret, type Identity } from './keys.ts';

/** Idle expiry: a session not used for 14 days is over. */
export const SESSION_IDLE_DAYS = 14;

export type Role = 'admin' | 'member';
export const ROLES: readonly Role[] = ['admin', 'member'];

/** A signed-in person: the identity operations run on, and their role in their organization. */
export interface SessionIdentity extends Identity {
  /** null when the person belongs to no organization. */
  role: Role | null;
}

/** Opens a session for the person and returns the cookie's token (a new one at every sign-in). */
export async function createSession(db: Queryable, userId: string): Promise<string> {
  const token = newSecret();
  await db.query('INSERT INTO sessions (token_hash, user_id) VALUES ($1, $2)', [hashKey(token), userId]);
  return token;
}

/** The person a session token speaks for now, or null when it is unknown, ended or idle too long. */
export async function resolveSession(pg: Postgres, token: string): Promise<SessionIdentity | null> {
  const { rows } = await pg.query<{
    user_id: string;
    email: string;
    organization_id: string | null;
    role: Role | null;
    last_seen_at: Date;
  }>(
    `SELECT s.user_id, u.email, m.organization_id, m.role, s.last_seen_at
       FROM sessions s
       JOIN users u ON u.id = s.user_id
       LEFT JOIN memberships m ON m.user_id = s.user_id
      WHERE s.token_hash = $1 AND s.last_seen_at > now() - make_interval(days => $2)`,
    [hashKey(token), SESSION_IDLE_DAYS],
    { prepared: true },
  );
  const row = rows[0];
  if (!row) return null;
  // Minute precision is plenty for a 14-day idle window, and spares a write per request.
  if (Date.now() - new Date(row.last_seen_at).getTime() > 60_000) {
    pg.query('UPDATE sessions SET last_seen_at = now() WHERE token_hash = $1', [hashKey(token)]).catch(() => {});
  }
  return { keyId: null, userId: row.user_id, email: row.email, organizationId: row.organization_id, role: row.role };
}

/** Ends the session at once (Sign out). */
export async function endSession(db: Queryable, token: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [hashKey(token)]);
}

/** Ends every session of the person but `keep` (a password change signs the other devices out). */
export async function endOtherSessions(db: Queryable, userId: string, keep?: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE user_id = $1 AND token_hash IS DISTINCT FROM $2', [
    userId,
    keep ? hashKey(keep) : null,
  ]);
  // Sessions idle past their expiry are cleared as people sign in; they can never be used again.
  await db.query('DELETE FROM sessions WHERE last_seen_at < now() - make_interval(days => $1)', [SESSION_IDLE_DAYS]);
}
