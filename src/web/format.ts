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
