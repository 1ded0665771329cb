// The app's defences (docs/api.md section 17): the headers of every app page, the check that a
// change comes from the app's own pages (a token bound to the session, and the browser's Origin /
// Sec-Fetch-Site), refusing anything posted from another site with 403 before it changes anything.
import { createHash, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import type { Config } from '../../config.ts';
import { ApiError } from '../../errors.ts';
import { baseUrl } from '../oauth/metadata.ts';

/**
 * Scripts, styles and everything else come from this origin only; nothing inline runs, nothing may
 * frame the app, and forms post here only.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of every app page and answer. */
export function appHeaders(ctx: Koa.Context): void {
  ctx.set('Content-Security-Policy', CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('X-Frame-Options', 'DENY');
}

export const CROSS_SITE = 'Cross-site request refused';

/**
 * Whether the browser says the request comes from another site. Browsers send Sec-Fetch-Site
 * (Chromium, Firefox, Safari) and Origin on every POST; a client that sends neither is no browser
 * acting for someone else, and is judged by the session token alone. An opaque `Origin: null` is
 * what a form posted from a `no-referrer` page carries (the OAuth consent page): it says nothing
 * either way, so Sec-Fetch-Site decides, or where there is none, the token bound to the form
 * (`tokenBound`: the caller checks one) does; a form without such a token is refused.
 */
export function fromAnotherSite(ctx: Koa.Context, config: Config, opts: { tokenBound?: boolean } = {}): boolean {
  const site = ctx.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return true;
  const origin = ctx.get('origin');
  if (!origin) return false;
  if (origin === 'null') return !site && !opts.tokenBound;
  return origin !== baseUrl(ctx, config) && origin !== `${ctx.protocol}://${ctx.host}`;
}

/** The token a change must carry: derived from the session's own token, so it is bound to it. */
export function csrfToken(sessionToken: string): string {
  return createHash('sha256').update(`csrf\0${sessionToken}`).digest('base64url');
}

/**
 * The token of a form that answers one pending request (the consent page's Allow, an invitation's
 * Join) for the signed-in person: bound to both, so a form made for another session or another
 * request proves nothing.
 */
export function boundToken(sessionToken: string, request: string): string {
  return createHash('sha256').update(`bound\0${sessionToken}\0${request}`).digest('base64url');
}

export function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Refuses a change (403) that is cross-site or does not carry the session's token. */
export function checkChange(ctx: Koa.Context, config: Config, sessionToken: string, given: string | undefined): void {
  if (fromAnotherSite(ctx, config) || !given || !sameToken(given, csrfToken(sessionToken))) {
    throw new ApiError(403, CROSS_SITE);
  }
}
