// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON, read field by field and checked where used
// Google AI Overviews, Google AI Mode and Microsoft Copilot through SerpApi. These surfaces have
// no official API; a SERP provider renders them from the public pages. SerpApi rather than
// DataForSEO because one key and one synchronous GET (/search.json?engine=...) serve all three with
// dedicated engines (google's ai_overview, google_ai_mode, bing_copilot) that answer in one shared
// shape: text_blocks [{type, snippet, list, reference_indexes}] and references [{title, link,
// source, index}]. DataForSEO has no Copilot endpoint of its own (its Bing SERP only carries
// Bing's AI summary) and answers in a task envelope per endpoint.
// Docs: https://serpapi.com/ai-overview, https://serpapi.com/google-ai-overview-api,
// https://serpapi.com/google-ai-mode-api, https://serpapi.com/bing-copilot-api.
// An AI Overview that Google loads separately comes as ai_overview.page_token, fetched at once with
// engine=google_ai_overview (the token expires within minutes). A query for which Google shows no
// AI Overview is `no_answer`: not a failure, and nothing to store. None of the three engines' results
// says which searches the surface ran (text blocks, references, shopping, local and inline media
// only), so searchQueries is null.
import type { ProductInput } from '../../types.ts';
import type { Platform } from '../../../tenancy/tracked.ts';
import { requestJson, type JsonResult } from './http.ts';
import { countryCode, joinText, uniqueCitations } from './normalize.ts';
import { trimSlash, type AdapterOptions } from './openai.ts';
import { captured, failure, type CaptureOutcome, type CaptureRequest, type Engine } from './types.ts';

const SURFACES: Partial<Record<Platform, { engine: string; model: string; google: boolean }>> = {
  google_ai_overviews: { engine: 'google', model: 'google-aio', google: true },
  google_ai_mode: { engine: 'google_ai_mode', model: 'google-ai-mode', google: true },
  copilot: { engine: 'bing_copilot', model: 'copilot', google: false },
};

export function createSerpApiEngine({ provider, http }: AdapterOptions): Engine {
  const { apiKey, baseUrl } = provider;
  const search = (params: Record<string, string>, signal?: AbortSignal): Promise<JsonResult> =>
    requestJson(
      {
        provider: 'SerpApi',
        url: `${trimSlash(baseUrl)}/search.json?${new URLSearchParams({ ...params, api_key: apiKey ?? '' })}`,
        signal,
      },
      http,
    );

  return {
    name: 'serpapi',
    version: 'serpapi/1',
    configured: Boolean(apiKey),
    async capture(req) {
      if (!apiKey) return failure('not_configured', 'SERPAPI_API_KEY is not set');
      const surface = SURFACES[req.platform];
      if (!surface) return failure('http_error', `SerpApi does not serve the ${req.platform} platform`);
      const gl = countryCode(req.region)?.toLowerCase();
      const r = await search(
        { engine: surface.engine, q: req.prompt, ...(surface.google && gl ? { gl } : {}) },
        req.signal,
      );
      if (!r.ok) return r;
      const error = searchError(r.json);
      if (error) return error;
      let block: any = r.json;
      if (req.platform === 'google_ai_overviews') {
        block = r.json.ai_overview;
        if (block && !Array.isArray(block.text_blocks) && typeof block.page_token === 'string') {
          const more = await search({ engine: 'google_ai_overview', page_token: block.page_token }, req.signal);
          if (!more.ok) return more;
          block = searchError(more.json) ? undefined : more.json.ai_overview;
        }
        if (!block) return failure('no_answer', 'Google showed no AI Overview for this query');
      }
      return parseBlock(block, r.json, surface.model, req);
    },
  };
}

/** SerpApi reports a failed search as {error: "..."} (status 200 when Google simply had nothing). */
function searchError(json: any): CaptureOutcome | undefined {
  if (!json || typeof json !== 'object') return failure('malformed', 'SerpApi response is not a JSON object');
  if (typeof json.error !== 'string') return undefined;
  if (/returned any results|no results/i.test(json.error)) return failure('no_answer', `SerpApi: ${json.error}`);
  return failure('http_error', `SerpApi: ${json.error.slice(0, 200)}`);
}

function parseBlock(block: any, page: any, model: string, req: CaptureRequest): CaptureOutcome {
  if (!Array.isArray(block?.text_blocks))
    return failure('malformed', `SerpApi response has no text_blocks for ${req.platform}`);
  const text = joinText(block.text_blocks.map(blockText), '\n\n');
  if (!text) return failure('no_answer', `${req.platform} showed an empty answer for this query`);
  const references = Array.isArray(block.references) ? block.references : [];
  const citations = uniqueCitations(references.map((r: any) => ({ url: r?.link, title: r?.title })));
  const products = req.mode === 'shopping' ? shoppingCards(page?.shopping_results) : [];
  return captured({ text, citations, model, mode: req.mode, products, searchQueries: null });
}

/** Plain text of one text block: paragraphs and headings as they are, lists one item a line, tables a row a line. */
function blockText(b: any): string {
  if (!b || typeof b !== 'object') return '';
  const own = joinText([b.title, b.snippet, b.code], ': ');
  const items = Array.isArray(b.list)
    ? b.list.map((item: any) => `- ${blockText(item).replace(/\n/g, '\n  ')}`).filter((s: string) => s !== '- ')
    : [];
  const rows = Array.isArray(b.table) ? b.table.filter(Array.isArray).map((row: unknown[]) => row.join(' | ')) : [];
  const nested = Array.isArray(b.text_blocks) ? b.text_blocks.map(blockText) : [];
  return joinText([own, ...items, ...rows, ...nested], '\n');
}

/** AI Mode's shopping_results as the answer file's product cards (docs/api.md section 5). */
function shoppingCards(results: unknown): ProductInput[] {
  if (!Array.isArray(results)) return [];
  return results
    .filter((p) => p && typeof p === 'object' && typeof p.title === 'string')
    .map((p: any, i) => ({
      position: Number.isInteger(p.position) ? p.position : i + 1,
      title: p.title,
      price: typeof p.price === 'string' ? p.price : (p.extracted_price ?? null),
      image_url: p.thumbnail ?? null,
      merchant_url: p.link ?? p.product_link ?? null,
      merchant: p.source ?? null,
      rating: p.rating ?? null,
      review_count: p.reviews ?? null,
    }));
}
