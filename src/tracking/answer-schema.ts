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

/** The validated answer, or the reason it is refused ("platform: must be one of ..."). */
export function validateAnswer(value: unknown): { ok: true; answer: ValidAnswer } | { ok: false; error: string } {
  const parsed = answerLineSchema.safeParse(value);
  if (parsed.success) return { ok: true, answer: parsed.data as ValidAnswer };
  const issue = parsed.error.issues[0];
  const field = issue.path.join('.') || 'line';
  const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
  return { ok: false, error: `${field}: ${message}` };
}
