// Checking a person's email and password, with failures throttled (docs/api.md section 17): after
// 10 failed attempts for one email (as typed) from one address within 15 minutes, that email is
// refused from that address, a correct password too, until the oldest of those 10 is 15 minutes
// old. Failures count whether or not such a person exists, and the refusal is decided before any
// password is checked, so it tells nothing either. Another address or another email gets through.
import type { Postgres } from '../stores/postgres.ts';
import { verifyPassword } from './passwords.ts';

export const MAX_FAILURES = 10;
export const FAILURE_WINDOW_MIN = 15;

export type SignInResult =
  | { ok: true; userId: string }
  | { ok: false; reason: 'incorrect' }
  | { ok: false; reason: 'throttled'; retryAt: Date };

/** "Too many failed sign-ins ... Try again at 14:05 UTC (in 12 minutes)." */
export function throttledMessage(retryAt: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 60_000));
  const at = retryAt.toISOString().slice(11, 16);
  return `Too many failed sign-ins for this email. Try again at ${at} UTC (in ${minutes} minute${minutes === 1 ? '' : 's'}).`;
}

/** The email as the throttle counts it: as typed, only trimmed and lower-cased (never validated). */
const typed = (email: string) => email.trim().toLowerCase().slice(0, 320);

/** When the email may be tried again from the address, or null when it may now. */
async function blockedUntil(pg: Postgres, email: string, address: string): Promise<Date | null> {
  const { rows } = await pg.query<{ retry_at: Date }>(
    `SELECT failed_at + make_interval(mins => $3) AS retry_at FROM sign_in_failures
      WHERE email = $1 AND address = $2 AND failed_at > now() - make_interval(mins => $3)
      ORDER BY failed_at DESC OFFSET $4 LIMIT 1`,
    [email, address, FAILURE_WINDOW_MIN, MAX_FAILURES - 1],
  );
  return rows[0] ? new Date(rows[0].retry_at) : null;
}

export async function checkSignIn(
  pg: Postgres,
  attempt: { email: string; password: string; address: string },
): Promise<SignInResult> {
  const email = typed(attempt.email);
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
  // Failures older than the window count for nothing; they are cleared as new ones arrive.
  await pg.query('DELETE FROM sign_in_failures WHERE failed_at < now() - make_interval(mins => $1)', [
    FAILURE_WINDOW_MIN,
  ]);
  return { ok: false, reason: 'incorrect' };
}
