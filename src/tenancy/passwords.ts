// Passwords (docs/api.md section 17): at least 10 characters, stored only as a memory-hard hash.
// scrypt from node:crypto, with its parameters stored beside the salt so they can be raised later
// without invalidating older hashes. N = 2^15, r = 8: 32 MiB and some 100 ms of one core a check,
// RFC 7914's interactive figure doubled; the hash is compared in constant time.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export const MIN_PASSWORD_LENGTH = 10;
/** An upper bound, so nobody makes the server hash a megabyte. */
export const MAX_PASSWORD_LENGTH = 1024;

const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, opts: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...opts, maxmem: 256 * opts.N * opts.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** What is wrong with a new password, or undefined when it will do. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  return undefined;
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `password` matches `stored`; a missing or unreadable hash is checked against a dummy, in the same time. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$') ?? [];
  const readable = parts.length === 6 && parts[0] === 'scrypt';
  // Without a hash (unknown email, no password yet) a dummy is derived anyway: the answer takes as
  // long as a real check, so its timing does not tell which emails have accounts.
  const [N, r, p] = readable ? parts.slice(1, 4).map(Number) : [PARAMS.N, PARAMS.r, PARAMS.p];
  const salt = readable ? Buffer.from(parts[4], 'base64') : randomBytes(16);
  const expected = readable ? Buffer.from(parts[5], 'base64') : randomBytes(KEY_LENGTH);
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  const key = await derive(password, salt, { N, r, p });
  return readable && key.length === expected.length && timingSafeEqual(key, expected);
}
