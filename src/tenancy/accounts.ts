// A person's password: set from the command line (the first user, recovery) or changed by the
// person in Settings > Account. Either way the person's other sessions end: whoever knew the old
// password is signed out.
import { ApiError, UserError } from '../errors.ts';
import type { Postgres } from '../stores/postgres.ts';
import { normaliseEmail } from './members.ts';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import { endOtherSessions } from './sessions.ts';

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
    await endOtherSessions(c, rows[0].id);
    return { userId: rows[0].id };
  });
}

/** Settings > Account: the current password, then the new one; `keep` is the session making the change. */
export async function changePassword(
  pg: Postgres,
  userId: string,
  change: { current: string; next: string; keep: string },
): Promise<void> {
  const { rows } = await pg.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [
    userId,
  ]);
  if (!(await verifyPassword(change.current, rows[0]?.password_hash ?? null))) {
    throw new ApiError(400, 'Current password is incorrect', 'current_password');
  }
  const problem = passwordProblem(change.next);
  if (problem) throw new ApiError(400, problem, 'new_password');
  const hash = await hashPassword(change.next);
  await pg.tx(async (c) => {
    await c.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, hash]);
    await endOtherSessions(c, userId, change.keep);
  });
}
