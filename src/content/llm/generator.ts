// What writes briefs and drafts: an OpenAI-compatible chat-completions endpoint when LLM_BASE_URL is
// set (openai.ts), else the built-in deterministic generator (builtin-brief.ts, builtin-draft.ts).
// Both get the same input: the opportunity, its tracking signals, the brand and the keywords.
import type { Config } from '../../config.ts';
import { ApiError } from '../../errors.ts';
import { builtinBrief } from './builtin-brief.ts';
import { builtinDraft } from './builtin-draft.ts';
import { OpenAiCompatibleGenerator } from './openai.ts';
import type { ContentGenerator } from './generator-types.ts';

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
