// ChatGPT through the OpenAI Responses API with web search, against a fake OpenAI.
// test-process: shared
import test from 'ava';
import { createOpenAIEngine } from '../../../src/tracking/capture/engines/openai.ts';
import { adapterContract, fake, POLICY, request } from './contract.ts';
import { fixtureText } from './fake-server.ts';

const create = (url: string, apiKey: string | undefined, http = POLICY) =>
  createOpenAIEngine({ provider: { apiKey, baseUrl: `${url}/v1/`, model: 'gpt-4o' }, http });

adapterContract({
  provider: 'openai',
  platform: 'chatgpt',
  create,
  good: 'good.json',
  serverError: 'server-error.json',
  keyVariable: 'OPENAI_API_KEY',
});

test('chatgpt: asks with the web_search tool located in the region; reads the text, its url citations and the model', async (t) => {
  const server = await fake(t, () => ({ body: fixtureText('openai', 'good.json') }));
  const out = await create(server.url, 'test-key').capture(request('chatgpt', { region: 'uk' }));
  const [req] = server.requests;
  t.is(req.method, 'POST');
  t.is(req.path, '/v1/responses');
  t.is(req.headers.authorization, 'Bearer test-key');
  t.deepEqual(req.body, {
    model: 'gpt-4o',
    input: 'best crm for startups',
    tools: [{ type: 'web_search', user_location: { type: 'approximate', country: 'GB' } }],
  });
  if (!out.ok) return t.fail(JSON.stringify(out));
  t.regex(out.capture.text, /^For most startups, \*\*Acme\*\*/);
  t.deepEqual(out.capture.citations, [
    { url: 'https://acme.example/crm?utm_source=openai', title: 'Acme CRM for startups' },
    { url: 'https://globex.example/?utm_source=openai', title: 'Globex - Sales platform' },
    { url: 'https://reviews.example/best-crm-startups?utm_source=openai', title: 'The 10 best CRMs for startups' },
  ]);
  t.is(out.capture.model, 'gpt-4o-2024-08-06');
  t.is(out.capture.mode, 'standard');
  t.deepEqual(out.capture.products, []);
});

test('chatgpt: a region that is not a country is asked without a location', async (t) => {
  const server = await fake(t, () => ({ body: fixtureText('openai', 'good.json') }));
  await create(server.url, 'test-key').capture(request('chatgpt', { region: 'EU' }));
  t.deepEqual(server.requests[0].body.tools, [{ type: 'web_search' }]);
});

test('chatgpt: a response that failed, or holds no message, is reported with its reason', async (t) => {
  const failed = await fake(t, () => ({
    body: { status: 'failed', output: [], error: { code: 'server_error', message: 'The model crashed' } },
  }));
  t.like(await create(failed.url, 'k').capture(request('chatgpt')), {
    ok: false,
    failure: { kind: 'http_error', message: 'OpenAI could not answer: The model crashed' },
  });
  const empty = await fake(t, () => ({
    body: { status: 'incomplete', output: [{ type: 'web_search_call', id: 'ws', status: 'completed' }] },
  }));
  t.like(await create(empty.url, 'k').capture(request('chatgpt')), {
    ok: false,
    failure: { kind: 'malformed', message: 'OpenAI response holds no answer text (status incomplete)' },
  });
});

/** The search queries an adapter records for a fixture: what the stored answer carries. */
async function queriesOf(t: any, fixture: string) {
  const server = await fake(t, () => ({ body: fixtureText('openai', fixture) }));
  const out = await create(server.url, 'k').capture(request('chatgpt'));
  if (!out.ok) throw new Error(JSON.stringify(out));
  return out.capture.searchQueries;
}

test('chatgpt: the search queries are those of the web_search_call search actions; none is []', async (t) => {
  t.deepEqual(await queriesOf(t, 'good.json'), ['best crm for startups']);
  // `queries` when given (the deprecated `query` is its first), else `query`; opening or searching a page is no search.
  t.deepEqual(await queriesOf(t, 'multi-search.json'), [
    'best crm for startups',
    'Acme CRM pricing 2026',
    'globex crm reviews',
  ]);
  t.deepEqual(await queriesOf(t, 'no-search.json'), []);
});

test('chatgpt: a search listed without its query leaves the queries unknown, never []', async (t) => {
  const body = JSON.parse(fixtureText('openai', 'good.json'));
  body.output[0].action = { type: 'search' };
  const server = await fake(t, () => ({ body }));
  const out = await create(server.url, 'k').capture(request('chatgpt'));
  t.true(out.ok && out.capture.searchQueries === null);
  // Listed queries that are all blank say no more than none: unknown too.
  body.output[0].action = { type: 'search', queries: ['  ', 7] };
  const blank = await create(server.url, 'k').capture(request('chatgpt'));
  t.true(blank.ok && blank.capture.searchQueries === null);
});
