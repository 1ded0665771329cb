// OAuth grants for the MCP endpoint (docs/api.md sections 16 and 18, docs/oauth.md): the
// authorization request waiting on the consent page, the grant a person gives (signed in, or by
// pasting an `ans_` key), its one-use code, and the access and refresh tokens issued from it.
// Codes, tokens and nonces are random and stored as their SHA-256 only.
//
// A grant is its person's: every look-up joins the person's membership afresh, as resolveKey does,
// so a person who left the organization (even one who came back since: memberships.created_at) is
// refused on the very next request. A grant given with a key also dies with that key; every grant
// dies when its person disconnects the application.
import { randomUUID } from 'node:crypto';
import type { Postgres, Queryable } from '../stores/postgres.ts';
import { hashKey, identityOf, newSecret, type Identity, type IdentityRow } from './keys.ts';

/** Lifetimes in seconds (docs/oauth.md). A refresh token is replaced at every use, so it is a sliding window. */
export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 30 * 86_400;
export const CODE_TTL_S = 600;
export const REQUEST_TTL_S = 1800;

/** Token prefixes: told apart from `ans_` keys (REST refuses them as malformed) and from each other. */
export const ACCESS_TOKEN_PREFIX = 'ansat_';
export const REFRESH_TOKEN_PREFIX = 'ansrt_';

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  scope: string;
  resource: string | null;
}

export interface PendingRequest extends AuthorizationRequest {
  /** Set once the person has pasted a valid key on the consent page. */
  keyId: string | null;
}

type RequestRow = {
  client_id: string;
  redirect_uri: string;
  state: string | null;
  code_challenge: string;
  scope: string;
  resource: string | null;
  key_id: string | null;
};
const REQUEST_COLUMNS = 'client_id, redirect_uri, state, code_challenge, scope, resource, key_id';
const pending = (r: RequestRow): PendingRequest => ({
  clientId: r.client_id,
  redirectUri: r.redirect_uri,
  state: r.state,
  codeChallenge: r.code_challenge,
  scope: r.scope,
  resource: r.resource,
  keyId: r.key_id,
});

