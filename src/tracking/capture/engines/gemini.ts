// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON, read field by field and checked where used
// Gemini through the Gemini API's generateContent with Grounding with Google Search.
// Request: POST {base}/models/{model}:generateContent {contents, tools: [{google_search: {}}]}.
// Answer: candidates[0].content.parts[].text, and candidates[0].groundingMetadata with
// groundingChunks [{web: {uri, title}}], groundingSupports and webSearchQueries; modelVersion names
// the model (https://ai.google.dev/gemini-api/docs/google-search).
// A chunk's uri is a vertexaisearch.cloud.google.com/grounding-api-redirect/... link and its title
// the source's domain. The redirect is followed one hop (Location header, not the page) to store
// the real URL; when that fails the domain from the title stands in, so citations still name the
// right site. The API takes no user location for Google Search, so the region is not passed.
import { requestJson } from './http.ts';
import { joinText, searchQueryList, uniqueCitations } from './normalize.ts';
import { trimSlash, type AdapterOptions } from './openai.ts';
import { captured, failure, type Engine } from './types.ts';

const REDIRECT_TIMEOUT_MS = 10_000;
/** The documented redirect host; only it (or the configured API host, for a proxy or a test fake) is followed. */
const REDIRECT_HOST = 'vertexaisearch.cloud.google.com';
const HOSTNAME = /^(?=.{4,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/i;

export function createGeminiEngine({ provider, http }: AdapterOptions): Engine {
  const { apiKey, baseUrl, model } = provider;
  return {
    name: 'gemini',
    version: 'gemini/1',
    configured: Boolean(apiKey),
    async capture(req) {
      if (!apiKey) return failure('not_configured', 'GEMINI_API_KEY is not set');
      const r = await requestJson(
        {
          provider: 'Gemini',
          url: `${trimSlash(baseUrl)}/models/${encodeURIComponent(model)}:generateContent`,
          headers: { 'x-goog-api-key': apiKey },
          body: { contents: [{ role: 'user', parts: [{ text: req.prompt }] }], tools: [{ google_search: {} }] },
          signal: req.signal,
        },
        http,
      );
      if (!r.ok) return r;
      const json = r.json;
      const candidate = Array.isArray(json?.candidates) ? json.candidates[0] : undefined;
      if (!candidate) {
        const blocked = json?.promptFeedback?.blockReason;
        return blocked
          ? failure('http_error', `Gemini refused the prompt (${blocked})`)
          : failure('malformed', 'Gemini response has no candidates[]');
      }
      const parts = Array.isArray(candidate.content?.parts) ? candidate.content.parts : [];
      // Thought summaries are not part of the answer a user reads.
      const text = joinText(
        parts.filter((p: any) => !p?.thought).map((p: any) => p?.text),
        '',
      );
      if (!text)
        return failure(
          'malformed',
          `Gemini response holds no answer text (finishReason ${candidate.finishReason ?? 'missing'})`,
        );
      // Without grounding metadata the model answered from what it knows, without searching; metadata
      // without queries (reported on Google's forum for searches that did run) leaves them unknown.
      const grounding = candidate.groundingMetadata;
      const listed = Array.isArray(grounding?.webSearchQueries) ? searchQueryList(grounding.webSearchQueries) : [];
      const searchQueries = grounding == null ? [] : listed.length ? listed : null;
      const chunks = Array.isArray(grounding?.groundingChunks) ? grounding.groundingChunks : [];
      const webs = chunks.map((c: any) => c?.web).filter((w: any) => w && typeof w.uri === 'string');
      const hosts = new Set([REDIRECT_HOST, new URL(baseUrl).host]);
      const sources = await Promise.all(webs.map((w: any) => resolveSource(w.uri, w.title, hosts, req.signal)));
      return captured({
        text,
        citations: uniqueCitations(sources),
        model: typeof json.modelVersion === 'string' && json.modelVersion ? json.modelVersion : model,
        mode: req.mode,
        products: [],
        searchQueries,
      });
    },
  };
}

/** The source behind a grounding redirect: its Location, else https://{title}/ when the title is a domain. */
async function resolveSource(
  uri: string,
  title: unknown,
  hosts: Set<string>,
  signal?: AbortSignal,
): Promise<{ url: string; title: unknown }> {
  const domain = typeof title === 'string' && HOSTNAME.test(title.trim()) ? title.trim().toLowerCase() : undefined;
  if (!uri.includes('/grounding-api-redirect/')) return { url: uri, title };
  try {
    if (!hosts.has(new URL(uri).host)) throw new Error('not a grounding redirect host');
    const timeout = AbortSignal.timeout(REDIRECT_TIMEOUT_MS);
    const res = await fetch(uri, { redirect: 'manual', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    await res.body?.cancel();
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) return { url: new URL(location, uri).toString(), title };
  } catch {
    // fall through to the domain
  }
  return { url: domain ? `https://${domain}/` : uri, title };
}
