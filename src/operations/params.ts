// Query and body parameter schemas shared by the operations. Every error message names the
// parameter, because it is what the client sees in {"error": ...}.
import { z } from 'zod';
import { UUID_RE } from '../uuid.ts';
import { PROMPT_NOT_FOUND, TOPIC_NOT_FOUND } from '../tenancy/prompts.ts';
import { SOURCE_SLUG } from '../tracking/types.ts';
import { DAY_MS, inSupportedSpan, parseIsoInstant } from '../instant.ts';
import { decodeCursor, INVALID_CURSOR, MAX_CURSOR_LENGTH } from '../cursor.ts';

/** Absent as a query string, a form or JSON may say it: the parameter takes its default, or is required. */
export const isMissing = (v: unknown) => v === undefined || v === null || v === '';

/** A required UUID. Missing: `<name> is required`; malformed: `<name> must be a UUID`. */
export function uuid(name: string) {
  return z
    .preprocess(
      (v) => (isMissing(v) ? undefined : v),
      z
        .string({ error: (iss) => (iss.input === undefined ? `${name} is required` : `${name} must be a UUID`) })
        .max(36, `${name} must be a UUID`)
        .regex(UUID_RE, `${name} must be a UUID`)
        .transform((s) => s.toLowerCase()),
    )
    .describe('A UUID');
}

export function optionalUuid(name: string) {
  return z
    .preprocess(
      (v) => (isMissing(v) ? undefined : v),
      z
        .string({ error: `${name} must be a UUID` })
        .max(36, `${name} must be a UUID`)
        .regex(UUID_RE, `${name} must be a UUID`)
        .transform((s) => s.toLowerCase())
        .optional(),
    )
    .describe('A UUID');
}

/**
 * The `:id` of a path (`argument` is its MCP name, e.g. `opportunity_id`). Any string up to 100
 * characters: a malformed one names no resource, so it is the resource's 404, decided by the store
 * function, which looks up only well-formed UUIDs.
 */
export function pathId(argument: string) {
  return z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.string({ error: `${argument} must be a string` }).max(100, `${argument} must be at most 100 characters`),
  );
}

// The descriptions below reach MCP clients as JSON Schema `description`s, so they are written for
// a model choosing argument values; an operation may override one with its own `.describe()`.
export const brandId = uuid('brand_id').describe('The brand (UUID), as returned by list_brands');

/** The 404 of a `topic_id` filter naming a topic that is not the brand's (src/tenancy/prompts.ts). */
export const topicNotFound = { status: 404, message: TOPIC_NOT_FOUND } as const;
export const promptNotFound = { status: 404, message: PROMPT_NOT_FOUND } as const;

/** A required non-empty string. */
export function text(name: string, max = 2000) {
  return z.preprocess(
    (v) => (isMissing(v) ? undefined : v),
    z
      .string({ error: (iss) => (iss.input === undefined ? `${name} is required` : `${name} must be a string`) })
      .max(max, `${name} must be at most ${max} characters`),
  );
}

export function optionalText(name: string, max = 200) {
  return z.preprocess(
    (v) => (isMissing(v) ? undefined : v),
    z
      .string({ error: `${name} must be a string` })
      .max(max, `${name} must be at most ${max} characters`)
      .optional(),
  );
}

/**
 * A required absolute URL (trimmed, at most 2048 characters); `problem` says what else is wrong
 * with it (its message names the parameter), or nothing.
 */
export function requiredUrl(name: string, problem: (url: string) => string | undefined) {
  return z.preprocess(
    (v) =>
      isMissing(v) || (typeof v === 'string' && v.trim() === '') ? undefined : typeof v === 'string' ? v.trim() : v,
    z
      .string({ error: (iss) => (iss.input === undefined ? `${name} is required` : `${name} must be a string`) })
      .max(2048, `${name} must be at most 2048 characters`)
      .superRefine((s, ctx) => {
        const message = problem(s);
        if (message) ctx.addIssue({ code: 'custom', message });
      }),
  );
}

