// Briefs and drafts from an OpenAI-compatible chat-completions endpoint (LLM_BASE_URL, e.g.
// https://api.openai.com/v1, or a local server that speaks the same API), through the shared call
// of src/runtime/chat-completions.ts: one JSON object matching the zod schema, validated, and an
// attempt that fails (timeout, network error, 408/429/5xx, malformed or invalid JSON) retried once.
import { z } from 'zod';
import { chatJson, type ChatEndpoint, type ChatMessage } from '../../runtime/chat-completions.ts';
import { Brief, DraftBody } from '../schemas.ts';
import type { ContentGenerator, GenerationInput } from './generator-types.ts';
import { factsOf } from './facts.ts';

export type OpenAiOptions = ChatEndpoint;

/** The model gave no valid output after its attempts (the caller gives the quota unit back). */
export class GenerationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GenerationError';
  }
}

const SYSTEM = `You are a content strategist who writes for brands that want to be recommended by AI assistants.
Use only the facts given in the request. Never invent product facts (prices, features, customers, figures):
where one is needed and not given, write a short editor note in square brackets, e.g. [Editor: add the price of the starter plan].
Answer with exactly one JSON object that matches the JSON Schema given, and nothing else.`;

/** The tracking facts the model may use, as compact JSON. */
function factsMessage(input: GenerationInput): string {
  const f = factsOf(input);
  return JSON.stringify({
    brand: {
      name: input.brand.name,
      domains: input.brand.domains,
      industry: input.brand.industry,
      region: input.brand.region,
    },
    opportunity: {
      type: input.opportunity.type,
      title: input.opportunity.title,
      description: input.opportunity.description,
    },
    prompt: f.prompt,
    tracked_answers: f.answers,
    answers_naming_competitors_but_not_brand: f.gapAnswers,
    brand_presence: { named: f.brandNamed, cited: f.brandCited, visibility_score: f.brandScore },
    competitors: f.rivals,
    third_party_sources: f.sources,
    cited_pages: [...f.pages, ...f.competitorPages],
    keywords: f.keywords,
    intent: input.volumes?.intent ?? null,
  });
}

export function briefMessages(input: GenerationInput): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `Write a content brief for a piece that makes AI assistants mention ${input.brand.name} when people ask the prompt below.
${input.opportunity.type === 'earned' ? 'This is an earned opportunity: the piece is meant for the third-party sources the assistants cite.' : "This is an owned opportunity: the piece will be published on the brand's own site."}
Each outline item is "Heading — what the section covers". targetKeywords come from the keywords given.
JSON Schema: ${JSON.stringify(z.toJSONSchema(Brief))}
Facts: ${factsMessage(input)}`,
    },
  ];
}

export function draftMessages(input: GenerationInput, brief: Brief): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `Write the full draft that follows this brief, section by section. contentHtml is the article body as HTML
(h1, h2, h3, p, ul, ol, table, a); faqs are the questions answered in it; slug is lower-case words joined by dashes.
JSON Schema: ${JSON.stringify(z.toJSONSchema(DraftBody))}
Brief: ${JSON.stringify(brief)}
Facts: ${factsMessage(input)}`,
    },
  ];
}

export class OpenAiCompatibleGenerator implements ContentGenerator {
  readonly kind = 'llm' as const;
  constructor(private readonly opts: OpenAiOptions) {}

  brief(input: GenerationInput): Promise<Brief> {
    return this.complete('content_brief', Brief, briefMessages(input));
  }

  draft(input: GenerationInput, brief: Brief): Promise<DraftBody> {
    return this.complete('content_draft', DraftBody, draftMessages(input, brief));
  }

  private async complete<S extends z.ZodType>(name: string, schema: S, messages: ChatMessage[]): Promise<z.output<S>> {
    try {
      return await chatJson(this.opts, { name, schema, messages, temperature: 0.4 });
    } catch (err) {
      throw new GenerationError(`Content generation failed: ${(err as Error).message}`);
    }
  }
}
