// One line of an answer file (docs/api.md sections 5 and 9), validated. A line that fails is rejected
// with its line number and the first problem, named by field.
import { z } from 'zod';
import type { AnswerInput } from '../types.ts';
import { PLATFORMS } from '../../tenancy/tracked.ts';
import { UUID_RE } from '../../uuid.ts';
import { DAY_MS, EARLIEST, parseIsoInstant } from '../../instant.ts';
import { fitsColumn, FLOAT64, type NumberColumn, rangeMessage, UINT16, UINT32 } from '../../column-numbers.ts';

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

const NOT_A_DATE = 'is not a valid date';
const OUT_OF_RANGE = 'must be from 2000-01-01T00:00:00Z to one day after now';
const NOT_AN_OBJECT = 'line must be a JSON object';

/**
 * Bounds of search_queries: platforms run a handful of searches per answer (Gemini and ChatGPT a few,
 * deep-research modes a few dozen); beyond these a line is more likely garbage than fan-out.
 */
export const MAX_SEARCH_QUERIES = 100;
export const MAX_SEARCH_QUERY_LENGTH = 1000;

/**
 * The latest collected_at accepted when it is `now`, in epoch milliseconds: a day later, so a
 * capturing machine whose clock runs a little ahead (or a time zone ahead of UTC) is not refused.
 */
export function latestCollectedAt(now: Date): number {
  return now.getTime() + DAY_MS;
}

/**
 * The instant of a collected_at that matched ISO_TIMESTAMP, in epoch milliseconds, or why it is
 * refused: every field checked against the calendar (src/instant.ts), so nothing rolls over. One
 * check for the schema and the fast path, so the two cannot drift apart.
 */
function collectedAtInstant(s: string, latest: number): number | string {
  const parsed = parseIsoInstant(s);
  if (!parsed || parsed.bare) return NOT_A_DATE;
  return parsed.ms >= EARLIEST && parsed.ms <= latest ? parsed.ms : OUT_OF_RANGE;
}

/** A number the column holds, or text read leniently later; absent or null allowed. */
const numberOrText = (c: NumberColumn) =>
  z
    .custom<number | string>((v) => typeof v === 'string' || fitsColumn(v, c), { error: `${rangeMessage(c)}, or text` })
    .nullish();

/**
 * A product of a shopping answer: free-form (scrapers' shapes differ; `raw` keeps it as sent), but a
 * field read as a number must fit the shopping_cards column it lands in when it is a JSON number
 * (strings such as "1.2k" are read leniently, docs/analysis.md). JSON's 1e400 reads as Infinity.
 */
const product = z.looseObject({
  position: numberOrText(UINT16),
  price: numberOrText(FLOAT64),
  rating: numberOrText(FLOAT64),
  review_count: numberOrText(UINT32),
});

const uuid = z
  .string()
  .regex(UUID_RE, 'must be a UUID')
  .transform((s) => s.toLowerCase());

/** The schema of a line whose collected_at may be no later than `latest` (see latestCollectedAt). */
export function answerLineSchema(latest: number) {
  return z.object({
    id: uuid.optional(),
    prompt_id: uuid,
    platform: z.enum(PLATFORMS, { error: `must be one of: ${PLATFORMS.join(', ')}` }),
    model: z.string().trim().max(200).default(''),
    region: z.string().trim().max(64).default(''),
    mode: z.enum(['standard', 'shopping']).default('standard'),
    collected_at: z
      .string()
      .regex(ISO_TIMESTAMP, 'must be an ISO 8601 timestamp with a time zone')
      .transform((s, ctx) => {
        const at = collectedAtInstant(s, latest);
        if (typeof at === 'number') return new Date(at).toISOString();
        ctx.issues.push({ code: 'custom', message: at, input: s });
        return z.NEVER;
      }),
    text: z.string().max(1_000_000),
    citations: z
      .array(z.object({ url: z.string().max(8192), title: z.string().max(2000).nullish() }).passthrough())
      .max(1000)
      .default([]),
    products: z.array(product).max(500).default([]),
    // Unknown (absent or null) stays apart from [] (answered without searching): docs/api.md section 12.
    search_queries: z
      .array(
        z
          .string()
          .trim()
          .min(1, 'must not be empty')
          .max(MAX_SEARCH_QUERY_LENGTH, `must be at most ${MAX_SEARCH_QUERY_LENGTH} characters`),
      )
      .max(MAX_SEARCH_QUERIES, `accepts at most ${MAX_SEARCH_QUERIES} queries`)
      .nullish(),
  });
}

type AnswerLineSchema = ReturnType<typeof answerLineSchema>;
/** The schema of the last bound asked for: an ingest run validates all its lines with one bound. */
let lastSchema: { latest: number; schema: AnswerLineSchema } | undefined;

function schemaUntil(latest: number): AnswerLineSchema {
  if (lastSchema?.latest !== latest) lastSchema = { latest, schema: answerLineSchema(latest) };
  return lastSchema.schema;
}

export type ValidAnswer = AnswerInput & { collected_at: string };