/** The longest date parameter a client can mean: `2026-11-01T06:00:00.123456789+05:30` is 35. */
const DATE_MAX_LENGTH = 40;

/**
 * A date bound: `YYYY-MM-DD` (UTC) or a full ISO 8601 timestamp, naming a real day or instant from
 * 2000-01-01 to 2099-12-31 (docs/api.md section 9). A bare date as the upper bound means the whole
 * day, through 23:59:59.999 UTC.
 */
export function dateBound(name: string, end: boolean) {
  const malformed = `${name} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp`;
  return z
    .preprocess(
      (v) => (isMissing(v) ? undefined : v),
      z
        .string({ error: malformed })
        .max(DATE_MAX_LENGTH, malformed)
        .transform((s, ctx) => {
          const parsed = parseIsoInstant(s);
          if (!parsed) {
            ctx.addIssue({ code: 'custom', message: malformed });
            return z.NEVER;
          }
          const ms = parsed.bare && end ? parsed.ms + DAY_MS - 1 : parsed.ms;
          if (!inSupportedSpan(ms)) {
            ctx.addIssue({ code: 'custom', message: `${name} must be between 2000-01-01 and 2099-12-31` });
            return z.NEVER;
          }
          return new Date(ms);
        })
        .optional(),
    )
    .describe(
      end
        ? 'End of the period, inclusive: YYYY-MM-DD (through the end of that UTC day) or an ISO 8601 timestamp, ' +
            'from 2000-01-01 to 2099-12-31'
        : 'Start of the period, inclusive: YYYY-MM-DD (from the start of that UTC day) or an ISO 8601 timestamp, ' +
            'from 2000-01-01 to 2099-12-31',
    );
}

export const dateRange = {
  date_from: dateBound('date_from', false),
  date_to: dateBound('date_to', true),
};

/** A row limit: absent gives the default, a number outside [min, max] is clamped, not refused. */
export function limit(min: number, max: number, fallback: number) {
  return z
    .preprocess(
      (v) => (isMissing(v) ? undefined : v),
      z
        .union([z.number(), z.string().max(20)], { error: 'limit must be an integer' })
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
    )
    .describe(
      `Maximum number of rows: an integer from ${min} to ${max} (values outside are clamped), default ${fallback}`,
    );
}

/** One of a fixed set of values; the message lists them. */
export function oneOf<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return z
    .preprocess(
      (v) => (isMissing(v) ? undefined : v),
      z.enum(values, { error: `${name} must be one of: ${values.join(', ')}` }),
    )
    .describe(`One of: ${values.join(', ')}`);
}

export function optionalOneOf<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return z
    .preprocess(
      (v) => (isMissing(v) ? undefined : v),
      z.enum(values, { error: `${name} must be one of: ${values.join(', ')}` }).optional(),
    )
    .describe(`One of: ${values.join(', ')}`);
}

/** `true` / `false`. */
export function optionalBool(name: string) {
  return z
    .preprocess(
      (v) => (isMissing(v) ? undefined : v === true || v === 'true' ? true : v === false || v === 'false' ? false : v),
      z.boolean({ error: `${name} must be true or false` }).optional(),
    )
    .describe('true or false');
}

/** `cursor`: the `next_cursor` of the previous page, decoded; one the service did not issue is a 400. */
export function cursor() {
  return z
    .preprocess(
      (v) => (isMissing(v) ? undefined : v),
      z
        .string({ error: INVALID_CURSOR })
        .max(MAX_CURSOR_LENGTH, INVALID_CURSOR)
        .transform((s, ctx) => {
          const decoded = decodeCursor(s);
          if (!decoded) {
            ctx.addIssue({ code: 'custom', message: INVALID_CURSOR });
            return z.NEVER;
          }
          return decoded;
        })
        .optional(),
    )
    .describe('next_cursor of the previous page; omit for the first page');
}

/** Bounds of every list parameter (docs/api.md section 9): a long list is one slow scan for everyone. */
export const LIST_MAX_ITEMS = 50;
export const LIST_ITEM_MAX_LENGTH = 128;
/** The longest comma-separated form of a list within the bounds. */
const LIST_MAX_LENGTH = LIST_MAX_ITEMS * (LIST_ITEM_MAX_LENGTH + 1) - 1;

