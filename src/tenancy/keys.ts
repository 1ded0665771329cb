// API keys: `ans_` + 32 random bytes (base64url). Only the SHA-256 is stored, with a short display
// prefix. A key is made in one organization and acts on it only, while its owner is a member of it.
// Every request looks the key up afresh, so a revocation or a membership change takes effect on
// the very next request (there is no cache to outlive it).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Postgres, Queryable } from '../stores/postgres.ts';
import { ApiError, UserError } from '../errors.ts';
import { BRAND_COLUMNS_AS, brandOfRow, type BrandRecord } from './brands.ts';
import { UUID_RE } from '../uuid.ts';
import { normaliseEmail } from './emails.ts';

export const KEY_PREFIX = 'ans_';

/** Who a key speaks for: what every operation, on every surface, runs on behalf of. */
export interface Identity {
  /** The key (or the key behind an OAuth token); null for a person signed in to the app, or their own OAuth grant. */
  keyId: string | null;
  userId: string;
  email: string;
  /** null once the key's owner belongs to no organization: the key then sees no brand. */
  organizationId: string | null;
}

/** The 401 messages of docs/api.md section 26 (Authentication), the same on REST and MCP. */
export const MALFORMED = 'Missing or malformed API key';
export const INVALID = 'Invalid API key';

/**
 * The identity the key check put in a request's state. Every surface takes it through here, so a
 * request that reached an operation without passing the check is refused, whatever the wiring.
 */
export function requireIdentity(state: { identity?: Identity }): Identity {
  if (!state.identity) throw new ApiError(401, MALFORMED);
  return state.identity;
}

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** A new credential (key, OAuth token, code, client secret, nonce): 32 random bytes, base64url, after `prefix`. */
export const newSecret = (prefix = '') => prefix + randomBytes(32).toString('base64url');

/**
 * A new key of the person, for one organization: `organizationId` (they must be a member of it), or
 * the only one they belong to. The key acts on that organization only, while they are a member.
 */
export async function createKey(pg: Postgres, opts: { email: string; name?: string; organizationId?: string }) {
  const email = normaliseEmail(opts.email);
  const { rows } = await pg.query<{ id: string; organization_id: string | null }>(
    `SELECT u.id, m.organization_id FROM users u LEFT JOIN memberships m ON m.user_id = u.id
      WHERE u.email = $1 ORDER BY m.organization_id`,
    [email],
  );
  if (!rows[0]) throw new UserError(`No user with email ${email}; add one with 'answerscope members add' or 'apply'`);
  const organizations = rows.map((r) => r.organization_id).filter((id): id is string => id !== null);
  let organizationId = opts.organizationId;
  if (organizationId === undefined) {
    if (organizations.length === 0) {
      throw new UserError(`${email} belongs to no organization; add them with 'answerscope members add'`);
    }
    if (organizations.length > 1) {
      throw new UserError(`${email} belongs to ${organizations.length} organizations: name one with --org ORG_ID`);
    }
    organizationId = organizations[0];
  } else if (!organizations.includes(organizationId)) {
    throw new UserError(`${email} is not a member of organization ${organizationId}`);
  }
  const key = newSecret(KEY_PREFIX);
  const id = randomUUID();
  await pg.query(
    'INSERT INTO api_keys (id, user_id, organization_id, key_hash, prefix, name) VALUES ($1, $2, $3, $4, $5, $6)',
    [id, rows[0].id, organizationId, hashKey(key), key.slice(0, 10), opts.name ?? null],
  );
  return { id, key, userId: rows[0].id, organizationId };
}

