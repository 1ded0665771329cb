// Platform -> provider -> engine; a provider without a key answers not_configured.
// test-process: shared
import test from 'ava';
import { loadConfig } from '../../../src/config.ts';
import { liveEngines, providerOf, PROVIDERS } from '../../../src/tracking/capture/engines/registry.ts';
import { PLATFORMS } from '../../../src/tenancy/tracked.ts';
import { request } from './contract.ts';

test('every platform has exactly one provider', (t) => {
  t.deepEqual(PLATFORMS.map(providerOf), [
    'openai',
    'perplexity',
    'gemini',
    'serpapi',
    'serpapi',
    'anthropic',
    'serpapi',
    'xai',
  ]);
  t.is(Object.values(PROVIDERS).flatMap((p) => p.platforms).length, PLATFORMS.length);
});

test('live engines: a provider without a key is not configured and says which variable is missing', async (t) => {
  const config = loadConfig({ DATA_DIR: '/tmp/x', SERPAPI_API_KEY: 'k', OPENAI_API_KEY: '' });
  t.is(config.tracking.engine, 'live', 'live by default: simulated answers are never a silent fallback');
  const engines = liveEngines(config.tracking);
  t.true(engines.forPlatform('copilot').configured);
  t.is(
    engines.forPlatform('google_ai_mode'),
    engines.forPlatform('copilot'),
    'one SerpApi engine serves its three platforms',
  );
  t.false(engines.forPlatform('chatgpt').configured);
  t.deepEqual(await engines.forPlatform('chatgpt').capture(request('chatgpt')), {
    ok: false,
    failure: { kind: 'not_configured', message: 'OPENAI_API_KEY is not set', retryable: false },
  });
});

test('tracking configuration: defaults and validation name the variable', (t) => {
  const c = loadConfig({ DATA_DIR: '/tmp/x' }).tracking;
  t.like(c, { engine: 'live', samples: 1, concurrency: 4, maxAttempts: 3 });
  t.is(c.providers.openai.baseUrl, 'https://api.openai.com/v1');
  t.throws(() => loadConfig({ TRACKING_ENGINE: 'fake' }), { message: /^Invalid TRACKING_ENGINE="fake"/ });
  t.throws(() => loadConfig({ TRACKING_SAMPLES: '0' }), { message: /^Invalid TRACKING_SAMPLES="0"/ });
  t.throws(() => loadConfig({ GEMINI_BASE_URL: 'ftp://x' }), { message: /^Invalid GEMINI_BASE_URL="ftp:\/\/x"/ });
});
