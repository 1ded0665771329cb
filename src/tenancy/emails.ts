// Emails as people type them (docs/app.md, "People, organizations, keys and grants"): trimmed and
// compared case-insensitively; an internationalised domain is stored and shown in its ASCII
// (`xn--`) form, so one mailbox has one spelling. An email holding a control, zero-width or
// bidirectional-override character (NUL too) is refused as a 400 naming `email`: such characters
// make two addresses look alike on screen, and NUL cannot be stored at all.
import { domainToASCII } from 'node:url';
import { ApiError } from '../errors.ts';

/** Controls (NUL included), format characters (zero-width, bidi overrides and isolates), line separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/**
 * The blanks trimmed from either end: spaces (U+0020 and the other space separators), tab, CR and
 * LF. Not JavaScript's trim(), which also takes U+FEFF, U+2028 and U+2029 off the ends: an email
 * with one of those at either end would pass the invisible-character check below unseen.
 */
const ENDS = /^[\p{Zs}\t\n\r]+|[\p{Zs}\t\n\r]+$/gu;

/** `typed` without its surrounding blanks (ENDS). */
const trimEmail = (typed: string) => typed.replace(ENDS, '');
/** RFC 5321's bound on a forward path. */
const MAX_EMAIL_LENGTH = 254;

/** Text as typed with what cannot be shown taken out (to show a refused email back beside its field). */
export const printable = (text: string) => text.replace(INVISIBLE, '');

export const INVALID_EMAIL = 'Email must be an email address';
export const INVISIBLE_IN_EMAIL = 'Email must not contain control, zero-width or bidirectional characters';

/** The stored form of a typed email, or a 400 naming `email`. */
export function normaliseEmail(typed: string): string {
  const trimmed = trimEmail(typed);
  if (trimmed !== printable(trimmed)) throw new ApiError(400, INVISIBLE_IN_EMAIL, 'email');
  const at = trimmed.lastIndexOf('@');
  const domain = at > 0 ? domainToASCII(trimmed.slice(at + 1).toLowerCase()) : '';
  const email = `${trimmed.slice(0, at).toLowerCase()}@${domain}`;
  if (!domain || email.length > MAX_EMAIL_LENGTH || !EMAIL_RE.test(email)) {
    throw new ApiError(400, INVALID_EMAIL, 'email');
  }
  return email;
}

/**
 * The email as the sign-in throttle counts it: normalised when it is an address, else as typed
 * (trimmed, lower-cased, bounded), so a typo counts against the same entry every time. One with an
 * invisible character is still refused (400): it could not even be stored.
 */
export function throttleKey(typed: string): string {
  try {
    return normaliseEmail(typed);
  } catch (err) {
    if ((err as Error).message !== INVALID_EMAIL) throw err;
    return trimEmail(typed).toLowerCase().slice(0, 320);
  }
}
