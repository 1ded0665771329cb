// A marketer starts alone, in Debian's Chromium, without the command line: the setup address the
// fresh server logs, the organization and its admin, a brand from its website (a local site; the
// address rules are relaxed with ALLOW_PRIVATE_URLS=1), suggested prompts added with one click,
// the cost preview, Capture now with the simulated engine, and the overview filling with today's
// answers; Settings > Platforms says what is configured. FIRST_BRAND_SCREENSHOTS=DIR writes the
// README's screenshots there (docs/images).
// test-process: shared
// test-weight: 3
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import test from 'ava';
import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { startSite, type TestSite } from '../../audits/fixtures/site.ts';
import { HAVE_CHROMIUM, launch, seriousViolations } from './helpers.ts';

let server: TestServer;
let browser: Browser;
let site: TestSite;
let logged = '';
const SHOTS = process.env.FIRST_BRAND_SCREENSHOTS;

test.before(async () => {
  if (!HAVE_CHROMIUM) return;
  site = await startSite({
    '/': {
      body: `<!doctype html><html lang="en"><head><title>Trailpeak | Trail running shoes</title>
<meta property="og:site_name" content="Trailpeak Outdoors">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Trailpeak","alternateName":"Trail Peak"}</script>
</head><body><main><h1>Trailpeak</h1><p>Shoes for the mountains.</p></main></body></html>`,
    },
  });
  const sink = new Writable({
    write(chunk, _enc, done) {
      logged += chunk;
      done();
    },
  });
  server = await startTestServer(
    { TRACKING_ENGINE: 'simulated', ALLOW_PRIVATE_URLS: '1', RATE_LIMIT_MAX: '100000' },
    { log: pino({ level: 'info' }, sink) },
  );
  browser = await launch();
});

test.after.always(async () => {
  await browser?.close();
  await server?.stop();
  await site?.close();
});

async function shot(page: Page, name: string, fullPage = true) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

const browserTest = HAVE_CHROMIUM ? test : test.skip;

