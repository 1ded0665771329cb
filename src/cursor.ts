// The opaque paging cursor: base64url of the last row's (instant, id) in a list ordered newest
// first. Decoding is strict, down to the exact bytes the service writes, so a cursor the service did
// not issue (a bad instant, an id that is not a UUID, re-encoded JSON) is refused before any store
// sees it; it only says where a page starts, so nothing beyond its shape needs protecting.
import { UUID_RE } from './uuid.ts';
import { inSupportedSpan, parseIsoInstant } from './instant.ts';

export interface PageCursor {
  /** ISO 8601 instant of the last row of the previous page. */
  at: string;
  /** Its id (a lower-case UUID): the tie-breaker between rows of the same instant. */
  id: string;
}

export const INVALID_CURSOR = 'cursor is invalid';

export const encodeCursor = (c: PageCursor): string => Buffer.from(JSON.stringify([c.at, c.id])).toString('base64url');

/** The cursor, or null when the service cannot have issued it. */
export function decodeCursor(cursor: string): PageCursor | null {
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [at, id] = value;
  if (typeof at !== 'string' || typeof id !== 'string' || !UUID_RE.test(id) || id !== id.toLowerCase()) return null;
  const instant = parseIsoInstant(at);
  if (!instant || instant.bare || !inSupportedSpan(instant.ms) || new Date(instant.ms).toISOString() !== at)
    return null;
  const decoded = { at, id };
  return encodeCursor(decoded) === cursor ? decoded : null;
}