/**
 * A comma-separated list, e.g. `model=gpt-4o,sonar`, or an array of strings. Empty items are dropped;
 * at most 50 values of at most 128 characters each. The bounds are checked before anything is split,
 * so a megabyte of commas costs no more than a short list.
 */
export function commaList(name: string) {
  const tooMany = `${name} accepts at most ${LIST_MAX_ITEMS} values`;
  const tooLong = `${name} values must be at most ${LIST_ITEM_MAX_LENGTH} characters`;
  return z
    .preprocess(
      (v, ctx) => {
        if (isMissing(v)) return undefined;
        const strings = typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
        if (!strings) {
          ctx.addIssue({ code: 'custom', message: `${name} must be a comma-separated list` });
          return z.NEVER;
        }
        const raw = v as string | string[];
        // Longer than the longest list within the bounds: refused before it is joined or split.
        if (raw.length > LIST_MAX_LENGTH) {
          ctx.addIssue({ code: 'custom', message: tooMany });
          return z.NEVER;
        }
        const items = (Array.isArray(raw) ? raw.join(',') : raw)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const problem =
          items.length > LIST_MAX_ITEMS ? tooMany : items.some((s) => s.length > LIST_ITEM_MAX_LENGTH) ? tooLong : '';
        if (problem) {
          ctx.addIssue({ code: 'custom', message: problem });
          return z.NEVER;
        }
        return items;
      },
      // What a client may send, for the JSON Schemas; the checks above have already passed.
      z
        .union([z.string().max(LIST_MAX_LENGTH), z.array(z.string().max(LIST_ITEM_MAX_LENGTH)).max(LIST_MAX_ITEMS)])
        .transform((v) => v as string[])
        .optional(),
    )
    .describe(
      `A comma-separated list (an array of strings works too): at most ${LIST_MAX_ITEMS} values of at most ` +
        `${LIST_ITEM_MAX_LENGTH} characters`,
    );
}

export const SOURCE_INVALID =
  'source must be capture, import or the lower-case name answers were imported under (import-tracker --format)';

export const SOURCE_UNKNOWN = 'source names no tracker the brand imported answers from (import-tracker --format)';
/** The 400 of a `source` naming a tracker no import of the brand used (operations/analytics-filters.ts). */
export const sourceUnknown = { status: 400, message: SOURCE_UNKNOWN } as const;

/**
 * `source`: only the answers of one source (docs/metrics.md "Provenance"). Absent: Answerscope's own
 * (capture and import); a tracker's name: the answers imported from it, which no figure counts
 * otherwise. A name no import of the brand used is a 400 (analytics-filters.ts).
 */
export const sourceFilter = z
  .preprocess(
    (v) => (isMissing(v) ? undefined : v),
    z.string({ error: SOURCE_INVALID }).max(40, SOURCE_INVALID).regex(SOURCE_SLUG, SOURCE_INVALID).optional(),
  )
  .describe(
    "Only answers of this source: capture (Answerscope's captures), import (answer files) or the name of " +
      'another tracker they were imported from; default capture and import',
  );

/** The filters of a figure (get_visibility_summary's): the brand, the dates, models, a region and a source. */
export const figureFilters = {
  brand_id: brandId,
  ...dateRange,
  model: commaList('model').describe('Comma-separated model_used values, as returned by get_competitor_comparison'),
  region: optionalText('region', 64).describe('Region code, e.g. US'),
  source: sourceFilter,
};

/** The figure filters and a topic (404 `Topic not found` when it is not the brand's). */
export const topicFilters = {
  ...figureFilters,
  topic_id: optionalUuid('topic_id').describe('Only answers to prompts of this topic (see list_topics)'),
};

/** A prompt filter (404 `Prompt not found` when it is not the brand's). */
export const promptFilter = optionalUuid('prompt_id').describe('Only answers to this prompt (see list_prompts)');
