// POST /oauth/register: dynamic client registration (RFC 7591). The metadata is read with the MCP
// SDK's own schema; on top of it, the rules of this service: redirect URIs are https, or http on a
// loopback host only (a native client's local listener), with no fragment; only the code flow.
import type Koa from 'koa';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { InvalidClientMetadataError, OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Postgres } from '../../stores/postgres.ts';
import { ApiError, validationMessage } from '../../errors.ts';
import { readJsonBody } from '../../runtime/json-body.ts';
import {
  addressHash,
  createClient,
  REGISTRATION_WINDOW_MS,
  registrationsSince,
  removeUnusedClients,
} from '../../tenancy/oauth-clients.ts';
import { CLIENT_AUTH_METHODS } from './metadata.ts';
import { oauthError } from './form.ts';
import { isHostName } from '../hosts.ts';

class InvalidRedirectUriError extends OAuthError {
  static errorCode = 'invalid_redirect_uri';
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const MAX_NAME_LENGTH = 200;
/** A registration is a few hundred bytes; the bounds below keep a stored one under a few KB. */
const MAX_BODY_BYTES = 16 * 1024;
const MAX_LIST_ITEMS = 10;
/** The longest string of each field the registration stores (RFC 7591 section 2); URIs otherwise. */
const MAX_FIELD_LENGTH: Record<string, number> = {
  client_name: MAX_NAME_LENGTH,
  contacts: 320, // an email address (RFC 5321: 64 + 1 + 255)
  scope: 200,
  software_id: 200,
  software_version: 200,
  token_endpoint_auth_method: 50,
  grant_types: 50,
  response_types: 50,
};
/** jwks is stored as given (no method here uses it): bounded as JSON. */
const MAX_JWKS_LENGTH = 4096;

/** What is wrong with a redirect URI, or undefined when it may be registered. */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL`;
  }
  if (uri.length > MAX_URI_LENGTH) return `a redirect URI has at most ${MAX_URI_LENGTH} characters`;
  // The URL parser keeps `;`, `,` and quotes in a host; the consent page's CSP names the origin.
  if (!isHostName(url.hostname)) return `${uri} must name a DNS name or an IP address as its host`;
  if (url.hash || uri.includes('#')) return `${uri} must not have a fragment`;
  if (url.username || url.password) return `${uri} must not carry credentials`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return undefined;
  return `${uri} must use https, or http on a loopback host (127.0.0.1, [::1], localhost)`;
}

/** The first field of the metadata past its bound: a string's length, a list's count. */
export function metadataProblem(meta: Record<string, unknown>): string | undefined {
  for (const [field, value] of Object.entries(meta)) {
    const max = MAX_FIELD_LENGTH[field] ?? MAX_URI_LENGTH;
    if (typeof value === 'string' && value.length > max) return `${field} has at most ${max} characters`;
    if (Array.isArray(value)) {
      if (value.length > MAX_LIST_ITEMS) return `${field} holds at most ${MAX_LIST_ITEMS} values`;
      const long = value.findIndex((v) => typeof v === 'string' && v.length > max);
      if (long >= 0) return `${field}[${long}] has at most ${max} characters`;
    }
    if (field === 'jwks' && JSON.stringify(value).length > MAX_JWKS_LENGTH) {
      return `jwks has at most ${MAX_JWKS_LENGTH} characters as JSON`;
    }
  }
  return undefined;
}

function subsetProblem(name: string, given: string[] | undefined, allowed: string[]): string | undefined {
  const other = (given ?? []).find((v) => !allowed.includes(v));
  return other === undefined ? undefined : `${name} may hold only ${allowed.join(', ')}; ${other} is not supported`;
}

export async function register(ctx: Koa.Context, pg: Postgres, limits: { perAddress: number }): Promise<void> {
  let body: unknown;
  try {
    body = await readJsonBody(ctx, MAX_BODY_BYTES);
  } catch (err) {
    if (!(err instanceof ApiError) || (err.status !== 400 && err.status !== 413)) throw err;
    return oauthError(ctx, new InvalidClientMetadataError(err.message));
  }
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) return oauthError(ctx, new InvalidClientMetadataError(validationMessage(parsed.error.issues)));
  const meta = parsed.data;

  if (meta.redirect_uris.length === 0 || meta.redirect_uris.length > MAX_REDIRECT_URIS) {
    return oauthError(ctx, new InvalidRedirectUriError(`redirect_uris must hold 1 to ${MAX_REDIRECT_URIS} URIs`));
  }
  for (const uri of meta.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return oauthError(ctx, new InvalidRedirectUriError(problem));
  }
  // RFC 7591 section 2: a client that names no method authenticates with a secret (Basic).
  const method = meta.token_endpoint_auth_method ?? 'client_secret_basic';
  const problem =
    (CLIENT_AUTH_METHODS.includes(method)
      ? undefined
      : `token_endpoint_auth_method must be one of ${CLIENT_AUTH_METHODS.join(', ')}`) ??
    subsetProblem('grant_types', meta.grant_types, ['authorization_code', 'refresh_token']) ??
    subsetProblem('response_types', meta.response_types, ['code']) ??
    metadataProblem(meta);
  if (problem) return oauthError(ctx, new InvalidClientMetadataError(problem));

  // Registrations per client address are bounded: each is a row anyone may create without a key.
  // Clients never used go first (they would not resolve any more), so the table stays small.
  await removeUnusedClients(pg);
  const from = addressHash(ctx.ip || 'unknown');
  const recent = await registrationsSince(pg, from, REGISTRATION_WINDOW_MS);
  if (recent.count >= limits.perAddress) {
    const retryAfterS = Math.max(1, Math.ceil((recent.oldest!.getTime() + REGISTRATION_WINDOW_MS - Date.now()) / 1000));
    ctx.status = 429;
    ctx.set('Retry-After', String(retryAfterS));
    // Answered as an OAuth error (too_many_requests) by the mount, as its rate limit's 429 is.
    ctx.body = {
      error: `Too many client registrations from this address: at most ${limits.perAddress} a day. Try again in ${retryAfterS} seconds.`,
    };
    return;
  }

  const metadata = {
    ...meta,
    token_endpoint_auth_method: method,
    grant_types: meta.grant_types ?? ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
  const { client, secret } = await createClient(pg, {
    registeredFrom: from,
    name: meta.client_name,
    redirectUris: meta.redirect_uris,
    metadata,
    confidential: method !== 'none',
  });
  ctx.status = 201;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = {
    ...metadata,
    client_id: client.id,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
  };
}
