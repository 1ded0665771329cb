// Claude through the Messages API with the web search tool, against a fake Anthropic API.
// test-process: shared
import test from 'ava';
import { createAnthropicEngine } from '../../../src/tracking/capture/engines/anthropic.ts';
import { adapterContract, fake, POLICY, request } from './contract.ts';
import { fixtureText } from './fake-server.ts';

const create = (url: string, apiKey: string | undefined, http = POLICY) =>
  createAnthropicEngine({ provider: { apiKey, baseUrl: `${url}/v1`, model: 'claude-sonnet-4-20250514' }, http });

adapterContract({
  provider: 'anthropic',
  platform: 'claude',
  create,
  good: 'good.json',
  serverError: 'overloaded.json',
  keyVariable: 'ANTHROPIC_API_KEY',
});

test('claude: asks with web_search located in the region; the answer is the text after the search, citations come from it', async (t) => {
  const server = await fake(t, () => ({ body: fixtureText('anthropic', 'good.json') }));
  const out = await create(server.url, 'ant-key').capture(request('claude', { region: 'FR' }));
  const [req] = server.requests;
  t.is(req.path, '/v1/messages');
  t.is(req.headers['x-api-key'], 'ant-key');
  t.is(req.headers['anthropic-version'], '2023-06-01');
  t.like(req.body, {
    model: 'claude-sonnet-4-20250514',
    messages: [{ role: 'user', content: 'best crm for startups' }],
  });
  t.deepEqual(req.body.tools, [
    {
      type: 'web_search_20250305',
      name: 'web_search',
      max_uses: 5,
      user_location: { type: 'approximate', country: 'FR' },
    },
  ]);
  if (!out.ok) return t.fail(JSON.stringify(out));
  t.is(
    out.capture.text,
    'Based on the search results, here are the usual recommendations:\n\nAcme is the most common first CRM for early-stage teams, while Globex fits larger sales organisations.',
  );
  // Only what the answer cites: the uncited search result is not a citation.
  t.deepEqual(out.capture.citations, [
    { url: 'https://acme.example/crm', title: 'Acme CRM - built for startups' },
    { url: 'https://globex.example/', title: 'Globex sales platform' },
  ]);
  t.is(out.capture.model, 'claude-sonnet-4-20250514');
});

test('claude: a paused turn is continued by sending its content back', async (t) => {
  const server = await fake(t, (_r, n) => ({
    body: fixtureText('anthropic', n === 1 ? 'pause-turn.json' : 'good.json'),
  }));
  const out = await create(server.url, 'k').capture(request('claude'));
  t.true(out.ok);
  t.is(server.requests.length, 2);
  const second = server.requests[1].body.messages;
  t.is(second.length, 2);
  t.is(second[1].role, 'assistant');
  t.is(second[1].content.at(-1).type, 'server_tool_use');
});

test('claude: a web search that failed without any answer is reported by its error code', async (t) => {
  const server = await fake(t, () => ({ body: fixtureText('anthropic', 'search-error.json') }));
  const out = await create(server.url, 'k').capture(request('claude'));
  t.like(out, { ok: false, failure: { kind: 'rate_limited', retryable: true } });
});

test('claude: each web_search server_tool_use gives its query, across paused turns; no search is []', async (t) => {
  const paused = await fake(t, (_r, n) => ({
    body: fixtureText('anthropic', n === 1 ? 'pause-turn.json' : 'good.json'),
  }));
  const both = await create(paused.url, 'k').capture(request('claude'));
  t.true(both.ok);
  if (both.ok) t.deepEqual(both.capture.searchQueries, ['best crm for startups', 'best crm for startups 2026']);
  const none = await fake(t, () => ({ body: fixtureText('anthropic', 'no-search.json') }));
  const out = await create(none.url, 'k').capture(request('claude'));
  t.true(out.ok);
  if (out.ok) t.deepEqual(out.capture.searchQueries, []);
});