export async function revokeKey(pg: Postgres, id: string) {
  const { rows } = await pg.query<{ id: string; revoked_at: Date }>(
    // Revoking twice keeps the first time: the key has been dead since then.
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING id, revoked_at`,
    [id],
  );
  if (!rows[0]) throw new UserError(`No API key with id ${id}`);
  return { id: rows[0].id, revoked_at: new Date(rows[0].revoked_at).toISOString() };
}

/** A row of LIVE_KEY, or of any join that ends at a key, its owner and the owner's membership. */
export interface IdentityRow {
  id: string;
  user_id: string;
  email: string;
  organization_id: string | null;
}

export const identityOf = (row: IdentityRow): Identity => ({
  keyId: row.id,
  userId: row.user_id,
  email: row.email,
  organizationId: row.organization_id,
});

// A key that is not revoked, with its owner and its organization while the owner is a member of it.
const LIVE_KEY = `SELECT k.id, k.user_id, u.email, m.organization_id, k.last_used_at
       FROM api_keys k
       JOIN users u ON u.id = k.user_id
       LEFT JOIN memberships m ON m.user_id = k.user_id AND m.organization_id = k.organization_id
      WHERE k.revoked_at IS NULL`;

// The same with the brand a request names, when it belongs to the owner's organization now: the
// condition of brandInOrganization, read in the same statement (one round trip instead of two).
const LIVE_KEY_AND_BRAND = `SELECT k.id, k.user_id, u.email, m.organization_id, k.last_used_at, ${BRAND_COLUMNS_AS('b')}
       FROM api_keys k
       JOIN users u ON u.id = k.user_id
       LEFT JOIN memberships m ON m.user_id = k.user_id AND m.organization_id = k.organization_id
       LEFT JOIN brands b ON b.id = $2 AND b.organization_id = m.organization_id
      WHERE k.revoked_at IS NULL AND k.key_hash = $1`;

/** The identity a presented key resolves to, or null when it does not exist or was revoked. */
export async function resolveKey(pg: Postgres, key: string): Promise<Identity | null> {
  return (await resolveKeyAndBrand(pg, key))?.identity ?? null;
}

/**
 * The identity a presented key resolves to, and the brand `brandId` names if the key's
 * organization owns it (null otherwise: the caller then reads it as usual, and gets the usual 404).
 * Null when the key does not exist or was revoked.
 */
export async function resolveKeyAndBrand(
  pg: Postgres,
  key: string,
  brandId?: string,
): Promise<{ identity: Identity; brand: BrandRecord | null } | null> {
  const withBrand = brandId !== undefined && UUID_RE.test(brandId);
  const { rows } = await pg.query<IdentityRow & { last_used_at: Date | null }>(
    withBrand ? LIVE_KEY_AND_BRAND : `${LIVE_KEY} AND k.key_hash = $1`,
    withBrand ? [hashKey(key), brandId] : [hashKey(key)],
    { prepared: true },
  );
  const row = rows[0];
  if (!row) return null;
  // last_used_at is for people reading the key list; minute precision spares a write per request.
  if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > 60_000) {
    pg.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [row.id]).catch(() => {});
  }
  return { identity: identityOf(row), brand: withBrand ? brandOfRow(row as unknown as Record<string, unknown>) : null };
}

/** The identity of a live key by its id (the OAuth consent page holds the id, never the key itself). */
export async function identityByKeyId(db: Queryable, keyId: string): Promise<Identity | null> {
  const { rows } = await db.query<IdentityRow>(`${LIVE_KEY} AND k.id = $1`, [keyId]);
  return rows[0] ? identityOf(rows[0]) : null;
}

export interface KeyListItem {
  id: string;
  name: string | null;
  /** `ans_` and 4 more characters: enough to tell keys apart, useless to an attacker. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

/** A person's live keys of one organization, newest first (those made with the command line too). */
export async function keysOfUser(db: Queryable, userId: string, organizationId: string): Promise<KeyListItem[]> {
  const { rows } = await db.query<{
    id: string;
    name: string | null;
    prefix: string;
    created_at: Date;
    last_used_at: Date | null;
  }>(
    `SELECT id, name, prefix, created_at, last_used_at FROM api_keys
      WHERE user_id = $1 AND organization_id = $2 AND revoked_at IS NULL ORDER BY created_at DESC, id`,
    [userId, organizationId],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix.slice(0, KEY_PREFIX.length + 4),
    created_at: new Date(r.created_at).toISOString(),
    last_used_at: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
  }));
}

/** Revokes one of the person's own keys; another's, or an unknown id, is a 404. */
export async function revokeOwnKey(db: Queryable, userId: string, id: string) {
  const { rows } = await db.query<{ id: string; revoked_at: Date }>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now())
      WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id, revoked_at`,
    [UUID_RE.test(id) ? id : '00000000-0000-0000-0000-000000000000', userId],
  );
  if (!rows[0]) throw new ApiError(404, 'API key not found');
  return { id: rows[0].id, revoked_at: new Date(rows[0].revoked_at).toISOString() };
}
