// The first run (docs/app.md "First run"): while no person has a password, nobody can sign in, so
// the server prints an address with a one-time code in its log (and `answerscope setup-link` makes
// a new one, voiding the old). That address's form creates the organization and its first admin.
// Once anyone has a password the setup is over for good: codes are refused and no new one is made.
import { randomBytes, randomUUID } from 'node:crypto';
import { ApiError, UserError } from '../errors.ts';
import type { Postgres, Queryable } from '../stores/postgres.ts';
import { hashKey } from './keys.ts';
import { upsertMember } from './members.ts';
import { normaliseEmail } from './emails.ts';
import { hashPassword, passwordProblem } from './passwords.ts';

export const SETUP_PATH = '/app/setup';
export const SETUP_DONE = 'Setup is done: someone already has a password. Sign in, or ask an admin for an invitation';
export const SETUP_CODE_GONE = 'This setup address is not valid: it was used or replaced';
export const ORGANIZATION_TAKEN = 'An organization with this name exists already';
const TRIAL_DAYS = 14;
const MAX_ORGANIZATION = 200;

/** The address a code opens, on the service's public address `base`. */
export function setupAddress(base: string, code: string): string {
  return `${base.replace(/\/$/, '')}${SETUP_PATH}?code=${encodeURIComponent(code)}`;
}

/** Whether the store is still waiting for its first person: nobody has a password. */
export async function setupOpen(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ open: boolean }>(
    'SELECT NOT EXISTS (SELECT 1 FROM users WHERE password_hash IS NOT NULL) AS open',
  );
  return rows[0].open;
}

/** A new one-time code (the old one no longer works), or UserError when the setup is over. */
export async function newSetupCode(pg: Postgres): Promise<string> {
  const code = randomBytes(24).toString('base64url');
  await pg.tx(async (c) => {
    if (!(await setupOpen(c))) throw new UserError(SETUP_DONE);
    await c.query(
      `INSERT INTO setup_codes (only_one, code_hash) VALUES (true, $1)
       ON CONFLICT (only_one) DO UPDATE SET code_hash = EXCLUDED.code_hash, created_at = now()`,
      [hashKey(code)],
    );
  });
  return code;
}

/** Whether `code` opens the setup form now. */
export async function setupCodeValid(db: Queryable, code: string): Promise<boolean> {
  if (!code || code.length > 200) return false;
  const { rows } = await db.query<{ ok: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM setup_codes WHERE code_hash = $1)
        AND NOT EXISTS (SELECT 1 FROM users WHERE password_hash IS NOT NULL) AS ok`,
    [hashKey(code)],
  );
  return rows[0].ok;
}

export interface SetupInput {
  code: string;
  organization: string;
  email: string;
  password: string;
}

/**
 * Creates the organization and its first admin with their password, and uses up the code, in one
 * transaction: the code's row is deleted first, so of two forms sent at once only one gets past
 * it (the other waits on the row, then finds it gone: 404). Bad input is a 400 naming its field,
 * and nothing is written.
 */
export async function completeSetup(
  pg: Postgres,
  input: SetupInput,
): Promise<{ userId: string; organizationId: string }> {
  const organization = input.organization.trim();
  if (!organization) throw new ApiError(400, 'Organization is required', 'organization');
  if (organization.length > MAX_ORGANIZATION) {
    throw new ApiError(400, `Organization must be at most ${MAX_ORGANIZATION} characters`, 'organization');
  }
  const email = normaliseEmail(input.email);
  const problem = passwordProblem(input.password);
  if (problem) throw new ApiError(400, problem, 'password');
  if (!(await setupCodeValid(pg, input.code))) throw new ApiError(404, SETUP_CODE_GONE);
  const hash = await hashPassword(input.password);
  return pg.tx(async (c) => {
    const used = await c.query('DELETE FROM setup_codes WHERE code_hash = $1 RETURNING 1', [hashKey(input.code)]);
    if (!used.rowCount || !(await setupOpen(c))) throw new ApiError(404, SETUP_CODE_GONE);
    const made = await c.query<{ id: string }>(
      `INSERT INTO organizations (id, name, plan, trial_ends_at)
       VALUES ($1, $2, 'starter', now() + make_interval(days => ${TRIAL_DAYS}))
       ON CONFLICT (name) DO NOTHING RETURNING id`,
      [randomUUID(), organization],
    );
    if (!made.rows[0]) throw new ApiError(409, ORGANIZATION_TAKEN, 'organization');
    const organizationId = made.rows[0].id;
    const { userId } = await upsertMember(c, email, organizationId, 'admin');
    await c.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, hash]);
    return { userId, organizationId };
  });
}
