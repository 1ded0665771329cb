// Query and body parameter schemas shared by the operations. Every error message names the
// parameter, because it is what the client sees in {"error": ...}.
import { z } from 'zod';
import { UUID_RE } from '../uuid.ts';

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

const isMissing = (v: unknown) => v === undefined || v === null || v === '';

/** A required UUID. Missing: `<name> is required`; malformed: `<name> must be a UUID`. */
export function uuid(name: string) {
  return z.preprocess(
    (v) => (isMissing(v) ? undefined : v),
    z.string({ error: (iss) => (iss.input === undefined ? `${name} is required` : `${name} must be a UUID`) })
      .regex(UUID_RE, `${name} must be a UUID`)
      .transform((s) => s.toLowerCase()),
  ).describe('A UUID');
}

export function optionalUuid(name: string) {
  return z.preprocess(
    (v) => (isMissing(v) ? undefined : v),
    z.string({ error: `${name} must be a UUID` }).regex(UUID_RE, `${name} must be a UUID`)
      .transform((s) => s.toLowerCase()).optional(),
  ).describe('A UUID');
}

// The descriptions below reach MCP clients as JSON Schema `description`s, so they are written for
// a model choosing argument values; an operation may override one with its own `.describe()`.
export const brandId = uuid('brand_id').describe('The brand (UUID), as returned by list_brands');

/** A required non-empty string. */
export function text(name: string, max = 2000) {
  return z.preprocess(
    (v) => (isMissing(v) ? undefined : v),
    z.string({ error: (iss) => (iss.input === undefined ? `${name} is required` : `${name} must be a string`) })
      .max(max, `${name} must be at most ${max} characters`),
  );
}

export function optionalText(name: string, max = 200) {
  return z.preprocess(
    (v) => (isMissing(v) ? undefined : v),
    z.string({ error: `${name} must be a string` }).max(max, `${name} must be at most ${max} characters`).optional(),
  );
}

/**
 * A date bound: `YYYY-MM-DD` (UTC) or a full ISO 8601 timestamp. A bare date as the upper bound
 * means the whole day, through 23:59:59.999 UTC.
 */
export function dateBound(name: string, end: boolean) {
  return z.preprocess(
    (v) => (isMissing(v) ? undefined : v),
    z.string({ error: `${name} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp` })
      .transform((s, ctx) => {
        const bare = DATE_RE.test(s);
        const iso = bare ? `${s}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : s;
        const d = new Date(iso);
        const looksIso = bare || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(s);
        // Date accepts 2026-02-31 by rolling over; a round trip of the date part rejects it.
        if (!looksIso || Number.isNaN(d.getTime()) || (bare && d.toISOString().slice(0, 10) !== s)) {
          ctx.addIssue({ code: 'custom', message: `${name} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp` });
          return z.NEVER;
        }
        return d;
      })
      .optional(),
  ).describe(end
    ? 'End of the period, inclusive: YYYY-MM-DD (through the end of that UTC day) or an ISO 8601 timestamp'
    : 'Start of the period, inclusive: YYYY-MM-DD (from the start of that UTC day) or an ISO 8601 timestamp');
}

export const dateRange = {
  date_from: dateBound('date_from', false),
  date_to: dateBound('date_to', true),
};

/** A row limit: absent gives the default, a number outside [min, max] is clamped, not refused. */
export function limit(min: number, max: number, fallback: number) {
  return z.preprocess(
    (v) => (isMissing(v) ? undefined : v),
    z.union([z.number(), z.string()], { error: 'limit must be an integer' })
      .transform((v, ctx) => {
        const n = typeof v === 'number' ? v : Number(v.trim());
        if (!Number.isFinite(n) || !Number.isInteger(n)) {
          ctx.addIssue({ code: 'custom', message: 'limit must be an integer' });
          return z.NEVER;
        }
        return Math.min(max, Math.max(min, n));
      })
      .optional()
      .transform((v) => v ?? fallback),
  ).describe(`Maximum number of rows: an integer from ${min} to ${max} (values outside are clamped), default ${fallback}`);
}

/** One of a fixed set of values; the message lists them. */
export function oneOf<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return z.preprocess(
    (v) => (isMissing(v) ? undefined : v),
    z.enum(values, { error: `${name} must be one of: ${values.join(', ')}` }),
  ).describe(`One of: ${values.join(', ')}`);
}

export function optionalOneOf<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return z.preprocess(
    (v) => (isMissing(v) ? undefined : v),
    z.enum(values, { error: `${name} must be one of: ${values.join(', ')}` }).optional(),
  ).describe(`One of: ${values.join(', ')}`);
}

/** `true` / `false`. */
export function optionalBool(name: string) {
  return z.preprocess(
    (v) => (isMissing(v) ? undefined : v === true || v === 'true' ? true : v === false || v === 'false' ? false : v),
    z.boolean({ error: `${name} must be true or false` }).optional(),
  ).describe('true or false');
}

/** A comma-separated list, e.g. `model=gpt-4o,sonar`. Empty items are dropped. */
export function commaList(name: string) {
  return z.preprocess(
    (v) => (isMissing(v) ? undefined : v),
    z.union([z.string(), z.array(z.string())], { error: `${name} must be a comma-separated list` })
      .transform((v) => (Array.isArray(v) ? v.join(',') : v).split(',').map((s) => s.trim()).filter(Boolean))
      .optional(),
  ).describe('A comma-separated list (an array of strings works too)');
}

export const filters = {
  ...dateRange,
  model: commaList('model'),
  region: optionalText('region', 64).describe('Region code, e.g. US'),
};
