// Grok through xAI's Responses API with its server-side web_search tool. xAI removed Live Search
// (`search_parameters` on chat completions) in favour of these agent tools, whose answers follow
// OpenAI's Responses shape: output_text with `url_citation` annotations (inline citations are on by
// default on /v1/responses), plus a top-level `citations` list of every URL the search visited
// (https://docs.x.ai/developers/tools/citations). The cited annotations are the answer's citations;
// the visited list stands in only when the answer cites nothing inline. The tool takes no user
// location, so the region is not passed. Searches are web_search_call output items; where one
// carries no `action.query` (the documented xAI item has only id, status and type) the queries are
// unknown (null), and none at all means Grok answered without searching ([]).
import { requestJson } from './http.ts';
import { parseResponsesApi, trimSlash, type AdapterOptions } from './openai.ts';
import { failure, type Engine } from './types.ts';

export function createXaiEngine({ provider, http }: AdapterOptions): Engine {
  const { apiKey, baseUrl, model } = provider;
  return {
    name: 'xai',
    version: 'xai/1',
    configured: Boolean(apiKey),
    async capture(req) {
      if (!apiKey) return failure('not_configured', 'XAI_API_KEY is not set');
      const r = await requestJson(
        {
          provider: 'xAI',
          url: `${trimSlash(baseUrl)}/responses`,
          headers: { authorization: `Bearer ${apiKey}` },
          body: { model, input: [{ role: 'user', content: req.prompt }], tools: [{ type: 'web_search' }] },
          signal: req.signal,
        },
        http,
      );
      if (!r.ok) return r;
      return parseResponsesApi(r.json, {
        provider: 'xAI',
        model,
        mode: req.mode,
        fallbackCitations: (j) => (Array.isArray(j.citations) ? j.citations : []).map((url: unknown) => ({ url })),
      });
    },
  };
}
