// Server-side sessions of people signed in to the app (docs/app.md). The cookie holds a random
// token; only its SHA-256 is stored. A session acts on one organization at a time, its current one:
// the one its person used last when they signed in, switched in the app. It is looked up afresh on
// every request with the person's membership of it, as a key is (keys.ts): removed from it, the
// person sees none of its data on the next request (the session moves to another organization of
// theirs, or to none). A session ends after 14 days unused, and 30 days after sign-in whatever its use.
import type { Postgres, Queryable } from '../stores/postgres.ts';
import { hashKey, newSecret, type Identity } from './keys.ts';

/** Idle expiry: a session not used for 14 days is over. */
export const SESSION_IDLE_DAYS = 14;
/** Absolute expiry: a session is over 30 days after the sign-in that opened it. */
export const SESSION_MAX_DAYS = 30;

export type Role = 'admin' | 'member';
export const ROLES: readonly Role[] = ['admin', 'member'];

/** A signed-in person: the identity operations run on, and their role in the current organization. */
export interface SessionIdentity extends Identity {
  /** null when the person belongs to no organization. */
  role: Role | null;
}

/** Where a sign-in came from, listed in Settings > Account. */
export interface SessionOrigin {
  address: string;
  userAgent: string;
}

const LIVE = `s.last_seen_at > now() - make_interval(days => ${SESSION_IDLE_DAYS})
  AND s.created_at > now() - make_interval(days => ${SESSION_MAX_DAYS})`;

/**
 * Opens a session for the person and returns the cookie's token (a new one at every sign-in). It
 * opens on `organizationId` when given (an invitation just accepted), else on the organization
 * the person used last, else on their first.
 */
export async function createSession(
  db: Queryable,
  userId: string,
  origin: SessionOrigin,
  organizationId?: string,
): Promise<string> {
  const token = newSecret();
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, organization_id, address, user_agent)
     SELECT $1, $2, (SELECT m.organization_id FROM memberships m JOIN users u ON u.id = m.user_id
                      WHERE m.user_id = $2
                      ORDER BY (m.organization_id = $3) IS TRUE DESC,
                               (m.organization_id = u.last_organization_id) IS TRUE DESC,
                               m.created_at, m.organization_id
                      LIMIT 1), $4, $5`,
    [hashKey(token), userId, organizationId ?? null, origin.address.slice(0, 100), origin.userAgent.slice(0, 500)],
  );
  if (organizationId) await rememberOrganization(db, userId, organizationId);
  return token;
}

/** The person a session token speaks for now, or null when it is unknown, ended or expired. */
export async function resolveSession(pg: Postgres, token: string): Promise<SessionIdentity | null> {
  // The session's organization while its person is a member of it; otherwise the one they used
  // last, or their first: a session never acts on an organization its person has left.
  const { rows } = await pg.query<{
    user_id: string;
    email: string;
    organization_id: string | null;
    role: Role | null;
    session_organization_id: string | null;
    last_seen_at: Date;
  }>(
    `SELECT s.user_id, u.email, m.organization_id, m.role, s.organization_id AS session_organization_id, s.last_seen_at
       FROM sessions s
       JOIN users u ON u.id = s.user_id
       LEFT JOIN LATERAL (
         SELECT organization_id, role FROM memberships
          WHERE user_id = s.user_id
          ORDER BY (organization_id = s.organization_id) IS TRUE DESC,
                   (organization_id = u.last_organization_id) IS TRUE DESC, created_at, organization_id
          LIMIT 1) m ON true
      WHERE s.token_hash = $1 AND ${LIVE}`,
    [hashKey(token)],
    { prepared: true },
  );
  const row = rows[0];
  if (!row) return null;
  const moved = row.organization_id !== row.session_organization_id;
  // Minute precision is plenty for a 14-day idle window, and spares a write per request.
  if (moved || Date.now() - new Date(row.last_seen_at).getTime() > 60_000) {
    pg.query('UPDATE sessions SET last_seen_at = now(), organization_id = $2 WHERE token_hash = $1', [
      hashKey(token),
      row.organization_id,
    ]).catch(() => {});
  }
  return { keyId: null, userId: row.user_id, email: row.email, organizationId: row.organization_id, role: row.role };
}

/**
 * Makes `organizationId` the session's current organization, when its person is a member of it;
 * false otherwise (nothing changes). The person's next sign-in opens it too.
 */
export async function switchOrganization(
  db: Queryable,
  token: string,
  userId: string,
  organizationId: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE sessions s SET organization_id = $3
      WHERE s.token_hash = $1 AND s.user_id = $2
        AND EXISTS (SELECT 1 FROM memberships WHERE user_id = $2 AND organization_id = $3)`,
    [hashKey(token), userId, organizationId],
  );
  if (!rowCount) return false;
  await rememberOrganization(db, userId, organizationId);
  return true;
}

