// What a generator of briefs and drafts is given and what it offers, apart from the generators
// themselves (generator.ts chooses one), so each implementation depends on this and not on the choice.
import type { Brief, DraftBody } from '../schemas.ts';

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