const PLATFORM_SET: ReadonlySet<unknown> = new Set(PLATFORMS);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalText = (v: unknown, max: number) => v === undefined || (typeof v === 'string' && v.trim().length <= max);

/** search_queries as the schema returns them (trimmed), or undefined when the schema must decide. */
function plainQueries(v: unknown): string[] | null | undefined {
  if (v === null) return null;
  if (!Array.isArray(v) || v.length > MAX_SEARCH_QUERIES) return undefined;
  const out: string[] = [];
  for (const q of v) {
    if (typeof q !== 'string') return undefined;
    const trimmed = q.trim();
    if (!trimmed || trimmed.length > MAX_SEARCH_QUERY_LENGTH) return undefined;
    out.push(trimmed);
  }
  return out;
}

/**
 * What the schema makes of an answer that plainly passes it (every answer of a well-formed file),
 * checked by hand: several times cheaper than the schema, which ingestion runs a million times.
 * Anything unusual (products, a rule broken, an odd type) returns null, and the schema decides and
 * names the problem. It accepts nothing the schema refuses and returns what the schema would.
 * Exported for the test that holds it to the schema.
 */
export function plainlyValid(v: unknown, latest: number): ValidAnswer | null {
  if (!isObject(v)) return null;
  const { id, prompt_id, platform, model, region, mode, collected_at, text, citations, products, search_queries } = v;
  if (id !== undefined && !(typeof id === 'string' && UUID_RE.test(id))) return null;
  if (typeof prompt_id !== 'string' || !UUID_RE.test(prompt_id)) return null;
  if (!PLATFORM_SET.has(platform)) return null;
  if (!optionalText(model, 200) || !optionalText(region, 64)) return null;
  if (mode !== undefined && mode !== 'standard' && mode !== 'shopping') return null;
  if (typeof collected_at !== 'string' || !ISO_TIMESTAMP.test(collected_at)) return null;
  const at = collectedAtInstant(collected_at, latest);
  if (typeof at !== 'number') return null;
  if (typeof text !== 'string' || text.length > 1_000_000) return null;
  if (products !== undefined && !(Array.isArray(products) && products.length === 0)) return null;
  if (citations !== undefined) {
    if (!Array.isArray(citations) || citations.length > 1000) return null;
    for (const c of citations) {
      if (!isObject(c) || typeof c.url !== 'string' || c.url.length > 8192) return null;
      const title = c.title;
      if (title !== undefined && title !== null && !(typeof title === 'string' && title.length <= 2000)) return null;
    }
  }
  const queries = search_queries === undefined ? undefined : plainQueries(search_queries);
  if (search_queries !== undefined && queries === undefined) return null;
  // Filled in on an empty object, not written as one object literal. V8 counts how many objects of
  // a literal outlive a young collection; an ingest worker's first chunk keeps all its answers (they
  // wait for their prompts), so V8 then allocated every later answer straight in the old generation,
  // and each such answer kept its parsed line (text, citations) alive through the next young
  // collection, which moved it to the old generation too. An empty object is allocated without
  // that count: the workers of `bench/ingest.ts 300000` promoted 151 MB each instead of 264-302 MB
  // (commit d06cdeb).
  const answer = {} as ValidAnswer;
  answer.prompt_id = prompt_id.toLowerCase();
  answer.platform = platform as ValidAnswer['platform'];
  answer.model = typeof model === 'string' ? model.trim() : '';
  answer.region = typeof region === 'string' ? region.trim() : '';
  answer.mode = (mode ?? 'standard') as ValidAnswer['mode'];
  answer.collected_at = new Date(at).toISOString();
  answer.text = text;
  // The schema copies each citation with all its keys; nothing downstream changes them, so sharing
  // them is the same.
  answer.citations = (citations ?? []) as ValidAnswer['citations'];
  answer.products = [];
  if (id !== undefined) answer.id = id.toLowerCase();
  else if ('id' in v) answer.id = undefined; // as the schema keeps a key given as undefined
  if ('search_queries' in v) answer.search_queries = queries; // a key given as undefined is kept, as for id
  return answer;
}

/**
 * The validated answer, or the reason it is refused ("platform: must be one of ..."). `latest` is
 * the latest collected_at accepted (see latestCollectedAt); by default one day after this moment.
 */
export function validateAnswer(
  value: unknown,
  latest = latestCollectedAt(new Date()),
): { ok: true; answer: ValidAnswer } | { ok: false; error: string } {
  const plain = plainlyValid(value, latest);
  if (plain) return { ok: true, answer: plain };
  // Said plainly: the schema would name no field for an array, a number or null.
  if (!isObject(value)) return { ok: false, error: NOT_AN_OBJECT };
  // zod leaves the input out of its issues unless asked: it tells a missing field from a wrong-typed one.
  const parsed = schemaUntil(latest).safeParse(value, { reportInput: true });
  if (parsed.success) return { ok: true, answer: parsed.data as ValidAnswer };
  const issue = parsed.error.issues[0];
  const field = issue.path.join('.') || 'line';
  const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
  return { ok: false, error: `${field}: ${message}` };
}
