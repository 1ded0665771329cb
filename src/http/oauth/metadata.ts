// Where an OAuth client finds everything: the protected resource metadata of the MCP endpoint
// (RFC 9728) and the authorization server metadata (RFC 8414). The service is both, at one base
// URL: PUBLIC_URL, or else the request's own origin (docs/oauth.md).
import type Koa from 'koa';
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Config } from '../../config.ts';
import { badRequest } from '../../errors.ts';
import { isHostAndPort } from '../hosts.ts';
import { writtenByProxy } from '../client-address.ts';

/** The MCP transport endpoint (src/mcp/http.ts): the one path that takes OAuth access tokens. */
export const MCP_ENDPOINT = '/api/mcp';
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';
export const AUTHORIZATION_SERVER_PATH = '/.well-known/oauth-authorization-server';
export const REGISTER_PATH = '/oauth/register';
export const AUTHORIZE_PATH = '/oauth/authorize';
export const TOKEN_PATH = '/oauth/token';
export const REVOKE_PATH = '/oauth/revoke';

/** The one scope: everything the granting key may do (docs/oauth.md). */
export const SCOPE = 'mcp';
export const CLIENT_AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'];

export const BAD_HOST = 'Host must be a host name or IP address with an optional port';

/**
 * scheme://host[:port] without a trailing slash: the issuer, and the prefix of every URL here.
 * Without PUBLIC_URL it is the request's own (its protocol and Host, or X-Forwarded-Proto and
 * X-Forwarded-Host with TRUST_PROXY), accepted only when the host is a DNS name or an IP literal
 * with an optional port (a 400 otherwise: such a host would carry quotes and separators into
 * headers and documents), and the response is marked as varying by it, never to be cached for
 * another host.
 */
export function baseUrl(ctx: Koa.Context, config: Config): string {
  if (config.publicUrl) return config.publicUrl;
  ctx.vary(config.trustProxy ? 'Host, X-Forwarded-Host, X-Forwarded-Proto' : 'Host');
  ctx.set('Cache-Control', 'no-store');
  // Koa's ctx.origin is the Origin header; the service's own origin is the protocol and Host.
  // Read here, not from Koa's ctx.host, which keeps the first of comma-separated values of Host
  // too: a Host with a comma is malformed, while X-Forwarded-Host lists the proxies' hosts. Of
  // those, the one the outermost of the N trusted proxies wrote (the Nth from the right, the rule of
  // the client address): entries further left are the client's own, which could name any host.
  // Fewer entries than N: the Host the connection carried. (X-Forwarded-Proto is Koa's reading: it
  // picks only http or https, checked below.)
  const protocol = ctx.protocol;
  const host = writtenByProxy(ctx.get('X-Forwarded-Host'), config.trustProxy) ?? ctx.get('Host');
  // No Host at all (HTTP/1.0): the loopback name, as before.
  if (!host) return `${protocol === 'https' ? 'https' : 'http'}://localhost`;
  if ((protocol !== 'http' && protocol !== 'https') || !isHostAndPort(host)) throw badRequest(BAD_HOST);
  return new URL(`${protocol}://${host}`).origin;
}

/** `value` as an RFC 9110 quoted-string: backslash and double quote escaped, controls dropped. */
export const quoted = (value: string) => `"${value.replace(/\p{Cc}/gu, '').replace(/["\\]/g, '\\$&')}"`;

/** The resource indicator (RFC 8707) of the MCP endpoint. */
export const resourceUrl = (base: string) => `${base}${MCP_ENDPOINT}`;

/** Whether a `resource` parameter names this MCP server (its endpoint, or the base URL, with or without a slash). */
export function isOurResource(resource: string, base: string): boolean {
  const given = resource.endsWith('/') ? resource.slice(0, -1) : resource;
  return given === resourceUrl(base) || given === base;
}

/** The challenge of a 401 from the MCP endpoint (docs/api.md section 16; RFC 6750 error for a dead token). */
export function bearerChallenge(base: string, invalidToken: boolean): string {
  const challenge = `Bearer resource_metadata=${quoted(`${base}${PROTECTED_RESOURCE_PATH}`)}`;
  return invalidToken ? `${challenge}, error="invalid_token"` : challenge;
}

export function protectedResourceMetadata(base: string): OAuthProtectedResourceMetadata {
  return {
    resource: resourceUrl(base),
    authorization_servers: [base],
    scopes_supported: [SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Answerscope',
    resource_documentation: `${base}/docs`,
  };
}

export function authorizationServerMetadata(base: string): OAuthMetadata {
  return {
    issuer: base,
    authorization_endpoint: `${base}${AUTHORIZE_PATH}`,
    token_endpoint: `${base}${TOKEN_PATH}`,
    registration_endpoint: `${base}${REGISTER_PATH}`,
    revocation_endpoint: `${base}${REVOKE_PATH}`,
    scopes_supported: [SCOPE],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/docs`,
  };
}
