// Settings > Platforms in Debian's Chromium, on the live engine: ChatGPT configured (OPENAI_API_KEY,
// its endpoint a local fake that fails) and Perplexity not (PERPLEXITY_API_KEY unset). Each row says
// whether it is configured and by which variable, its model, and its last capture's status and error.
// test-process: shared
import test from 'ava';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { fakeLlm, type FakeLlm } from '../../helpers/fake-llm.ts';
import { HAVE_CHROMIUM, launch, person, seriousViolations, signIn } from './helpers.ts';

let server: TestServer;
let browser: Browser;
let llm: FakeLlm;

test.before(async () => {
  if (!HAVE_CHROMIUM) return;
  llm = await fakeLlm([{ kind: 'status', status: 400 }]);
  server = await startTestServer({
    TRACKING_ENGINE: 'live',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_MODEL: 'gpt-4o-mini',
    TRACKING_MAX_ATTEMPTS: '1',
    RATE_LIMIT_MAX: '100000',
  });
  browser = await launch();
});

test.after.always(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.close();
});

const browserTest = HAVE_CHROMIUM ? test : test.skip;

browserTest('Settings > Platforms: configured or not by which variable, the model, the last capture', async (t) => {
  const who = await person(server);
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, server, who);
  // Today's capture: ChatGPT's provider answers 400, Perplexity has no key.
  const started = await page.request.post(`${server.url}/app/api/op/capture-now`, {
    data: { brand_id: who.brandId },
    headers: { 'x-csrf-token': (await page.locator('meta[name="csrf-token"]').getAttribute('content')) ?? '' },
  });
  t.is(started.status(), 200, await started.text());
  // The capture runs in the background: wait for ChatGPT's slot to fail.
  for (let i = 0; i < 200; i++) {
    const list = await (await page.request.get(`${server.url}/app/api/op/platforms`)).json();
    if (list.find((p: any) => p.platform === 'chatgpt')?.last_capture?.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await page.goto(`${server.url}/app/settings/platforms`);
  const table = page.getByRole('table', { name: 'Platforms' });
  await table.waitFor();
  const row = async (name: string) =>
    (
      await table
        .getByRole('row', { name: new RegExp(`^${name}`) })
        .locator('td')
        .allInnerTexts()
    ).map((s) => s.replace(/\s+/g, ' ').trim());
  const [platform, configured, variable, model, onPlan, last, error] = await row('ChatGPT');
  t.deepEqual(
    [platform, configured, variable, model, onPlan],
    ['ChatGPT', 'Configured OPENAI_API_KEY is set', 'OPENAI_API_KEY', 'gpt-4o-mini', 'Yes'],
  );
  t.regex(last, /^Failed \w{3} \d+, \d{4}/);
  t.regex(error, /400/);
  const perplexity = await row('Perplexity');
  t.deepEqual(perplexity.slice(0, 5), [
    'Perplexity',
    'Not configured set PERPLEXITY_API_KEY',
    'PERPLEXITY_API_KEY',
    'sonar',
    'Yes',
  ]);
  t.regex(perplexity[5], /^Not configured \w{3} \d+, \d{4}/);
  t.is(perplexity[6], 'PERPLEXITY_API_KEY is not set');
  t.deepEqual(await seriousViolations(page), []);
  t.deepEqual(errors, []);
});
