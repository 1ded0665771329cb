// Bearer authentication exactly as SPEC.md's Authentication section says: only the Authorization
// header, only the Bearer scheme, only tokens starting with `ans_`; the key is looked up on every
// request so revocation and membership changes apply to the next one.
import type Koa from 'koa';
import type { Postgres } from '../stores/postgres.ts';
import { ApiError } from '../errors.ts';
import { INVALID, KEY_PREFIX, MALFORMED, resolveKey, type Identity } from '../tenancy/keys.ts';

export async function authenticate(pg: Postgres, header: string | undefined): Promise<Identity> {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  if (!match?.[1].startsWith(KEY_PREFIX)) throw new ApiError(401, MALFORMED);
  const identity = await resolveKey(pg, match[1]);
  if (!identity) throw new ApiError(401, INVALID);
  return identity;
}

export function requireKey(pg: Postgres): Koa.Middleware {
  return async (ctx, next) => {
    ctx.state.identity = await authenticate(pg, ctx.get('authorization') || undefined);
    await next();
  };
}
