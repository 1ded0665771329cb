// Gemini through generateContent with Google Search grounding, against a fake Gemini API.
// test-process: shared
import test from 'ava';
import { createGeminiEngine } from '../../../src/tracking/capture/engines/gemini.ts';
import { adapterContract, fake, POLICY, request } from './contract.ts';
import { fixtureText } from './fake-server.ts';

const create = (url: string, apiKey: string | undefined, http = POLICY) =>
  createGeminiEngine({ provider: { apiKey, baseUrl: `${url}/v1beta`, model: 'gemini-2.5-flash' }, http });

adapterContract({
  provider: 'gemini',
  platform: 'gemini',
  create,
  good: 'good.json',
  serverError: 'quota.json',
  keyVariable: 'GEMINI_API_KEY',
});

test('gemini: asks with google_search; reads the text, follows grounding redirects to the sources, reports modelVersion', async (t) => {
  const server = await fake(t, (req) => {
    if (req.path.endsWith('/AWQVqAKc1')) return { status: 302, headers: { location: 'https://acme.example/crm' } };
    if (req.path.endsWith('/AWQVqAKc2')) return { status: 404, body: 'gone' };
    if (req.path.endsWith('/AWQVqAKc3'))
      return { status: 302, headers: { location: 'https://globex.example/pricing' } };
    return { body: fixtureText('gemini', 'good.json', server.url) };
  });
  const out = await create(server.url, 'g-key').capture(request('gemini'));
  const api = server.requests.find((r) => r.method === 'POST')!;
  t.is(api.path, '/v1beta/models/gemini-2.5-flash:generateContent');
  t.is(api.headers['x-goog-api-key'], 'g-key');
  t.deepEqual(api.body, {
    contents: [{ role: 'user', parts: [{ text: 'best crm for startups' }] }],
    tools: [{ google_search: {} }],
  });
  if (!out.ok) return t.fail(JSON.stringify(out));
  t.regex(out.capture.text, /^For a startup, Acme is usually the best first CRM/);
  t.deepEqual(out.capture.citations, [
    { url: 'https://acme.example/crm', title: 'acme.example' },
    // The redirect failed: the domain in the title stands in.
    { url: 'https://reviews.example/', title: 'reviews.example' },
    { url: 'https://globex.example/pricing', title: 'globex.example' },
  ]);
  t.is(out.capture.model, 'gemini-2.5-flash');
});

test('gemini: a refused prompt is an http_error naming the reason, and is not retried', async (t) => {
  const server = await fake(t, () => ({ body: fixtureText('gemini', 'blocked.json') }));
  const out = await create(server.url, 'k').capture(request('gemini'));
  t.like(out, {
    ok: false,
    failure: { kind: 'http_error', message: 'Gemini refused the prompt (SAFETY)', retryable: false },
  });
  t.is(server.requests.length, 1);
});

test('gemini: a quota error (429 RESOURCE_EXHAUSTED) without Retry-After is retried with back-off, then rate_limited', async (t) => {
  const server = await fake(t, () => ({ status: 429, body: fixtureText('gemini', 'quota.json') }));
  const out = await create(server.url, 'k').capture(request('gemini'));
  t.like(out, { ok: false, failure: { kind: 'rate_limited', retryable: true } });
  if (!out.ok) t.regex(out.failure.message, /Resource has been exhausted.*after 3 attempts/);
  t.is(server.requests.length, 3);
});

test('gemini: a redirect on another host is not followed; the domain in the title stands in', async (t) => {
  const server = await fake(t, () => ({ body: fixtureText('gemini', 'good.json', 'https://elsewhere.example') }));
  const out = await create(server.url, 'k').capture(request('gemini'));
  if (!out.ok) return t.fail(JSON.stringify(out));
  t.deepEqual(
    out.capture.citations.map((c) => c.url),
    ['https://acme.example/', 'https://reviews.example/', 'https://globex.example/'],
  );
  t.is(server.requests.length, 1);
});

test('gemini: webSearchQueries are the search queries; no grounding metadata is no search', async (t) => {
  const run = async (body: string | object) => {
    const server = await fake(t, (req) =>
      req.method === 'POST'
        ? { body: typeof body === 'string' ? fixtureText('gemini', body, server.url) : body }
        : { status: 404 },
    );
    const out = await create(server.url, 'k').capture(request('gemini'));
    if (!out.ok) throw new Error(JSON.stringify(out));
    return out.capture.searchQueries;
  };
  t.deepEqual(await run('good.json'), ['best crm for startups 2026']);
  t.deepEqual(await run('no-grounding.json'), []);
  // Grounded, but the queries are not listed: unknown.
  const grounded = JSON.parse(fixtureText('gemini', 'no-grounding.json'));
  grounded.candidates[0].groundingMetadata = { groundingChunks: [] };
  t.is(await run(grounded), null);
});
