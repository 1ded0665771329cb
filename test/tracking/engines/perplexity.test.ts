// Perplexity through the Sonar chat completions API, against a fake Perplexity.
// test-process: shared
import test from 'ava';
import { createPerplexityEngine } from '../../../src/tracking/capture/engines/perplexity.ts';
import { adapterContract, fake, POLICY, request } from './contract.ts';
import { fixtureText } from './fake-server.ts';

const create = (url: string, apiKey: string | undefined, http = POLICY) =>
  createPerplexityEngine({ provider: { apiKey, baseUrl: url, model: 'sonar' }, http });

adapterContract({
  provider: 'perplexity',
  platform: 'perplexity',
  create,
  good: 'good.json',
  serverError: 'server-error.json',
  keyVariable: 'PERPLEXITY_API_KEY',
});

test('perplexity: asks Sonar with the user location; reads the answer, search_results as citations and the model', async (t) => {
  const server = await fake(t, () => ({ body: fixtureText('perplexity', 'good.json') }));
  const out = await create(server.url, 'pplx-key').capture(request('perplexity', { region: 'de' }));
  const [req] = server.requests;
  t.is(req.path, '/chat/completions');
  t.is(req.headers.authorization, 'Bearer pplx-key');
  t.deepEqual(req.body, {
    model: 'sonar',
    messages: [{ role: 'user', content: 'best crm for startups' }],
    web_search_options: { user_location: { country: 'DE' } },
  });
  if (!out.ok) return t.fail(JSON.stringify(out));
  t.regex(out.capture.text, /^The most recommended CRM for startups is \*\*Acme\*\*/);
  t.deepEqual(out.capture.citations, [
    { url: 'https://acme.example/crm', title: 'Acme CRM - built for startups' },
    { url: 'https://reviews.example/best-crm-startups', title: 'The 10 best CRMs for startups in 2026' },
    { url: 'https://globex.example/', title: 'Globex sales platform' },
  ]);
  t.is(out.capture.model, 'sonar');
});

test('perplexity: without search_results, the citations list gives the sources', async (t) => {
  const server = await fake(t, () => ({ body: fixtureText('perplexity', 'citations-only.json') }));
  const out = await create(server.url, 'k').capture(request('perplexity'));
  if (!out.ok) return t.fail(JSON.stringify(out));
  t.deepEqual(out.capture.citations, [
    { url: 'https://acme.example/crm', title: null },
    { url: 'https://globex.example/', title: null },
  ]);
  t.is(out.capture.model, 'sonar-pro');
});

test('perplexity: the response names no search queries, so they are unknown (null)', async (t) => {
  const server = await fake(t, () => ({ body: fixtureText('perplexity', 'good.json') }));
  const out = await create(server.url, 'k').capture(request('perplexity'));
  t.true(out.ok);
  if (out.ok) t.is(out.capture.searchQueries, null);
});
