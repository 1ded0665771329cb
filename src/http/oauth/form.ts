// The pieces every OAuth endpoint shares: reading an application/x-www-form-urlencoded body (the
// token, revocation and consent forms), answering an RFC 6749 error as JSON, and the CORS headers
// of the endpoints a browser-based client calls from another origin (no cookies are involved, so
// any origin may).
import type Koa from 'koa';
import { type OAuthError, InvalidRequestError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

const MAX_FORM_BYTES = 64 * 1024;

/** The form's fields; a field given twice is refused (RFC 6749 section 3.1), as is another content type. */
export async function readForm(ctx: Koa.Context): Promise<Map<string, string>> {
  if (!ctx.is('application/x-www-form-urlencoded')) {
    throw new InvalidRequestError('the body must be application/x-www-form-urlencoded');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new InvalidRequestError(`the body exceeds ${MAX_FORM_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
    if (fields.has(name)) throw new InvalidRequestError(`${name} is given more than once`);
    fields.set(name, value);
  }
  return fields;
}

/** A query's parameters, refusing one given twice as the form does. */
export function singleParams(query: URLSearchParams): Map<string, string> | string {
  const params = new Map<string, string>();
  for (const [name, value] of query) {
    if (params.has(name)) return `${name} is given more than once`;
    params.set(name, value);
  }
  return params;
}

/** Answers an OAuth error: 401 for a client that failed to authenticate, 400 otherwise (RFC 6749 section 5.2). */
export function oauthError(ctx: Koa.Context, err: OAuthError, status = 400): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = err.toResponseObject();
}

export function allowCors(ctx: Koa.Context): void {
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  ctx.set('Access-Control-Allow-Headers', 'Authorization, Content-Type, MCP-Protocol-Version');
  ctx.set('Access-Control-Max-Age', '600');
}
