// One line of an answer file (CONTRACT.md section 5), validated. A line that fails is rejected
// with its line number and the first problem, named by field.
import { z } from 'zod';
import { PLATFORMS, type AnswerInput } from './types.ts';
import { UUID_RE } from '../uuid.ts';

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

const uuid = z.string().regex(UUID_RE, 'must be a UUID')
  .transform((s) => s.toLowerCase());

export const answerLineSchema = z.object({
  id: uuid.optional(),
  prompt_id: uuid,
  platform: z.enum(PLATFORMS, { error: `must be one of: ${PLATFORMS.join(', ')}` }),
  model: z.string().trim().max(200).default(''),
  region: z.string().trim().max(64).default(''),
  mode: z.enum(['standard', 'shopping']).default('standard'),
  collected_at: z.string().regex(ISO_TIMESTAMP, 'must be an ISO 8601 timestamp with a time zone')
    .refine((s) => !Number.isNaN(Date.parse(s)), 'is not a valid date')
    .transform((s) => new Date(s).toISOString()),
  text: z.string().max(1_000_000),
  citations: z.array(z.object({ url: z.string().max(8192), title: z.string().max(2000).nullish() }).passthrough()).max(1000).default([]),
  products: z.array(z.record(z.string(), z.unknown())).max(500).default([]),
});

export type ValidAnswer = AnswerInput & { collected_at: string };

const PLATFORM_SET: ReadonlySet<unknown> = new Set(PLATFORMS);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalText = (v: unknown, max: number) => v === undefined || (typeof v === 'string' && v.trim().length <= max);

/**
 * What the schema makes of an answer that plainly passes it (every answer of a well-formed file),
 * checked by hand: several times cheaper than the schema, which ingestion runs a million times.
 * Anything unusual (products, a rule broken, an odd type) returns null, and the schema decides and
 * names the problem. It accepts nothing the schema refuses and returns what the schema would.
 */
function plainlyValid(v: unknown): ValidAnswer | null {
  if (!isObject(v)) return null;
  const { id, prompt_id, platform, model, region, mode, collected_at, text, citations, products } = v;
  if (id !== undefined && !(typeof id === 'string' && UUID_RE.test(id))) return null;
  if (typeof prompt_id !== 'string' || !UUID_RE.test(prompt_id)) return null;
  if (!PLATFORM_SET.has(platform)) return null;
  if (!optionalText(model, 200) || !optionalText(region, 64)) return null;
  if (mode !== undefined && mode !== 'standard' && mode !== 'shopping') return null;
  if (typeof collected_at !== 'string' || !ISO_TIMESTAMP.test(collected_at) || Number.isNaN(Date.parse(collected_at))) return null;
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
  const answer: ValidAnswer = {
    prompt_id: prompt_id.toLowerCase(),
    platform: platform as ValidAnswer['platform'],
    model: typeof model === 'string' ? model.trim() : '',
    region: typeof region === 'string' ? region.trim() : '',
    mode: mode ?? 'standard',
    collected_at: new Date(collected_at).toISOString(),
    text,
    // The schema copies each citation with all its keys; nothing downstream changes them, so
    // sharing them is the same.
    citations: (citations ?? []) as ValidAnswer['citations'],
    products: [],
  };
  if (id !== undefined) answer.id = id.toLowerCase();
  else if ('id' in v) answer.id = undefined; // as the schema keeps a key given as undefined
  return answer;
}

/** The validated answer, or the reason it is refused ("platform: must be one of ..."). */
export function validateAnswer(value: unknown): { ok: true; answer: ValidAnswer } | { ok: false; error: string } {
  const plain = plainlyValid(value);
  if (plain) return { ok: true, answer: plain };
  const parsed = answerLineSchema.safeParse(value);
  if (parsed.success) return { ok: true, answer: parsed.data as ValidAnswer };
  const issue = parsed.error.issues[0];
  const field = issue.path.join('.') || 'line';
  const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
  return { ok: false, error: `${field}: ${message}` };
}
