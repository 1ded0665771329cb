// Grok through xAI's Responses API with the web_search tool, against a fake xAI.
// test-process: shared
import test from 'ava';
import { createXaiEngine } from '../../../src/tracking/capture/engines/xai.ts';
import { adapterContract, fake, POLICY, request } from './contract.ts';
import { fixtureText } from './fake-server.ts';

const create = (url: string, apiKey: string | undefined, http = POLICY) =>
  createXaiEngine({ provider: { apiKey, baseUrl: `${url}/v1`, model: 'grok-4' }, http });

adapterContract({
  provider: 'xai',
  platform: 'grok',
  create,
  good: 'good.json',
  serverError: 'server-error.json',
  keyVariable: 'XAI_API_KEY',
});

test('grok: asks the Responses API with web_search; inline url citations are the citations', async (t) => {
  const server = await fake(t, () => ({ body: fixtureText('xai', 'good.json') }));
  const out = await create(server.url, 'xai-key').capture(request('grok'));
  const [req] = server.requests;
  t.is(req.path, '/v1/responses');
  t.is(req.headers.authorization, 'Bearer xai-key');
  t.deepEqual(req.body, {
    model: 'grok-4',
    input: [{ role: 'user', content: 'best crm for startups' }],
    tools: [{ type: 'web_search' }],
  });
  if (!out.ok) return t.fail(JSON.stringify(out));
  t.regex(out.capture.text, /^Acme is the usual first CRM/);
  // The visited-but-uncited x.com post is not a citation of the answer.
  t.deepEqual(
    out.capture.citations.map((c) => c.url),
    ['https://acme.example/crm', 'https://globex.example/'],
  );
  t.is(out.capture.model, 'grok-4-0709');
});

test('grok: an answer without inline citations falls back to the citations list', async (t) => {
  const server = await fake(t, () => ({ body: fixtureText('xai', 'no-inline-citations.json') }));
  const out = await create(server.url, 'k').capture(request('grok'));
  if (!out.ok) return t.fail(JSON.stringify(out));
  t.deepEqual(
    out.capture.citations.map((c) => c.url),
    ['https://acme.example/crm', 'https://globex.example/'],
  );
});

test('grok: a web_search_call with its action gives the query; one without (as documented) leaves them unknown', async (t) => {
  const run = async (fixture: string) => {
    const server = await fake(t, () => ({ body: fixtureText('xai', fixture) }));
    const out = await create(server.url, 'k').capture(request('grok'));
    if (!out.ok) throw new Error(JSON.stringify(out));
    return out.capture.searchQueries;
  };
  t.deepEqual(await run('good.json'), ['best crm for startups']);
  t.is(await run('search-without-action.json'), null);
});
