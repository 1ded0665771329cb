// Checking a person's password, with failures throttled (docs/app.md, "Signing in and its limits").
// Every check counts: the sign-in form, the consent page's sign-in, Settings > Account's current
// password, an invitation accepted with an existing account's password. Two limits:
// - after 10 failed checks for one email (as typed) from one address within 15 minutes, that email
//   is refused from that address, a correct password too, until the oldest of those 10 is 15
//   minutes old; another address or another email gets through;
// - one email takes at most 100 failed checks an hour from all addresses together (a guesser
//   spread over many addresses); then every further check for it is refused until the oldest of
//   those 100 is an hour old. Sessions already open keep working.
// Failures count whether or not such a person exists, and a refusal is decided before any password
// is checked, so it tells nothing either.
import { ApiError } from '../errors.ts';
import type { Postgres } from '../stores/postgres.ts';
import { throttleKey } from './emails.ts';
import { verifyPassword } from './passwords.ts';

export const MAX_FAILURES = 10;
export const FAILURE_WINDOW_MIN = 15;
export const ACCOUNT_MAX_FAILURES = 100;
export const ACCOUNT_WINDOW_MIN = 60;

export type SignInResult =
  | { ok: true; userId: string }
  | { ok: false; reason: 'incorrect' }
  | { ok: false; reason: 'throttled'; retryAt: Date };

/** Whole seconds until `retryAt`, at least 1: the Retry-After of a throttled answer. */
export const secondsUntil = (retryAt: Date) => Math.max(1, Math.ceil((retryAt.getTime() - Date.now()) / 1000));

/** A 429 naming the form field, which keeps when the email may be tried again (for Retry-After). */
export class Throttled extends ApiError {
  constructor(
    readonly retryAt: Date,
    field: string,
  ) {
    super(429, throttledMessage(retryAt, new Date()), field);
  }
}

/** "Too many failed sign-ins ... Try again at 14:05 UTC (in 12 minutes)." */
export function throttledMessage(retryAt: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 60_000));
  const at = retryAt.toISOString().slice(11, 16);
  return `Too many failed sign-ins for this email. Try again at ${at} UTC (in ${minutes} minute${minutes === 1 ? '' : 's'}).`;
}

/**
 * When the email may be checked again from the address, or null when it may now. Throws a 400
 * naming `email` for an email holding an invisible character (emails.ts).
 */
export async function blockedUntil(pg: Postgres, typedEmail: string, address: string): Promise<Date | null> {
  const { rows } = await pg.query<{ retry_at: Date | null }>(
    `SELECT greatest(
       (SELECT failed_at + make_interval(mins => $3) FROM sign_in_failures
         WHERE email = $1 AND address = $2 AND failed_at > now() - make_interval(mins => $3)
         ORDER BY failed_at DESC OFFSET $4 LIMIT 1),
       (SELECT failed_at + make_interval(mins => $5) FROM sign_in_failures
         WHERE email = $1 AND failed_at > now() - make_interval(mins => $5)
         ORDER BY failed_at DESC OFFSET $6 LIMIT 1)) AS retry_at`,
    [
      throttleKey(typedEmail),
      address,
      FAILURE_WINDOW_MIN,
      MAX_FAILURES - 1,
      ACCOUNT_WINDOW_MIN,
      ACCOUNT_MAX_FAILURES - 1,
    ],
  );
  return rows[0]?.retry_at ? new Date(rows[0].retry_at) : null;
}

export async function checkSignIn(
  pg: Postgres,
  attempt: { email: string; password: string; address: string },
): Promise<SignInResult> {
  const email = throttleKey(attempt.email);
  const retryAt = await blockedUntil(pg, email, attempt.address);
  // Refused attempts are not counted: the window moves on by itself.
  if (retryAt) return { ok: false, reason: 'throttled', retryAt };
  const { rows } = await pg.query<{ id: string; password_hash: string | null }>(
    'SELECT id, password_hash FROM users WHERE email = $1',
    [email],
  );
  const user = rows[0];
  if (user && (await verifyPassword(attempt.password, user.password_hash))) {
    await pg.query('DELETE FROM sign_in_failures WHERE email = $1 AND address = $2', [email, attempt.address]);
    return { ok: true, userId: user.id };
  }
  if (!user) await verifyPassword(attempt.password, null);
  await pg.query('INSERT INTO sign_in_failures (email, address) VALUES ($1, $2)', [email, attempt.address]);
  // Failures older than the longer window count for nothing; they are cleared as new ones arrive.
  await pg.query('DELETE FROM sign_in_failures WHERE failed_at < now() - make_interval(mins => $1)', [
    ACCOUNT_WINDOW_MIN,
  ]);
  return { ok: false, reason: 'incorrect' };
}
