// Where an OAuth client finds everything: the protected resource metadata of the MCP endpoint
// (RFC 9728) and the authorization server metadata (RFC 8414). The service is both, at one base
// URL: PUBLIC_URL, or else the request's own origin (docs/oauth.md).
import type Koa from 'koa';
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Config } from '../config.ts';

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

/** scheme://host[:port] without a trailing slash: the issuer, and the prefix of every URL here. */
export function baseUrl(ctx: Koa.Context, config: Config): string {
  if (config.publicUrl) return config.publicUrl;
  // Koa's ctx.origin is the Origin header; the service's own origin is the protocol and Host
  // (X-Forwarded-* with TRUST_PROXY), normalised by URL so nothing odd in a Host header survives.
  try {
    return new URL(`${ctx.protocol}://${ctx.host}`).origin;
  } catch {
    return `${ctx.protocol}://localhost`;
  }
}

/** The resource indicator (RFC 8707) of the MCP endpoint. */
export const resourceUrl = (base: string) => `${base}${MCP_ENDPOINT}`;

/** Whether a `resource` parameter names this MCP server (its endpoint, or the base URL, with or without a slash). */
export function isOurResource(resource: string, base: string): boolean {
  const given = resource.endsWith('/') ? resource.slice(0, -1) : resource;
  return given === resourceUrl(base) || given === base;
}

/** The challenge of a 401 from the MCP endpoint (docs/api.md section 16; RFC 6750 error for a dead token). */
export function bearerChallenge(base: string, invalidToken: boolean): string {
  const challenge = `Bearer resource_metadata="${base}${PROTECTED_RESOURCE_PATH}"`;
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
