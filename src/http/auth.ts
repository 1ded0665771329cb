// Bearer authentication exactly as docs/api.md section 26 (Authentication) says: only the Authorization
// header, only the Bearer scheme, only tokens starting with `ans_`; the key is looked up on every
// request so revocation and membership changes apply to the next one. The MCP endpoint also takes
// the OAuth access tokens of docs/api.md section 16 (looked up afresh as well: a token dies with
// its key), and its 401 points the client to the protected resource metadata; REST and the
// Metrics API stay key-only.
import type Koa from 'koa';
import type { Config } from '../config.ts';
import type { Postgres } from '../stores/postgres.ts';
import { ApiError } from '../errors.ts';
import { INVALID, KEY_PREFIX, MALFORMED, resolveKeyAndBrand, type Identity } from '../tenancy/keys.ts';
import type { BrandRecord } from '../tenancy/brands.ts';
import { ACCESS_TOKEN_PREFIX, resolveAccessToken } from '../tenancy/oauth-grants.ts';
import { baseUrl, bearerChallenge, MCP_ENDPOINT } from './oauth/metadata.ts';

const bearer = (header: string | undefined) => /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '')?.[1];

/**
 * The caller the header names. `brandId`: the brand the request names (its `brand_id` query
 * parameter), read with the key when the key's organization owns it (`brand`, handed to the
 * operation so it need not read it again); null when not read or not the caller's.
 */
export async function authenticate(
  pg: Postgres,
  header: string | undefined,
  opts: { tokens?: boolean; brandId?: string } = {},
): Promise<{ identity: Identity; brand: BrandRecord | null }> {
  const credential = bearer(header);
  if (opts.tokens && credential?.startsWith(ACCESS_TOKEN_PREFIX)) {
    // A dead token is refused as a dead key is: it acts exactly as the key that granted it.
    const identity = await resolveAccessToken(pg, credential);
    if (!identity) throw new ApiError(401, INVALID);
    return { identity, brand: null };
  }
  if (!credential?.startsWith(KEY_PREFIX)) throw new ApiError(401, MALFORMED);
  const found = await resolveKeyAndBrand(pg, credential, opts.brandId);
  if (!found) throw new ApiError(401, INVALID);
  return found;
}

export function requireKey(pg: Postgres, config: Config): Koa.Middleware {
  return async (ctx, next) => {
    const header = ctx.get('authorization') || undefined;
    if (ctx.path !== MCP_ENDPOINT) {
      const brandId = typeof ctx.query.brand_id === 'string' ? ctx.query.brand_id : undefined;
      ({ identity: ctx.state.identity, brand: ctx.state.brand } = await authenticate(pg, header, { brandId }));
      return next();
    }
    try {
      ctx.state.identity = (await authenticate(pg, header, { tokens: true })).identity;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        const deadToken = bearer(header)?.startsWith(ACCESS_TOKEN_PREFIX) ?? false;
        ctx.set('WWW-Authenticate', bearerChallenge(baseUrl(ctx, config), deadToken));
      }
      throw err;
    }
    await next();
  };
}
