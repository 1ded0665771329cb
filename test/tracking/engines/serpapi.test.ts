// Google AI Overviews, Google AI Mode and Copilot through SerpApi, against a fake SerpApi.
// test-process: shared
import test from 'ava';
import { createSerpApiEngine } from '../../../src/tracking/capture/engines/serpapi.ts';
import { adapterContract, fake, POLICY, request } from './contract.ts';
import { fixtureText } from './fake-server.ts';

const create = (url: string, apiKey: string | undefined, http = POLICY) =>
  createSerpApiEngine({ provider: { apiKey, baseUrl: url, model: '' }, http });

adapterContract({
  provider: 'serpapi',
  platform: 'google_ai_mode',
  create,
  good: 'google-ai-mode.json',
  serverError: 'server-error.json',
  keyVariable: 'SERPAPI_API_KEY',
});

const served = (name: string) => () => ({ body: fixtureText('serpapi', name) });

test('google_ai_mode: text blocks become the text (lists and tables a line each), references the citations', async (t) => {
  const server = await fake(t, served('google-ai-mode.json'));
  const out = await create(server.url, 'serp-key').capture(request('google_ai_mode', { region: 'US' }));
  const [req] = server.requests;
  t.is(req.method, 'GET');
  t.is(req.path, '/search.json');
  t.deepEqual(Object.fromEntries(req.query), {
    engine: 'google_ai_mode',
    q: 'best crm for startups',
    gl: 'us',
    api_key: 'serp-key',
  });
  if (!out.ok) return t.fail(JSON.stringify(out));
  t.is(
    out.capture.text,
    [
      'For most early-stage companies Acme is the easiest CRM to adopt.',
      'Alternatives',
      '- Globex: strong reporting for larger teams.\n- Initech: a budget option.',
      'CRM | Free tier\nAcme | Yes\nGlobex | No',
    ].join('\n\n'),
  );
  t.deepEqual(
    out.capture.citations.map((c) => c.url),
    ['https://acme.example/crm', 'https://globex.example/', 'https://reviews.example/initech'],
  );
  t.is(out.capture.model, 'google-ai-mode');
  t.deepEqual(out.capture.products, [], 'standard mode asks for no product cards');
});

test('google_ai_mode: in shopping mode the shopping results are the product cards', async (t) => {
  const server = await fake(t, served('google-ai-mode.json'));
  const out = await create(server.url, 'k').capture(request('google_ai_mode', { mode: 'shopping' }));
  if (!out.ok) return t.fail(JSON.stringify(out));
  t.is(out.capture.mode, 'shopping');
  t.deepEqual(out.capture.products[0], {
    position: 1,
    title: 'Acme CRM Starter (annual)',
    price: '$120.00',
    image_url: 'https://serpapi.com/images/acme.jpg',
    merchant_url: 'https://store.acme.example/starter',
    merchant: 'Acme Store',
    rating: 4.6,
    review_count: 128,
  });
  t.is(out.capture.products.length, 2);
});

test('google_ai_overviews: an inline AI Overview is read from the Google search itself', async (t) => {
  const server = await fake(t, served('google-ai-overview-inline.json'));
  const out = await create(server.url, 'k').capture(request('google_ai_overviews', { region: 'GB' }));
  t.deepEqual(Object.fromEntries(server.requests[0].query), {
    engine: 'google',
    q: 'best crm for startups',
    gl: 'gb',
    api_key: 'k',
  });
  if (!out.ok) return t.fail(JSON.stringify(out));
  t.is(
    out.capture.text,
    'The best CRM for a startup depends on team size and budget; Acme is the most common first choice.\n\nPopular options\n\n' +
      '- Acme: free for small teams, quick to set up.\n- Globex: built for larger sales organisations.',
  );
  t.is(out.capture.citations.length, 3);
  t.is(out.capture.model, 'google-aio');
});

test('google_ai_overviews: a deferred AI Overview is fetched at once with its page_token', async (t) => {
  const server = await fake(t, (req) => ({
    body: fixtureText(
      'serpapi',
      req.query.get('engine') === 'google' ? 'google-ai-overview-token.json' : 'google-ai-overview-page.json',
    ),
  }));
  const out = await create(server.url, 'k').capture(request('google_ai_overviews'));
  t.deepEqual(
    server.requests.map((r) => r.query.get('engine')),
    ['google', 'google_ai_overview'],
  );
  t.is(server.requests[1].query.get('page_token'), 'KIVu-nictZPdjqJIFMf7ZYx3ohT42ZlkFxBFG9ESUVzdTAlVUAoiDgj');
  if (!out.ok) return t.fail(JSON.stringify(out));
  t.is(out.capture.text, 'Startups most often choose Acme for its free tier.');
  t.deepEqual(out.capture.citations, [{ url: 'https://acme.example/crm', title: 'Acme CRM - built for startups' }]);
});

test('google_ai_overviews: a search without an AI Overview is no_answer, not a failure to retry', async (t) => {
  const server = await fake(t, served('google-no-ai-overview.json'));
  const out = await create(server.url, 'k').capture(request('google_ai_overviews'));
  t.like(out, { ok: false, failure: { kind: 'no_answer', retryable: false } });
  const none = await fake(t, served('no-results.json'));
  t.like(await create(none.url, 'k').capture(request('google_ai_mode')), { ok: false, failure: { kind: 'no_answer' } });
});

test('copilot: asks the bing_copilot engine and reads its text blocks and references', async (t) => {
  const server = await fake(t, served('bing-copilot.json'));
  const out = await create(server.url, 'k').capture(request('copilot'));
  t.deepEqual(Object.fromEntries(server.requests[0].query), {
    engine: 'bing_copilot',
    q: 'best crm for startups',
    api_key: 'k',
  });
  if (!out.ok) return t.fail(JSON.stringify(out));
  t.is(
    out.capture.text,
    'Acme and Globex are the two CRMs startups mention most.\n\nQuick comparison\n\n- Acme - free tier, quick setup\n- Globex - deeper reporting',
  );
  t.deepEqual(
    out.capture.citations.map((c) => c.url),
    ['https://acme.example/crm', 'https://globex.example/'],
  );
  t.is(out.capture.model, 'copilot');
});

test("serpapi: an error in a 200 answer is an http_error with SerpApi's message, never the key", async (t) => {
  const server = await fake(t, () => ({ body: { error: 'Your account has run out of searches.' } }));
  const out = await create(server.url, 'secret').capture(request('copilot'));
  t.like(out, {
    ok: false,
    failure: { kind: 'http_error', message: 'SerpApi: Your account has run out of searches.', retryable: false },
  });
});

test('serpapi: no engine says which searches the surface ran, so the queries are unknown (null)', async (t) => {
  for (const [platform, fixture] of [
    ['google_ai_mode', 'google-ai-mode.json'],
    ['google_ai_overviews', 'google-ai-overview-inline.json'],
    ['copilot', 'bing-copilot.json'],
  ] as const) {
    const server = await fake(t, served(fixture));
    const out = await create(server.url, 'k').capture(request(platform));
    t.true(out.ok, platform);
    if (out.ok) t.is(out.capture.searchQueries, null, platform);
  }
});