browserTest('from the setup address to a brand with answers', async (t) => {
  const address = /"setup_url":"([^"]+)"/.exec(logged)?.[1];
  t.truthy(address, 'the server logs the setup address');
  const setupUrl = new URL(address!);
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  // 1. First run: the organization and its first admin.
  await page.goto(`${server.url}${setupUrl.pathname}${setupUrl.search}`);
  await page.getByLabel('Organization', { exact: true }).fill('Trailpeak GmbH');
  await page.getByLabel('Email', { exact: true }).fill('maya@trailpeak.example');
  await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
  await shot(page, 'first-brand-1-setup');
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/app'),
    page.getByRole('button', { name: 'Create organization' }).click(),
  ]);
  await page.getByRole('heading', { name: 'No brand yet' }).waitFor();
  t.is((await page.request.get(`${server.url}${setupUrl.pathname}${setupUrl.search}`)).status(), 404);

  // 2. A brand from its website: the proposal is edited, then created.
  await page.getByRole('link', { name: 'Add your first brand' }).click();
  await page.getByLabel('Website', { exact: true }).fill(site.url('/'));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Name', { exact: true }).waitFor();
  t.is(await page.getByLabel('Name', { exact: true }).inputValue(), 'Trailpeak');
  t.is(await page.getByLabel('Domain', { exact: true }).inputValue(), '127.0.0.1');
  t.is(await page.getByLabel('Aliases', { exact: true }).inputValue(), 'Trail Peak, Trailpeak Outdoors');
  await page.getByLabel('Domain', { exact: true }).fill('trailpeak.example');
  t.deepEqual(await seriousViolations(page), []);
  await shot(page, 'first-brand-2-website');
  await Promise.all([
    page.waitForURL((u) => /^\/app\/brands\/[^/]+\/setup$/.test(u.pathname)),
    page.getByRole('button', { name: 'Create brand' }).click(),
  ]);
  const brandId = new URL(page.url()).pathname.split('/')[3];

  // 3. Set-up: the category fills the templates; prompts and a competitor are added with one click.
  await page.getByLabel('Kind of business', { exact: true }).selectOption('online_store');
  await page.getByLabel('Category', { exact: true }).fill('trail running shoes');
  await page.getByRole('button', { name: 'Suggest' }).click();
  await page.getByRole('button', { name: 'Add best trail running shoes to buy online' }).waitFor();
  await page.getByRole('button', { name: 'Add all 3 of Best trail running shoes' }).click();
  await page.getByText('3 active prompts.').waitFor();
  await page.getByLabel('Competitor', { exact: true }).fill('Northwind');
  await page.getByRole('button', { name: 'Add competitor' }).click();
  await page.getByText('Tracked: Northwind').waitFor();
  // The cost preview: 3 prompts on the starter plan's two platforms, one region, one sample.
  const preview = page.getByRole('table', { name: 'Captures and cost per platform' });
  await preview.getByRole('row').nth(2).waitFor();
  const rows = await preview.locator('tbody tr').allTextContents();
  t.is(rows.length, 2);
  const first = await preview.locator('tbody tr').first().locator('td, th').allTextContents();
  t.deepEqual(first.slice(0, 4), ['ChatGPT', 'gpt-4o', '3', '90']);
  // Samples a day: 2 are kept as the brand's fixed sampling, and the preview follows.
  await page.getByLabel('Samples a day', { exact: true }).fill('2');
  await page.getByRole('button', { name: 'Save samples a day' }).click();
  await page.getByText('Saved: the daily capture asks each prompt 2 times a day.').waitFor();
  const sampling = page.getByRole('table', { name: 'Fixed and adaptive sampling' });
  await sampling.getByRole('row', { name: /Fixed: 2 a day/ }).waitFor();
  const fixedRow = await sampling
    .getByRole('row', { name: /Fixed: 2 a day/ })
    .locator('td, th')
    .allTextContents();
  t.deepEqual(fixedRow.slice(0, 3), ['Fixed: 2 a day in use', '12', '360']);
  t.deepEqual(await seriousViolations(page), []);
  await shot(page, 'first-brand-3-setup');

  // 4. The overview: no answers yet, when the daily capture runs; Capture now fills it.
  await page.getByRole('link', { name: 'Go to the overview' }).click();
  await page.getByRole('heading', { name: 'No answers yet' }).waitFor();
  t.regex(await page.locator('#main').innerText(), /The daily capture runs next at \d{4}-\d{2}-\d{2} 05:00 UTC/);
  await page.getByRole('button', { name: 'Capture now' }).click();
  await page.getByText("Today's capture: 12 of 12 answers").waitFor();
  // The set-up page's samples reached the captured slots: 2 per prompt and platform, fixed.
  const { rows: slots } = await server.stores.pg.query(
    'SELECT sample, reason, count(*)::int AS n FROM capture_runs WHERE brand_id = $1 GROUP BY 1, 2 ORDER BY 1',
    [brandId],
  );
  t.deepEqual(slots, [
    { sample: 0, reason: 'fixed', n: 6 },
    { sample: 1, reason: 'fixed', n: 6 },
  ]);
  await page.locator('#main[data-ready="true"]').waitFor();
  const cards = await page.locator('#main').innerText();
  t.notRegex(cards, /No answers yet/);
  t.regex(page.url(), /date_to=\d{4}-\d{2}-\d{2}/);
  await shot(page, 'first-brand-4-overview', false);
  // The figures count today's answers (shopping answers apart, as everywhere).
  const summary = await page.request.get(`${server.url}/app/api/op/visibility-summary?brand_id=${brandId}`);
  t.true((await summary.json()).totals.resultCount > 0);

  // 5. Settings > Platforms: the simulated engine answers every platform.
  await page.goto(`${server.url}/app/settings/platforms`);
  await page.getByRole('table', { name: 'Platforms' }).waitFor();
  t.regex(await page.locator('#main').innerText(), /simulated engine/);
  // Configured by the engine, not by a provider's key that may well be unset.
  const chatgpt = page.getByRole('table', { name: 'Platforms' }).getByRole('row', { name: /^ChatGPT/ });
  t.is((await chatgpt.locator('td').nth(1).innerText()).replace(/\s+/g, ' '), 'Configured TRACKING_ENGINE=simulated');
  await shot(page, 'first-brand-5-platforms');
  t.deepEqual(errors, []);
});
