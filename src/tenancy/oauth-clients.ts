// OAuth clients registered dynamically (RFC 7591) by the assistants that connect to /api/mcp.
// A client is only a name and its redirect URIs: what it may reach is decided per consent, by the
// key a person pastes (oauth-grants.ts). A confidential client's secret is stored as its SHA-256.
import { randomBytes, timingSafeEqual } from 'node:crypto';
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

export async function createClient(
  db: Queryable,
  opts: { name?: string; redirectUris: string[]; metadata: Record<string, unknown>; confidential: boolean },
): Promise<{ client: OAuthClient; secret?: string }> {
  const id = randomBytes(18).toString('base64url');
  const secret = opts.confidential ? newSecret() : undefined;
  const secretHash = secret ? hashKey(secret) : null;
  const { rows } = await db.query<{ created_at: Date }>(
    `INSERT INTO oauth_clients (id, secret_hash, name, redirect_uris, metadata)
     VALUES ($1, $2, $3, $4, $5) RETURNING created_at`,
    [id, secretHash, opts.name ?? null, opts.redirectUris, JSON.stringify(opts.metadata)],
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

export async function clientById(db: Queryable, id: string): Promise<OAuthClient | null> {
  const { rows } = await db.query<{
    id: string;
    name: string | null;
    redirect_uris: string[];
    secret_hash: string | null;
    metadata: Record<string, unknown>;
    created_at: Date;
  }>('SELECT id, name, redirect_uris, secret_hash, metadata, created_at FROM oauth_clients WHERE id = $1', [id]);
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
