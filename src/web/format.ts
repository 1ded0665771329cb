// How the app writes dates and numbers: dates in the reader's locale, numbers exactly as the API
// gave them (the app rounds nothing of its own).

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return 'Never';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function day(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
}

export const limitText = (limit: number) => (limit < 0 ? 'unlimited' : String(limit));

export const figure = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : String(value);

/** A UTC day (YYYY-MM-DD) in the reader's words, as the UTC day it is wherever the reader is. */
export function utcDay(isoDay: string): string {
  return new Date(`${isoDay}T00:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
}
