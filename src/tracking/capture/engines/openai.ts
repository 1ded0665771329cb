// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON, read field by field and checked where used
// ChatGPT (search) through the OpenAI Responses API with the hosted web_search tool.
// Request: POST {base}/responses {model, input, tools: [{type: "web_search", user_location}]}.
// Answer: output[] holds web_search_call items and a `message` whose output_text parts carry the
// text and `url_citation` annotations {url, title, start_index, end_index}
// (https://platform.openai.com/docs/guides/tools-web-search). A web_search_call's `action` says what
// the model did: `search` with its `queries` (and the older, deprecated single `query`), or
// `open_page` / `find_in_page` on a page found before (not searches)
// (https://platform.openai.com/docs/api-reference/responses/object). xAI answers in the same shape,
// so xai.ts reuses parseResponsesApi.
import type { ProviderConfig } from '../../../config.ts';
import type { AnswerMode } from '../../types.ts';
import { requestJson } from './http.ts';
import { countryCode, joinText, searchQueryList, uniqueCitations } from './normalize.ts';
import { captured, failure, type CaptureOutcome, type Engine, type HttpPolicy } from './types.ts';

export interface AdapterOptions {
  provider: ProviderConfig;
  http: HttpPolicy;
}

export const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function createOpenAIEngine({ provider, http }: AdapterOptions): Engine {
  const { apiKey, baseUrl, model } = provider;
  return {
    name: 'openai',
    version: 'openai/1',
    configured: Boolean(apiKey),
    async capture(req) {
      if (!apiKey) return failure('not_configured', 'OPENAI_API_KEY is not set');
      const country = countryCode(req.region);
      const tool = { type: 'web_search', ...(country ? { user_location: { type: 'approximate', country } } : {}) };
      const r = await requestJson(
        {
          provider: 'OpenAI',
          url: `${trimSlash(baseUrl)}/responses`,
          headers: { authorization: `Bearer ${apiKey}` },
          body: { model, input: req.prompt, tools: [tool] },
          signal: req.signal,
        },
        http,
      );
      if (!r.ok) return r;
      return parseResponsesApi(r.json, { provider: 'OpenAI', model, mode: req.mode });
    },
  };
}

/** Text and cited URLs of a Responses API answer (OpenAI's, or xAI's which follows it). */
export function parseResponsesApi(
  json: any,
  opts: {
    provider: string;
    model: string;
    mode: AnswerMode;
    fallbackCitations?: (json: any) => { url?: unknown; title?: unknown }[];
  },
): CaptureOutcome {
  if (!json || typeof json !== 'object' || !Array.isArray(json.output)) {
    return failure('malformed', `${opts.provider} response has no output[]`);
  }
  if (json.status === 'failed') {
    return failure(
      'http_error',
      `${opts.provider} could not answer: ${json.error?.message ?? 'no reason given'}`,
      true,
    );
  }
  const texts: unknown[] = [];
  const cites: { url?: unknown; title?: unknown }[] = [];
  for (const item of json.output) {
    if (item?.type !== 'message' || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (part?.type !== 'output_text') continue;
      texts.push(part.text);
      for (const a of Array.isArray(part.annotations) ? part.annotations : []) {
        if (a?.type === 'url_citation') cites.push(a);
      }
    }
  }
  const text = joinText(texts, '\n\n');
  if (!text) {
    const status = typeof json.status === 'string' && json.status !== 'completed' ? ` (status ${json.status})` : '';
    return failure('malformed', `${opts.provider} response holds no answer text${status}`);
  }
  const citations = uniqueCitations(cites.length || !opts.fallbackCitations ? cites : opts.fallbackCitations(json));
  return captured({
    text,
    citations,
    model: typeof json.model === 'string' && json.model ? json.model : opts.model,
    mode: opts.mode,
    products: [],
    searchQueries: responsesSearchQueries(json.output),
  });
}

/**
 * The queries of the response's web_search_call items: [] when there is none (the model answered
 * without searching), null when a search is listed without its query (xAI's documented item
 * carries no action), so a search whose query is unknown never reads as no search.
 */
function responsesSearchQueries(output: any[]): string[] | null {
  const queries: unknown[] = [];
  for (const item of output) {
    if (item?.type !== 'web_search_call') continue;
    const action = item.action;
    if (action && typeof action === 'object' && action.type !== 'search') continue;
    const listed = Array.isArray(action?.queries) && action.queries.length ? action.queries : [action?.query];
    const found = searchQueryList(listed);
    if (!found.length) return null;
    queries.push(...found);
  }
  return searchQueryList(queries);
}
