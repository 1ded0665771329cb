// A person's password: set from the command line (the first user, recovery) or changed by the
// person in Settings > Account. Either way whoever knew the old password loses what it opened: the
// person's other sessions end, and so does every OAuth grant given through a session (those given
// with a key stay, as the keys do).
import { ApiError, UserError } from '../errors.ts';
import type { Postgres, Queryable } from '../stores/postgres.ts';
import { normaliseEmail } from './emails.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { endOtherSessions } from './sessions.ts';
import { checkSignIn, Throttled } from './sign-in.ts';

/** `answerscope users set-password --email E`: for an existing person only. */
export async function setPasswordByEmail(pg: Postgres, email: string, password: string): Promise<{ userId: string }> {
  const problem = passwordProblem(password);
  if (problem) throw new UserError(problem);
  const e = normaliseEmail(email);
  const hash = await hashPassword(password);
  return pg.tx(async (c) => {
    const { rows } = await c.query<{ id: string }>(
      'UPDATE users SET password_hash = $2 WHERE email = $1 RETURNING id',
      [e, hash],
    );
    if (!rows[0]) throw new UserError(`No user with email ${e}; add one with 'answerscope members add' or 'apply'`);
    await endWhatThePasswordOpened(c, rows[0].id);
    return { userId: rows[0].id };
  });
}

/**
 * Settings > Account: the current password, then the new one; `keep` is the session making the
 * change. The current password is checked as a sign-in is, throttle included: a stolen session
 * cannot guess it faster than the sign-in form could.
 */
export async function changePassword(
  pg: Postgres,
  identity: { userId: string; email: string },
  change: { current: string; next: string; keep: string; address: string },
): Promise<void> {
  const checked = await checkSignIn(pg, { email: identity.email, password: change.current, address: change.address });
  if (!checked.ok && checked.reason === 'throttled') {
    throw new Throttled(checked.retryAt, 'current_password');
  }
  if (!checked.ok || checked.userId !== identity.userId) {
    throw new ApiError(400, 'Current password is incorrect', 'current_password');
  }
  const problem = passwordProblem(change.next);
  if (problem) throw new ApiError(400, problem, 'new_password');
  const hash = await hashPassword(change.next);
  await pg.tx(async (c) => {
    await c.query('UPDATE users SET password_hash = $2 WHERE id = $1', [identity.userId, hash]);
    await endWhatThePasswordOpened(c, identity.userId, change.keep);
  });
}

async function endWhatThePasswordOpened(c: Queryable, userId: string, keepSession?: string): Promise<void> {
  await endOtherSessions(c, userId, keepSession);
  await c.query(
    'UPDATE oauth_grants SET revoked_at = now() WHERE user_id = $1 AND key_id IS NULL AND revoked_at IS NULL',
    [userId],
  );
}
