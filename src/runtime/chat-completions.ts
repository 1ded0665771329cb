// One JSON answer from an OpenAI-compatible chat-completions endpoint (LLM_BASE_URL, e.g.
// https://api.openai.com/v1, or a local server that speaks the same API). The model is asked for
// one JSON object matching a zod schema; the answer is parsed and validated, and an attempt that
// fails (timeout, network error, 408/429/5xx, malformed or invalid JSON) is retried once.
// Shared by the modules that ask the configured model: content (briefs, drafts) and tracking
// (sentiment verdicts), so both speak to it one way. It lives here, below both.
import { z } from 'zod';

/** Where the model is and how long one attempt may take. */
export interface ChatEndpoint {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Deadline of one attempt, body included. */
  timeoutMs: number;
  /** Attempts in all (default 2: one retry). */
  attempts?: number;
}

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export interface ChatRequest<S extends z.ZodType> {
  /** The json_schema's name in response_format. */
  name: string;
  /** What the answer must parse as. */
  schema: S;
  messages: ChatMessage[];
  temperature: number;
  /**
   * The JSON Schema shown to the model, when it should see more than `schema` checks (a caller
   * that validates each item of a list itself shows the items' rules but accepts a bad one).
   */
  jsonSchema?: z.ZodType;
}

/** What is read of a chat-completions answer (the endpoint's JSON, checked below). */
interface Completion {
  choices?: { message?: { content?: unknown } }[];
}

/** No valid answer after the attempts; the message says why (never the request's content). */
export class ChatCompletionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChatCompletionError';
  }
}

/** A failure worth a second attempt, as opposed to e.g. a 401 that will fail again. */
class Retryable extends Error {}

/** The JSON inside an answer, tolerating a Markdown code fence around it. */
function jsonOf(content: string): unknown {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  try {
    return JSON.parse(fenced ? fenced[1] : content);
  } catch {
    throw new Retryable("the model's answer is not valid JSON");
  }
}

/** Asks the model; resolves to the validated answer or throws ChatCompletionError. */
export async function chatJson<S extends z.ZodType>(endpoint: ChatEndpoint, req: ChatRequest<S>): Promise<z.output<S>> {
  const attempts = endpoint.attempts ?? 2;
  let last: Error = new Error('no attempt made');
  for (let i = 0; i < attempts; i++) {
    try {
      return await attempt(endpoint, req);
    } catch (err) {
      last = err as Error;
      if (!(err instanceof Retryable)) break;
    }
  }
  throw new ChatCompletionError(last.message);
}

async function attempt<S extends z.ZodType>(endpoint: ChatEndpoint, req: ChatRequest<S>): Promise<z.output<S>> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  let res: Response;
  let body: unknown;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: endpoint.model,
        messages: req.messages,
        temperature: req.temperature,
        // Not `strict`: strict mode refuses schemas with lengths and sizes; zod checks them below.
        response_format: {
          type: 'json_schema',
          json_schema: { name: req.name, schema: z.toJSONSchema(req.jsonSchema ?? req.schema), strict: false },
        },
      }),
      signal: AbortSignal.timeout(endpoint.timeoutMs),
    });
    body = res.ok ? await res.json().catch(() => undefined) : await res.text().catch(() => '');
  } catch (err) {
    const e = err as Error;
    const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
    throw new Retryable(
      timedOut ? `the model did not answer within ${endpoint.timeoutMs} ms` : `cannot reach the model (${e.message})`,
    );
  }
  if (!res.ok) {
    const message = `the model endpoint answered HTTP ${res.status}`;
    throw res.status === 408 || res.status === 429 || res.status >= 500 ? new Retryable(message) : new Error(message);
  }
  const content = (body as Completion | null | undefined)?.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) throw new Retryable("the model's answer has no message content");
  const parsed = req.schema.safeParse(jsonOf(content));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Retryable(
      `the model's answer does not match the schema (${issue.path.join('.') || 'root'}: ${issue.message})`,
    );
  }
  return parsed.data;
}
