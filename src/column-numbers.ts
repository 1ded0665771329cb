// Numbers the service accepts, each bounded by the store column it lands in. A number past its
// column's range passes a bare "non-negative integer" check and then fails the insert, which loses
// a whole batch with a 500 (a forwarder that retries on 5xx then resends it forever); checked here,
// it is a 400 naming the field. The ranges are the column types', declared once; a field whose own
// rule is narrower (an HTTP status, a percentage) narrows its column's range with `within`.
import { z } from 'zod';

export interface NumberColumn {
  integer: boolean;
  min: number;
  max: number;
}

/** ClickHouse UInt16 (answers' citation and product counts, a card's position, an HTTP status). */
export const UINT16: NumberColumn = { integer: true, min: 0, max: 65_535 };
/** ClickHouse UInt32 (a card's review count). */
export const UINT32: NumberColumn = { integer: true, min: 0, max: 4_294_967_295 };
/** ClickHouse UInt64 (bytes sent), as far as a JSON number is exact: 2^53 - 1. */
export const UINT64: NumberColumn = { integer: true, min: 0, max: Number.MAX_SAFE_INTEGER };
/** Postgres `integer` (keyword volumes, quota overrides). */
export const INT32: NumberColumn = { integer: true, min: -2_147_483_648, max: 2_147_483_647 };
/** ClickHouse Float64 and Postgres `double precision`: any finite number (JSON's 1e400 reads as Infinity). */
export const FLOAT64: NumberColumn = { integer: false, min: -Number.MAX_VALUE, max: Number.MAX_VALUE };

/** The column's range narrowed to [min, max] (each end kept inside the column's). */
export function within(column: NumberColumn, min: number, max = column.max): NumberColumn {
  return { integer: column.integer, min: Math.max(min, column.min), max: Math.min(max, column.max) };
}

/** "must be an integer from 0 to 65535", "must be a finite number of 0 or more", ... */
export function rangeMessage(c: NumberColumn): string {
  if (c.integer) return `must be an integer from ${c.min} to ${c.max}`;
  const low = c.min > -Number.MAX_VALUE;
  const high = c.max < Number.MAX_VALUE;
  if (low && high) return `must be a number from ${c.min} to ${c.max}`;
  if (low) return `must be a finite number of ${c.min} or more`;
  if (high) return `must be a finite number of ${c.max} or less`;
  return 'must be a finite number';
}

/** Whether `v` is a number (not a numeric string) the column holds. */
export function fitsColumn(v: unknown, c: NumberColumn): v is number {
  return (
    typeof v === 'number' && Number.isFinite(v) && v >= c.min && v <= c.max && (!c.integer || Number.isSafeInteger(v))
  );
}

/**
 * A zod number the column holds, refused otherwise with the range in words: `name` starts the
 * message where the schema's messages name their field themselves ("volume must be ..."); without
 * it the caller's path names the field ("products.0.review_count: must be ...").
 */
export function columnNumber(c: NumberColumn, name?: string) {
  const message = name ? `${name} ${rangeMessage(c)}` : rangeMessage(c);
  return z.custom<number>((v) => fitsColumn(v, c), { error: message });
}