async function rememberOrganization(db: Queryable, userId: string, organizationId: string): Promise<void> {
  await db.query('UPDATE users SET last_organization_id = $2 WHERE id = $1', [userId, organizationId]);
}

export interface SessionListItem {
  /** Names the session in the list; the hash's first characters, never the token. */
  id: string;
  current: boolean;
  started_at: string;
  last_used_at: string;
  address: string | null;
  browser: string | null;
}

/** The person's live sessions, the current one first, then the most recently used. */
export async function sessionsOf(db: Queryable, userId: string, currentToken: string): Promise<SessionListItem[]> {
  const { rows } = await db.query<{
    token_hash: string;
    created_at: Date;
    last_seen_at: Date;
    address: string | null;
    user_agent: string | null;
  }>(
    `SELECT token_hash, created_at, last_seen_at, address, user_agent FROM sessions s
      WHERE user_id = $1 AND ${LIVE}
      ORDER BY token_hash = $2 DESC, last_seen_at DESC, token_hash`,
    [userId, hashKey(currentToken)],
  );
  const current = hashKey(currentToken);
  return rows.map((r) => ({
    id: r.token_hash.slice(0, 12),
    current: r.token_hash === current,
    started_at: new Date(r.created_at).toISOString(),
    last_used_at: new Date(r.last_seen_at).toISOString(),
    address: r.address,
    browser: r.user_agent ? browserOf(r.user_agent) : null,
  }));
}

/** "Chrome 131 on macOS": enough to recognise one's own devices in a list. */
export function browserOf(userAgent: string): string {
  const browsers: [RegExp, string][] = [
    [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
    [/OPR\/(\d+)/, 'Opera'],
    [/Firefox\/(\d+)/, 'Firefox'],
    [/(?:Chrome|CriOS|Chromium)\/(\d+)/, 'Chrome'],
    [/Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
  ];
  const systems: [RegExp, string][] = [
    [/Android/, 'Android'],
    [/iPhone|iPad|iPod/, 'iOS'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/Windows/, 'Windows'],
    [/CrOS/, 'ChromeOS'],
    [/Linux/, 'Linux'],
  ];
  const found = browsers.find(([re]) => re.test(userAgent));
  const browser = found ? `${found[1]} ${userAgent.match(found[0])?.[1]}` : userAgent.split(/[/ ]/)[0].slice(0, 40);
  const system = systems.find(([re]) => re.test(userAgent))?.[1];
  return system ? `${browser} on ${system}` : browser;
}

/** Ends the session at once (Sign out). */
export async function endSession(db: Queryable, token: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [hashKey(token)]);
}

/** Ends every session of the person but `keep` (Sign out other sessions; a password change). */
export async function endOtherSessions(db: Queryable, userId: string, keep?: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE user_id = $1 AND token_hash IS DISTINCT FROM $2', [
    userId,
    keep ? hashKey(keep) : null,
  ]);
  // Expired sessions are cleared as people sign in; they can never be used again.
  await db.query(`DELETE FROM sessions s WHERE NOT (${LIVE})`);
}
