// The opaque paging cursor: the last row's (instant, id) in a list ordered newest first, signed.
// Its bytes are the JSON `[at, id]` followed by the first 16 bytes of its HMAC-SHA256 under the
// cursor key, all base64url. A cursor the service did not issue, or one altered by a single bit, is
// refused before any store sees it (docs/api.md section 9: `cursor is invalid`), however well it is
// shaped: a forged `["2099-01-01T00:00:00.000Z", "ffff..."]` would otherwise page from anywhere.
//
// The key is shared by every instance: the server reads it from Postgres at start (generated once,
// src/stores/service-keys.ts) and hands it to useCursorKey, so a cursor one instance issued pages
// on another. Until then (a one-off command paging its own list) the process uses a random key of
// its own.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { UUID_RE } from './uuid.ts';
import { inSupportedSpan, parseIsoInstant } from './instant.ts';

export interface PageCursor {
  /** ISO 8601 instant of the last row of the previous page. */
  at: string;
  /** Its id (a lower-case UUID): the tie-breaker between rows of the same instant. */
  id: string;
}

export const INVALID_CURSOR = 'cursor is invalid';

/** Bytes of the signature kept: 128 bits, beyond any guessing through a rate-limited API. */
const MAC_BYTES = 16;
/** Longer input is refused before it is decoded (an issued cursor has about 110 characters). */
export const MAX_CURSOR_LENGTH = 200;

let key: Buffer = randomBytes(32);

/** The key cursors are signed with from now on, in this process (the server's shared key). */
export function useCursorKey(k: Buffer): void {
  if (k.length < 32) throw new Error('a cursor key has at least 32 bytes');
  key = k;
}

const mac = (payload: Buffer) => createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);

export function encodeCursor(c: PageCursor): string {
  const payload = Buffer.from(JSON.stringify([c.at, c.id]));
  return Buffer.concat([payload, mac(payload)]).toString('base64url');
}

/** The cursor, or null when the service did not issue it (its signature does not hold) or it is malformed. */
export function decodeCursor(cursor: string): PageCursor | null {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const bytes = Buffer.from(cursor, 'base64url');
  // base64url decoding ignores stray trailing bits: only the exact text issued is the cursor.
  if (bytes.length <= MAC_BYTES || bytes.toString('base64url') !== cursor) return null;
  const payload = bytes.subarray(0, bytes.length - MAC_BYTES);
  if (!timingSafeEqual(bytes.subarray(bytes.length - MAC_BYTES), mac(payload))) return null;
  // Signed by us, so well formed; checked all the same, as a key leak must not reach the stores.
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [at, id] = value;
  if (typeof at !== 'string' || typeof id !== 'string' || !UUID_RE.test(id) || id !== id.toLowerCase()) return null;
  const instant = parseIsoInstant(at);
  if (!instant || instant.bare || !inSupportedSpan(instant.ms) || new Date(instant.ms).toISOString() !== at)
    return null;
  return { at, id };
}
