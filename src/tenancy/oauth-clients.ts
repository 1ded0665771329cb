// OAuth clients registered dynamically (RFC 7591) by the assistants that connect to /api/mcp.
// A client is only a name and its redirect URIs: what it may reach is decided per consent, by the
// key a person pastes (oauth-grants.ts). A confidential client's secret is stored as its SHA-256.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../stores/postgres.ts';
import { hashKey, newSecret } from './keys.ts';

export interface OAuthClient {
  id: string;
  name: string | null;
  redirectUris: string[];
  /** Null for a public client (token_endpoint_auth_method `none`). */
  secretHash: string | null;
  /** The registered metadata as the registration answered it (RFC 7591 section 3.2.1). */
  metadata: Record<string, unknown>;
  createdAt: Date;
}

/** The span in which registrations from one address are counted against its limit. */
export const REGISTRATION_WINDOW_MS = 24 * 3_600_000;
/**
 * A client no consent was ever given for is gone this long after it registered: registration
 * needs no key, and assistants register right before they send the person to the consent page.
 */
export const UNUSED_CLIENT_TTL_MS = 24 * 3_600_000;
// Clients that count: used (a grant exists) or registered within the TTL. In SQL, for the row `c`.
const LIVE = `(c.created_at > now() - make_interval(secs => ${UNUSED_CLIENT_TTL_MS / 1000})
  OR EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.id))`;

/** The registering address as stored: its SHA-256, as addresses themselves are never stored. */
export const addressHash = (address: string) => createHash('sha256').update(address).digest('base64url');

/** How many clients `from` registered in the last `windowMs`, and when the oldest of them was. */
export async function registrationsSince(
  db: Queryable,
  from: string,
  windowMs: number,
): Promise<{ count: number; oldest: Date | null }> {
  const { rows } = await db.query<{ count: string; oldest: Date | null }>(
    `SELECT count(*) AS count, min(created_at) AS oldest FROM oauth_clients
     WHERE registered_from = $1 AND created_at > now() - make_interval(secs => $2)`,
    [from, windowMs / 1000],
  );
  return { count: Number(rows[0].count), oldest: rows[0].oldest && new Date(rows[0].oldest) };
}

/** Deletes the clients never used within UNUSED_CLIENT_TTL_MS of registering (they no longer resolve anyway). */
export async function removeUnusedClients(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM oauth_clients c WHERE NOT ${LIVE}`);
  return rowCount ?? 0;
}

export async function createClient(
  db: Queryable,
  opts: {
    /** addressHash of the registering client. */
    registeredFrom: string;
    name?: string;
    redirectUris: string[];
    metadata: Record<string, unknown>;
    confidential: boolean;
  },
): Promise<{ client: OAuthClient; secret?: string }> {
  const id = randomBytes(18).toString('base64url');
  const secret = opts.confidential ? newSecret() : undefined;
  const secretHash = secret ? hashKey(secret) : null;
  const { rows } = await db.query<{ created_at: Date }>(
    `INSERT INTO oauth_clients (id, secret_hash, name, redirect_uris, metadata, registered_from)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING created_at`,
    [id, secretHash, opts.name ?? null, opts.redirectUris, JSON.stringify(opts.metadata), opts.registeredFrom],
  );
  return {
    client: {
      id,
      name: opts.name ?? null,
      redirectUris: opts.redirectUris,
      secretHash,
      metadata: opts.metadata,
      createdAt: new Date(rows[0].created_at),
    },
    secret,
  };
}

/** The client, or null when unknown or expired unused (UNUSED_CLIENT_TTL_MS). */
export async function clientById(db: Queryable, id: string): Promise<OAuthClient | null> {
  const { rows } = await db.query<{
    id: string;
    name: string | null;
    redirect_uris: string[];
    secret_hash: string | null;
    metadata: Record<string, unknown>;
    created_at: Date;
  }>(
    `SELECT id, name, redirect_uris, secret_hash, metadata, created_at FROM oauth_clients c WHERE id = $1 AND ${LIVE}`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    redirectUris: row.redirect_uris,
    secretHash: row.secret_hash,
    metadata: row.metadata,
    createdAt: new Date(row.created_at),
  };
}

/** Whether `secret` is the client's; compared in constant time. */
export function secretMatches(client: OAuthClient, secret: string): boolean {
  if (!client.secretHash) return false;
  const given = Buffer.from(hashKey(secret));
  const stored = Buffer.from(client.secretHash);
  return given.length === stored.length && timingSafeEqual(given, stored);
}