/** Stores a checked authorization request; the nonce returned goes into the consent form. */
export async function createRequest(db: Queryable, req: AuthorizationRequest): Promise<string> {
  // Abandoned requests are cleared as new ones arrive; there are few, and the expiry is indexed.
  await db.query('DELETE FROM oauth_requests WHERE expires_at < now()');
  const nonce = newSecret();
  await db.query(
    `INSERT INTO oauth_requests
       (nonce_hash, client_id, redirect_uri, state, code_challenge, scope, resource, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
    [
      hashKey(nonce),
      req.clientId,
      req.redirectUri,
      req.state,
      req.codeChallenge,
      req.scope,
      req.resource,
      REQUEST_TTL_S,
    ],
  );
  return nonce;
}

export async function requestByNonce(db: Queryable, nonce: string): Promise<PendingRequest | null> {
  const { rows } = await db.query<RequestRow>(
    `SELECT ${REQUEST_COLUMNS} FROM oauth_requests WHERE nonce_hash = $1 AND expires_at > now()`,
    [hashKey(nonce)],
  );
  return rows[0] ? pending(rows[0]) : null;
}

/**
 * Records the key the person pasted and replaces the nonce, so the confirmation form is the only
 * one that can grant: the first form's nonce is dead. Null when the request is gone or expired.
 */
export async function attachKey(db: Queryable, nonce: string, keyId: string): Promise<string | null> {
  const next = newSecret();
  const { rowCount } = await db.query(
    `UPDATE oauth_requests SET nonce_hash = $2, key_id = $3 WHERE nonce_hash = $1 AND expires_at > now()`,
    [hashKey(nonce), hashKey(next), keyId],
  );
  return rowCount ? next : null;
}

/** Removes the request and returns it: a consent form is answered once. */
export async function takeRequest(db: Queryable, nonce: string): Promise<PendingRequest | null> {
  const { rows } = await db.query<RequestRow>(
    `DELETE FROM oauth_requests WHERE nonce_hash = $1 AND expires_at > now() RETURNING ${REQUEST_COLUMNS}`,
    [hashKey(nonce)],
  );
  return rows[0] ? pending(rows[0]) : null;
}

export async function organizationName(db: Queryable, organizationId: string): Promise<string | null> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [organizationId]);
  return rows[0]?.name ?? null;
}

/**
 * The grant's code; the grant holds the organization the person acts for now. `identity.keyId`:
 * the key pasted on the consent page, or null for a signed-in person's grant.
 */
export async function createGrant(db: Queryable, req: AuthorizationRequest, identity: Identity): Promise<string> {
  if (!identity.organizationId) throw new Error('a grant needs a person who belongs to an organization');
  const code = newSecret();
  await db.query(
    `INSERT INTO oauth_grants (id, client_id, key_id, organization_id, scope, resource, code_hash, code_challenge,
                               redirect_uri, code_expires_at, user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(secs => $10), $11)`,
    [
      randomUUID(),
      req.clientId,
      identity.keyId,
      identity.organizationId,
      req.scope,
      req.resource,
      hashKey(code),
      req.codeChallenge,
      req.redirectUri,
      CODE_TTL_S,
      identity.userId,
    ],
  );
  return code;
}

export interface RedeemedCode {
  grantId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  resource: string | null;
  expired: boolean;
  /** The code had been presented before: a replay. */
  replayed: boolean;
}

/** Marks the code used (it is good for one attempt) and returns its grant as it was, or null. */
export async function redeemCode(db: Queryable, code: string): Promise<RedeemedCode | null> {
  const { rows } = await db.query<{
    id: string;
    client_id: string;
    redirect_uri: string;
    code_challenge: string;
    scope: string;
    resource: string | null;
    expired: boolean;
    replayed: boolean;
  }>(
    `WITH before AS (SELECT id, code_used_at FROM oauth_grants WHERE code_hash = $1 FOR UPDATE)
     UPDATE oauth_grants g SET code_used_at = COALESCE(g.code_used_at, now())
       FROM before WHERE g.id = before.id
     RETURNING g.id, g.client_id, g.redirect_uri, g.code_challenge, g.scope, g.resource,
               g.code_expires_at <= now() AS expired, before.code_used_at IS NOT NULL AS replayed`,
    [hashKey(code)],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    grantId: r.id,
    clientId: r.client_id,
    redirectUri: r.redirect_uri,
    codeChallenge: r.code_challenge,
    scope: r.scope,
    resource: r.resource,
    expired: r.expired,
    replayed: r.replayed,
  };
}

export interface RedeemedRefresh {
  grantId: string;
  clientId: string;
  scope: string;
  resource: string | null;
  /** Expired, or its grant revoked. */
  dead: boolean;
  /** Exchanged before: a replay. */
  replayed: boolean;
}

/** Marks the refresh token used (rotation: it is good once) and returns its grant, or null. */
export async function redeemRefreshToken(db: Queryable, token: string): Promise<RedeemedRefresh | null> {
  const { rows } = await db.query<{
    grant_id: string;
    client_id: string;
    scope: string;
    resource: string | null;
    dead: boolean;
    replayed: boolean;
  }>(
    `WITH before AS (
       SELECT token_hash, used_at FROM oauth_tokens WHERE token_hash = $1 AND kind = 'refresh' FOR UPDATE)
     UPDATE oauth_tokens t SET used_at = COALESCE(t.used_at, now())
       FROM before, oauth_grants g
      WHERE t.token_hash = before.token_hash AND g.id = t.grant_id
     RETURNING t.grant_id, g.client_id, g.scope, g.resource,
               (t.expires_at <= now() OR g.revoked_at IS NOT NULL) AS dead, before.used_at IS NOT NULL AS replayed`,
    [hashKey(token)],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    grantId: r.grant_id,
    clientId: r.client_id,
    scope: r.scope,
    resource: r.resource,
    dead: r.dead,
    replayed: r.replayed,
  };
}

/** Revokes a grant: every token issued from it stops working at once. */
export async function revokeGrant(db: Queryable, grantId: string): Promise<void> {
  await db.query('UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1', [grantId]);
}

// The conditions under which a grant still speaks for its person: the key it was given with, if
// any, still live, and the person's membership of the grant's organization unbroken since the consent.
const LIVE_GRANT = `
  LEFT JOIN api_keys k ON k.id = g.key_id
  JOIN users u ON u.id = g.user_id AND (g.key_id IS NULL OR (k.id IS NOT NULL AND k.revoked_at IS NULL))
  JOIN memberships m ON m.user_id = g.user_id AND m.organization_id = g.organization_id
                    AND m.created_at <= g.created_at`;

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scope: string;
}

/** A fresh access and refresh token for a grant that is still live; null when its key is not. */
export async function issueTokens(db: Queryable, grantId: string): Promise<IssuedTokens | null> {
  const { rows } = await db.query<{ scope: string }>(
    `SELECT g.scope FROM oauth_grants g ${LIVE_GRANT} WHERE g.id = $1 AND g.revoked_at IS NULL`,
    [grantId],
  );
  if (!rows[0]) return null;
  // Expired tokens of this grant are cleared as it is used; a used refresh token stays until it
  // expires, so presenting it again is still recognised as a replay.
  await db.query('DELETE FROM oauth_tokens WHERE grant_id = $1 AND expires_at < now()', [grantId]);
  const accessToken = newSecret(ACCESS_TOKEN_PREFIX);
  const refreshToken = newSecret(REFRESH_TOKEN_PREFIX);
  await db.query(
    `INSERT INTO oauth_tokens (token_hash, grant_id, kind, expires_at) VALUES
       ($1, $3, 'access', now() + make_interval(secs => $4)),
       ($2, $3, 'refresh', now() + make_interval(secs => $5))`,
    [hashKey(accessToken), hashKey(refreshToken), grantId, ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S],
  );
  return { accessToken, refreshToken, expiresIn: ACCESS_TOKEN_TTL_S, scope: rows[0].scope };
}

/**
 * The identity an access token acts as: the very one its key resolves to; null when it is dead.
 * Run on every MCP request with a token, so a named prepared statement, as resolveKey's.
 */
export async function resolveAccessToken(pg: Postgres, token: string): Promise<Identity | null> {
  const { rows } = await pg.query<IdentityRow>(
    `SELECT g.key_id AS id, g.user_id, u.email, m.organization_id
       FROM oauth_tokens t
       JOIN oauth_grants g ON g.id = t.grant_id AND g.revoked_at IS NULL ${LIVE_GRANT}
      WHERE t.token_hash = $1 AND t.kind = 'access' AND t.expires_at > now()`,
    [hashKey(token)],
    { prepared: true },
  );
  return rows[0] ? identityOf(rows[0]) : null;
}

/**
 * RFC 7009 revocation by the client the token was issued to: a refresh token revokes its whole
 * grant, an access token only itself. Anything else (unknown, another client's) is left alone.
 */
export async function revokeToken(db: Queryable, token: string, clientId: string): Promise<void> {
  const { rows } = await db.query<{ grant_id: string; kind: string }>(
    `SELECT t.grant_id, t.kind FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
      WHERE t.token_hash = $1 AND g.client_id = $2`,
    [hashKey(token), clientId],
  );
  const row = rows[0];
  if (!row) return;
  if (row.kind === 'refresh') await revokeGrant(db, row.grant_id);
  else await db.query('DELETE FROM oauth_tokens WHERE token_hash = $1', [hashKey(token)]);
}

export interface ConnectedApp {
  client_id: string;
  /** The name the application registered itself with (self-declared); null when it gave none. */
  name: string | null;
  connected_at: string;
}

/** The applications holding a live grant of the person (given signed in or with one of their keys). */
export async function connectedApps(db: Queryable, userId: string): Promise<ConnectedApp[]> {
  const { rows } = await db.query<{ client_id: string; name: string | null; connected_at: Date }>(
    `SELECT g.client_id, c.name, min(g.created_at) AS connected_at
       FROM oauth_grants g ${LIVE_GRANT}
       JOIN oauth_clients c ON c.id = g.client_id
      WHERE g.user_id = $1 AND g.revoked_at IS NULL AND g.code_used_at IS NOT NULL
      GROUP BY g.client_id, c.name ORDER BY connected_at, g.client_id`,
    [userId],
  );
  return rows.map((r) => ({ ...r, connected_at: new Date(r.connected_at).toISOString() }));
}

/** Disconnect: every grant the person gave the application is revoked, so its tokens stop at once. */
export async function disconnectApp(db: Queryable, userId: string, clientId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE oauth_grants SET revoked_at = now() WHERE user_id = $1 AND client_id = $2 AND revoked_at IS NULL',
    [userId, clientId],
  );
  return (rowCount ?? 0) > 0;
}
