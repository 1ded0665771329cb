// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON, read field by field and checked where used
// Claude through the Anthropic Messages API with the server-side web search tool.
// Request: POST {base}/messages (x-api-key, anthropic-version: 2023-06-01)
//   {model, max_tokens, messages, tools: [{type: "web_search_20250305", name: "web_search", max_uses, user_location}]}.
// Answer: content[] interleaves text blocks, server_tool_use blocks and web_search_tool_result
// blocks; text blocks that rely on a source carry citations [{type: "web_search_result_location",
// url, title, cited_text}]. stop_reason "pause_turn" means the turn was paused and is continued by
// sending the content back as the assistant's message
// (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool).
// Each search Claude ran is a server_tool_use block named web_search, its query in `input.query`.
// The answer is the text after the last search result ("I'll search for..." before it is Claude
// narrating its search, not the answer); when there is none, all text.
import { requestJson } from './http.ts';
import { countryCode, joinText, searchQueryList, uniqueCitations } from './normalize.ts';
import { trimSlash, type AdapterOptions } from './openai.ts';
import { captured, failure, type CaptureOutcome, type Engine } from './types.ts';

const API_VERSION = '2023-06-01';
const MAX_TOKENS = 2048;
const MAX_SEARCHES = 5;
/** A paused turn is continued at most this many times. */
const MAX_TURNS = 3;

export function createAnthropicEngine({ provider, http }: AdapterOptions): Engine {
  const { apiKey, baseUrl, model } = provider;
  return {
    name: 'anthropic',
    version: 'anthropic/1',
    configured: Boolean(apiKey),
    async capture(req) {
      if (!apiKey) return failure('not_configured', 'ANTHROPIC_API_KEY is not set');
      const country = countryCode(req.region);
      const tool = {
        type: 'web_search_20250305',
        name: 'web_search',
        max_uses: MAX_SEARCHES,
        ...(country ? { user_location: { type: 'approximate', country } } : {}),
      };
      const content: any[] = [];
      let reported = model;
      for (let turn = 1; turn <= MAX_TURNS; turn++) {
        const messages: any[] = [{ role: 'user', content: req.prompt }];
        if (content.length) messages.push({ role: 'assistant', content });
        const r = await requestJson(
          {
            provider: 'Anthropic',
            url: `${trimSlash(baseUrl)}/messages`,
            headers: { 'x-api-key': apiKey, 'anthropic-version': API_VERSION },
            body: { model, max_tokens: MAX_TOKENS, messages, tools: [tool] },
            signal: req.signal,
          },
          http,
        );
        if (!r.ok) return r;
        if (!Array.isArray(r.json?.content)) return failure('malformed', 'Anthropic response has no content[]');
        content.push(...r.json.content);
        if (typeof r.json.model === 'string' && r.json.model) reported = r.json.model;
        if (r.json.stop_reason !== 'pause_turn') break;
      }
      return parseContent(content, reported, req.mode);
    },
  };
}

function parseContent(content: any[], model: string, mode: 'standard' | 'shopping'): CaptureOutcome {
  const lastResult = content.map((b) => b?.type).lastIndexOf('web_search_tool_result');
  const texts = (from: number) => content.slice(from).filter((b) => b?.type === 'text' && typeof b.text === 'string');
  let blocks = texts(lastResult + 1);
  if (
    !joinText(
      blocks.map((b) => b.text),
      '',
    )
  )
    blocks = texts(0);
  // Cited passages come as separate text blocks of one continuous answer: join without separators.
  const text = joinText(
    blocks.map((b) => b.text),
    '',
  );
  if (!text) {
    const error = content.find(
      (b) => b?.type === 'web_search_tool_result' && b.content?.type === 'web_search_tool_result_error',
    );
    const code = error?.content?.error_code;
    if (code === 'too_many_requests')
      return failure('rate_limited', 'Anthropic web search rate limit (too_many_requests)', true);
    if (code) return failure('http_error', `Anthropic web search failed (${code})`, code === 'unavailable');
    return failure('malformed', 'Anthropic response holds no answer text');
  }
  const cites = blocks
    .flatMap((b) => (Array.isArray(b.citations) ? b.citations : []))
    .filter((c: any) => c?.type === 'web_search_result_location');
  return captured({
    text,
    citations: uniqueCitations(cites),
    model,
    mode,
    products: [],
    searchQueries: searches(content),
  });
}

/** The queries of the web_search blocks: [] when Claude did not search, null when one has no query. */
function searches(content: any[]): string[] | null {
  const queries: unknown[] = [];
  for (const b of content) {
    if (b?.type !== 'server_tool_use' || b.name !== 'web_search') continue;
    if (typeof b.input?.query !== 'string' || !b.input.query.trim()) return null;
    queries.push(b.input.query);
  }
  return searchQueryList(queries);
}
