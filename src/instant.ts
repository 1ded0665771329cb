// Strict reading of ISO 8601 days and instants. `new Date()` accepts 2026-02-30 as March 2 and years
// far outside what the stores hold (ClickHouse's DateTime64 ends in 2299, Date in 275760); here every
// field is checked against the calendar, so nothing rolls over, and the caller checks the range.

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** The span every date parameter and stored answer must fall in (docs/api.md section 9). */
export const EARLIEST = Date.UTC(2000, 0, 1);
/** The first instant after 2099-12-31. */
export const AFTER_LATEST = Date.UTC(2100, 0, 1);

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

export interface ParsedInstant {
  /** Milliseconds since the epoch. */
  ms: number;
  /** A bare `YYYY-MM-DD` (no time part). */
  bare: boolean;
}

/**
 * `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z` or an offset (`+05:30`, `-0800`), read as
 * the instant it names; a bare day reads as its start in UTC. Null when it is not a real day or time.
 */
export function parseIsoInstant(s: string): ParsedInstant | null {
  const m = ISO.exec(s);
  if (!m) return null;
  const [, y, mo, d, h, mi, sec, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (h === undefined) return { ms: Date.UTC(year, month - 1, day), bare: true };
  const hour = Number(h);
  const minute = Number(mi);
  const second = sec === undefined ? 0 : Number(sec);
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMin = 0;
  if (zone !== 'Z') {
    const digits = zone.replace(':', '');
    const oh = Number(digits.slice(1, 3));
    const om = Number(digits.slice(3, 5));
    if (oh > 23 || om > 59) return null;
    offsetMin = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  // Digits, not a float: Number('0.57') * 1000 is not exactly 570 for every fraction.
  const millis = frac === undefined ? 0 : Number(frac.padEnd(3, '0').slice(0, 3));
  return { ms: Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMin * 60_000, bare: false };
}

/** Within 2000-01-01 .. 2099-12-31 (UTC). */
export const inSupportedSpan = (ms: number) => ms >= EARLIEST && ms < AFTER_LATEST;

/** Milliseconds in a UTC day (days here never have leap seconds, as in JavaScript and ClickHouse). */
export const DAY_MS = 86_400_000;

/** The UTC day (`YYYY-MM-DD`) an instant falls on: a Date or milliseconds since the epoch. */
export const isoDay = (t: Date | number) => new Date(t).toISOString().slice(0, 10);

/** The day `n` days after a `YYYY-MM-DD` day (before it, when `n` is negative). */
export const addDays = (day: string, n: number) => isoDay(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);
