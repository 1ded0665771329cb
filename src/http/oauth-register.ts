// POST /oauth/register: dynamic client registration (RFC 7591). The metadata is read with the MCP
// SDK's own schema; on top of it, the rules of this service: redirect URIs are https, or http on a
// loopback host only (a native client's local listener), with no fragment; only the code flow.
import type Koa from 'koa';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { InvalidClientMetadataError, OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Postgres } from '../stores/postgres.ts';
import { ApiError, validationMessage } from '../errors.ts';
import { readJsonBody } from '../runtime/json-body.ts';
import { createClient } from '../tenancy/oauth-clients.ts';
import { CLIENT_AUTH_METHODS } from './oauth-metadata.ts';
import { oauthError } from './oauth-form.ts';

class InvalidRedirectUriError extends OAuthError {
  static errorCode = 'invalid_redirect_uri';
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const MAX_NAME_LENGTH = 200;

/** What is wrong with a redirect URI, or undefined when it may be registered. */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL`;
  }
  if (uri.length > MAX_URI_LENGTH) return `a redirect URI has at most ${MAX_URI_LENGTH} characters`;
  if (url.hash || uri.includes('#')) return `${uri} must not have a fragment`;
  if (url.username || url.password) return `${uri} must not carry credentials`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return undefined;
  return `${uri} must use https, or http on a loopback host (127.0.0.1, [::1], localhost)`;
}

function subsetProblem(name: string, given: string[] | undefined, allowed: string[]): string | undefined {
  const other = (given ?? []).find((v) => !allowed.includes(v));
  return other === undefined ? undefined : `${name} may hold only ${allowed.join(', ')}; ${other} is not supported`;
}

export async function register(ctx: Koa.Context, pg: Postgres): Promise<void> {
  let body: unknown;
  try {
    body = await readJsonBody(ctx, 64 * 1024);
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
    (meta.client_name && meta.client_name.length > MAX_NAME_LENGTH
      ? `client_name has at most ${MAX_NAME_LENGTH} characters`
      : undefined);
  if (problem) return oauthError(ctx, new InvalidClientMetadataError(problem));

  const metadata = {
    ...meta,
    token_endpoint_auth_method: method,
    grant_types: meta.grant_types ?? ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
  const { client, secret } = await createClient(pg, {
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
