// The session cookie (docs/api.md section 17): HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is
// https, kept as long as the idle expiry; the server decides whether the session still lives.
import type Koa from 'koa';
import type { Config } from '../../config.ts';
import type { Postgres } from '../../stores/postgres.ts';
import { resolveSession, SESSION_IDLE_DAYS, type SessionIdentity } from '../../tenancy/sessions.ts';

export const SESSION_COOKIE = 'answerscope_session';

function cookie(value: string, maxAge: number, config: Config): string {
  const secure = config.publicUrl?.startsWith('https:') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

export function setSessionCookie(ctx: Koa.Context, config: Config, token: string): void {
  ctx.append('Set-Cookie', cookie(token, SESSION_IDLE_DAYS * 86_400, config));
}

export function clearSessionCookie(ctx: Koa.Context, config: Config): void {
  ctx.append('Set-Cookie', cookie('', 0, config));
}

/** The session token the request's cookie carries, if it looks like one of ours. */
export function sessionToken(ctx: Koa.Context): string | undefined {
  const header = ctx.get('cookie');
  for (const part of header.split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === SESSION_COOKIE && value && /^[A-Za-z0-9_-]{20,100}$/.test(value)) return value;
  }
  return undefined;
}

export interface Session {
  token: string;
  identity: SessionIdentity;
}

/** The signed-in person of the request, looked up afresh (membership as of now), or null. */
export async function currentSession(ctx: Koa.Context, pg: Postgres): Promise<Session | null> {
  const token = sessionToken(ctx);
  if (!token) return null;
  const identity = await resolveSession(pg, token);
  return identity ? { token, identity } : null;
}
