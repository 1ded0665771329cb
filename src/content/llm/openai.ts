// Briefs and drafts from an OpenAI-compatible chat-completions endpoint (LLM_BASE_URL, e.g.
// https://api.openai.com/v1, or a local server that speaks the same API). The model is asked for
// one JSON object matching the zod schema; the answer is parsed and validated, and an attempt that
// fails (timeout, network error, 408/429/5xx, malformed or invalid JSON) is retried once.
import { z } from 'zod';
import { Brief, DraftBody } from '../schemas.ts';
import type { ContentGenerator, GenerationInput } from './generator.ts';
import { factsOf } from './facts.ts';

export interface OpenAiOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Deadline of one attempt, body included. */
  timeoutMs: number;
  attempts?: number;
}

interface Message {
  role: 'system' | 'user';
  content: string;
}
/** What is read of a chat-completions answer (the endpoint's JSON, checked below). */
interface Completion {
  choices?: { message?: { content?: unknown } }[];
}

/** The model gave no valid output after its attempts (the caller gives the quota unit back). */
export class GenerationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GenerationError';
  }
}

/** A failure worth a second attempt, as opposed to e.g. a 401 that will fail again. */
class Retryable extends Error {}

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

export function briefMessages(input: GenerationInput): Message[] {
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

export function draftMessages(input: GenerationInput, brief: Brief): Message[] {
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

/** The JSON inside an answer, tolerating a Markdown code fence around it. */
function jsonOf(content: string): unknown {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  try {
    return JSON.parse(fenced ? fenced[1] : content);
  } catch {
    throw new Retryable("the model's answer is not valid JSON");
  }
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

  private async complete<S extends z.ZodType>(name: string, schema: S, messages: Message[]): Promise<z.output<S>> {
    const attempts = this.opts.attempts ?? 2;
    let last: Error = new Error('no attempt made');
    for (let i = 0; i < attempts; i++) {
      try {
        return await this.attempt(name, schema, messages);
      } catch (err) {
        last = err as Error;
        if (!(err instanceof Retryable)) break;
      }
    }
    throw new GenerationError(`Content generation failed: ${last.message}`);
  }

  private async attempt<S extends z.ZodType>(name: string, schema: S, messages: Message[]): Promise<z.output<S>> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    let res: Response;
    let body: unknown;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.opts.model,
          messages,
          temperature: 0.4,
          // Not `strict`: strict mode refuses schemas with lengths and sizes; zod checks them below.
          response_format: {
            type: 'json_schema',
            json_schema: { name, schema: z.toJSONSchema(schema), strict: false },
          },
        }),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      body = res.ok ? await res.json().catch(() => undefined) : await res.text().catch(() => '');
    } catch (err) {
      const e = err as Error;
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
      throw new Retryable(
        timedOut
          ? `the model did not answer within ${this.opts.timeoutMs} ms`
          : `cannot reach the model (${e.message})`,
      );
    }
    if (!res.ok) {
      const message = `the model endpoint answered HTTP ${res.status}`;
      throw res.status === 408 || res.status === 429 || res.status >= 500 ? new Retryable(message) : new Error(message);
    }
    const content = (body as Completion | null | undefined)?.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || !content.trim())
      throw new Retryable("the model's answer has no message content");
    const parsed = schema.safeParse(jsonOf(content));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Retryable(
        `the model's answer does not match the schema (${issue.path.join('.') || 'root'}: ${issue.message})`,
      );
    }
    return parsed.data;
  }
}
