// The fields of a workspace's objects (brands, competitors, topics, prompts), as a workspace file
// and the API take them: one schema each, so `apply` and the operations accept and normalise the
// same values and refuse the same ones with the same words. Every message names the field.
import { z } from 'zod';
import { PLATFORMS, type Platform } from './tracked.ts';

/** At most this many values in a list field (domains, aliases, regions). */
const MAX_LIST = 50;

const typed = (name: string, type: string) => (iss: { input: unknown }) =>
  iss.input === undefined ? `${name} is required` : `${name} must be ${type}`;

/** A required, trimmed, non-empty string of at most `max` characters. */
export function requiredString(name: string, max = 200) {
  return plainString(name, max).min(1, `${name} must not be empty`);
}

/** A trimmed string that may be empty ('' when absent in a new object). */
export function plainString(name: string, max = 200) {
  return z
    .string({ error: typed(name, 'a string') })
    .trim()
    .max(max, `${name} must be at most ${max} characters`)
    .refine((s) => !s.includes('\0'), `${name} must not contain NUL characters` /* Postgres text cannot hold one */);
}

export const slug = z
  .string({ error: typed('slug', 'a string') })
  .trim()
  .max(64, 'slug must be at most 64 characters')
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'slug must be lower-case letters, digits and dashes');

/** The slug a brand gets when none is given: its name in lower case, other characters as dashes. */
export function slugOf(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return s || 'brand';
}

function stringList(name: string, item: z.ZodType<string>) {
  return z
    .array(item, { error: typed(name, 'a list of strings') })
    .max(MAX_LIST, `${name} accepts at most ${MAX_LIST} values`);
}

/** Bare domains, lower-cased, a leading `www.` dropped (an entity's domains match its sub-domains). */
export const domains = stringList(
  'domains',
  z
    .string({ error: 'domains must be a list of strings' })
    .trim()
    .toLowerCase()
    .max(253, 'domains values must be at most 253 characters')
    .regex(/^[a-z0-9.-]+\.[a-z0-9-]+$/, 'domains must be bare domains such as acme.example')
    .transform((d) => d.replace(/^www\./, '')),
);

export const aliases = stringList('aliases', requiredString('aliases', 200));

export const regions = stringList('regions', requiredString('regions', 64));

export const promptText = requiredString('text', 2000);

/**
 * Platform slugs (docs/workspace.md). An unknown value is refused by name; one the plan does
 * not track is kept (it is not captured, platforms_not_in_plan says so).
 */
export const platforms = z
  .array(z.string({ error: 'platforms must be a list of platform slugs' }), {
    error: typed('platforms', 'a list of platform slugs'),
  })
  .max(PLATFORMS.length * 2, `platforms accepts at most ${PLATFORMS.length * 2} values`)
  .superRefine((list, ctx) => {
    const i = list.findIndex((p) => !(PLATFORMS as readonly string[]).includes(p));
    if (i >= 0)
      ctx.addIssue({
        code: 'custom',
        path: [i],
        message: `Unknown platform ${JSON.stringify(list[i])}; platforms are ${PLATFORMS.join(', ')}`,
      });
  })
  .transform((list) => [...new Set(list)] as Platform[]);

/**
 * An object that refuses fields it does not know, naming them: `Unknown field: x` (`Unknown fields:
 * x, y`), or the message `refused` gives for a field it is worth saying more about.
 */
export function strictObject<T extends z.ZodRawShape>(shape: T, refused: Record<string, string> = {}) {
  return z.strictObject(shape, {
    error: (iss) => {
      if (iss.code !== 'unrecognized_keys') return undefined;
      const explained = iss.keys.find((k) => Object.hasOwn(refused, k));
      if (explained !== undefined) return refused[explained];
      return `Unknown field${iss.keys.length > 1 ? 's' : ''}: ${iss.keys.join(', ')}`;
    },
  });
}

/** Answers a day per (prompt, platform, region): brands.samples, min_samples and max_samples. */
const MAX_SAMPLES = 20;
const samplesField = (name: string) =>
  z
    .number({ error: typed(name, 'a whole number') })
    .int(`${name} must be a whole number from 1 to ${MAX_SAMPLES}`)
    .min(1, `${name} must be a whole number from 1 to ${MAX_SAMPLES}`)
    .max(MAX_SAMPLES, `${name} must be a whole number from 1 to ${MAX_SAMPLES}`);

/**
 * How a brand's daily capture samples (docs/metrics.md "Adaptive sampling"): `fixed` with
 * `samples` (absent: the server's TRACKING_SAMPLES), or `adaptive` with `min_samples` (default 1),
 * `max_samples` and `target_half_width` in points (default 5).
 */
export const sampling = z
  .discriminatedUnion(
    'mode',
    [
      strictObject({ mode: z.literal('fixed'), samples: samplesField('samples').optional() }),
      strictObject({
        mode: z.literal('adaptive'),
        min_samples: samplesField('min_samples').default(1),
        max_samples: samplesField('max_samples'),
        target_half_width: z
          .number({ error: typed('target_half_width', 'a number of points') })
          .gt(0, 'target_half_width must be more than 0 and at most 50 points')
          .max(50, 'target_half_width must be more than 0 and at most 50 points')
          .default(5),
      }),
    ],
    { error: () => "sampling's mode must be fixed or adaptive" },
  )
  .refine((s) => s.mode === 'fixed' || s.max_samples >= s.min_samples, {
    message: 'max_samples must be at least min_samples',
    path: ['max_samples'],
  });
export type Sampling = z.infer<typeof sampling>;
