// Perplexity through the Sonar chat completions API (OpenAI-compatible).
// Request: POST {base}/chat/completions {model, messages, web_search_options: {user_location}}.
// Answer: choices[0].message.content (with [1]-style markers), `search_results`
// [{title, url, date}] and the older `citations` [url]
// (https://docs.perplexity.ai/api-reference/chat-completions-post).
// search_results carries titles, so it is preferred; citations stands in when it is absent.
// The response lists the results of its searches, never the queries it ran: searchQueries is null.
import { requestJson } from './http.ts';
import { countryCode, uniqueCitations } from './normalize.ts';
import { trimSlash, type AdapterOptions } from './openai.ts';
import { captured, failure, type Engine } from './types.ts';

export function createPerplexityEngine({ provider, http }: AdapterOptions): Engine {
  const { apiKey, baseUrl, model } = provider;
  return {
    name: 'perplexity',
    version: 'perplexity/1',
    configured: Boolean(apiKey),
    async capture(req) {
      if (!apiKey) return failure('not_configured', 'PERPLEXITY_API_KEY is not set');
      const country = countryCode(req.region);
      const r = await requestJson(
        {
          provider: 'Perplexity',
          url: `${trimSlash(baseUrl)}/chat/completions`,
          headers: { authorization: `Bearer ${apiKey}` },
          body: {
            model,
            messages: [{ role: 'user', content: req.prompt }],
            ...(country ? { web_search_options: { user_location: { country } } } : {}),
          },
          signal: req.signal,
        },
        http,
      );
      if (!r.ok) return r;
      const json = r.json;
      const content = json?.choices?.[0]?.message?.content;
      if (typeof content !== 'string')
        return failure('malformed', 'Perplexity response has no choices[0].message.content');
      if (!content.trim()) return failure('malformed', 'Perplexity response holds no answer text');
      const sources =
        Array.isArray(json.search_results) && json.search_results.length
          ? json.search_results
          : (Array.isArray(json.citations) ? json.citations : []).map((url: unknown) => ({ url }));
      return captured({
        text: content.trim(),
        citations: uniqueCitations(sources),
        model: typeof json.model === 'string' && json.model ? json.model : model,
        mode: req.mode,
        products: [],
        searchQueries: null,
      });
    },
  };
}
