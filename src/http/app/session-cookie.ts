// The session cookie (docs/app.md, "Sessions"): HttpOnly, SameSite=Lax, Path=/, kept as long as
// the idle expiry; the server decides whether the session still lives. With an https PUBLIC_URL it
// is Secure and named with the `__Host-` prefix, which browsers accept only when Secure, with
// Path=/ and no Domain: no other host of the site (a sibling subdomain) can set or shadow it.
import type Koa from 'koa';
import type { Config } from '../../config.ts';
import type { Postgres } from '../../stores/postgres.ts';
import { resolveSession, SESSION_IDLE_DAYS, type SessionIdentity } from '../../tenancy/sessions.ts';

export const SESSION_COOKIE = 'answerscope_session';

const https = (config: Config) => config.publicUrl?.startsWith('https:') ?? false;

/** The cookie's name: `__Host-answerscope_session` behind https, else `answerscope_session`. */
export const sessionCookieName = (config: Config) => (https(config) ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE);

function cookie(value: string, maxAge: number, config: Config): string {
  const secure = https(config) ? '; Secure' : '';
  return `${sessionCookieName(config)}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

export function setSessionCookie(ctx: Koa.Context, config: Config, token: string): void {
  ctx.append('Set-Cookie', cookie(token, SESSION_IDLE_DAYS * 86_400, config));
}

export function clearSessionCookie(ctx: Koa.Context, config: Config): void {
  ctx.append('Set-Cookie', cookie('', 0, config));
}

/** The session token the request's cookie carries, if it looks like one of ours. */
export function sessionToken(ctx: Koa.Context, config: Config): string | undefined {
  const name = sessionCookieName(config);
  for (const part of ctx.get('cookie').split(';')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === name && value && /^[A-Za-z0-9_-]{20,100}$/.test(value)) return value;
  }
  return undefined;
}

export interface Session {
  token: string;
  identity: SessionIdentity;
}

/** The signed-in person of the request, looked up afresh (membership as of now), or null. */
export async function currentSession(ctx: Koa.Context, pg: Postgres, config: Config): Promise<Session | null> {
  const token = sessionToken(ctx, config);
  if (!token) return null;
  const identity = await resolveSession(pg, token);
  return identity ? { token, identity } : null;
}

/** Where a sign-in comes from, as Settings > Account lists it. */
export const originOf = (ctx: Koa.Context) => ({ address: ctx.ip || 'unknown', userAgent: ctx.get('user-agent') });
