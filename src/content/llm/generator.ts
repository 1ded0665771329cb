// What writes briefs and drafts: an OpenAI-compatible chat-completions endpoint when LLM_BASE_URL is
// set (openai.ts), else the built-in deterministic generator (builtin-brief.ts, builtin-draft.ts).
// Both get the same input: the opportunity, its tracking signals, the brand and the keywords.
import type { Config } from '../../config.ts';
import { ApiError } from '../../errors.ts';
import type { Brief, DraftBody } from '../schemas.ts';
import { builtinBrief } from './builtin-brief.ts';
import { builtinDraft } from './builtin-draft.ts';
import { OpenAiCompatibleGenerator } from './openai.ts';

export interface GenerationInput {
  brand: { name: string; domains: string[]; industry: string; region: string };
  opportunity: {
    id: string;
    type: 'owned' | 'earned';
    title: string;
    description: string;
    prompt_text: string;
    /** The signals the generate-opportunities job stored (opportunities.ts deriveCandidates). */
    source_data: SourceData;
  };
  /** The prompt's volume analysis, when analyze-volumes has run. */
  volumes?: { intent: string; keywords: string[]; google_volumes: { keyword: string; volume: number }[] };
}

/**
 * source_data as stored (JSON from the database): the fields facts.ts reads, each checked or
 * given a default there, and whatever else the job wrote.
 */
export interface SourceData {
  answers?: unknown;
  gap_answers?: unknown;
  brand?: { named?: unknown; cited?: unknown; visibility_score?: unknown; [key: string]: unknown };
  competitors?: unknown;
  citations?: { top_domains?: unknown; top_urls?: unknown; [key: string]: unknown };
  [key: string]: unknown;
}

export interface ContentGenerator {
  /** `builtin` or `llm`, for logs. */
  readonly kind: 'builtin' | 'llm';
  brief(input: GenerationInput): Promise<Brief>;
  draft(input: GenerationInput, brief: Brief): Promise<DraftBody>;
}

export const builtinGenerator: ContentGenerator = {
  kind: 'builtin',
  brief: async (input) => builtinBrief(input),
  draft: async (input, brief) => builtinDraft(input, brief),
};

/** The generator the configuration asks for. */
export function contentGenerator(config: Config): ContentGenerator {
  const { baseUrl, apiKey, model, timeoutMs } = config.llm;
  if (!baseUrl) return builtinGenerator;
  if (!model) throw new ApiError(500, 'LLM_MODEL must be set when LLM_BASE_URL is set');
  return new OpenAiCompatibleGenerator({ baseUrl, apiKey, model, timeoutMs });
}
