// The first-run pages' promises (CONTRACT section 25) in Debian's Chromium, on the live engine with
// no provider key: the overview of a brand tracking platforms that are not configured says so as a
// notice, never a failure, and its capture counts them apart from failures; the next scheduled
// capture is given in UTC and in the viewer's time; New brand puts a website that does not answer
// beside `Website` and a name already used (409) beside `Name`, and creates nothing. The checklist
// panel ticks the steps done, links the others, and once dismissed stays away. Capture now's
// progress reaches the page from a server that answers slower than the page polls.
// test-process: shared
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { startSite, type TestSite } from '../../audits/fixtures/site.ts';
import { HAVE_CHROMIUM, launch, person, seriousViolations, signIn } from './helpers.ts';

let server: TestServer;
let browser: Browser;
let site: TestSite;
let silent: net.Server;
const sockets = new Set<net.Socket>();

test.before(async () => {
  if (!HAVE_CHROMIUM) return;
  // A site whose home page proposes the name Acme, which the person's organization already uses.
  site = await startSite({
    '/': { body: '<!doctype html><html lang="en"><head><title>Acme</title></head><body><h1>Acme</h1></body></html>' },
  });
  // A site that takes the connection and never answers.
  silent = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  server = await startTestServer({
    TRACKING_ENGINE: 'live',
    ALLOW_PRIVATE_URLS: '1',
    AUDIT_TIMEOUT_MS: '1000',
    RATE_LIMIT_MAX: '100000',
  });
  browser = await launch();
});

test.after.always(async () => {
  await browser?.close();
  await server?.stop();
  await site?.close();
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => (silent ? silent.close(resolve) : resolve(undefined)));
});

const browserTest = HAVE_CHROMIUM ? test : test.skip;

browserTest('overview: unconfigured platforms a notice, the next capture in your time, the checklist', async (t) => {
  const who = await person(server); // Acme tracks one prompt on ChatGPT and Perplexity
  const context = await browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'en-US' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, server, who, `/app/brands/${who.brandId}`);
  await page.getByRole('heading', { name: 'No answers yet' }).waitFor();
  const notice = page.locator('#main p.notice', { hasText: 'not configured' });
  t.is(
    (await notice.innerText()).trim(),
    'Tracked but not configured on this server, so not captured: ChatGPT (set OPENAI_API_KEY), ' +
      'Perplexity (set PERPLEXITY_API_KEY). See Settings › Platforms.',
  );
  // A notice, not an alarm: no alert and no error on the page.
  t.is(await page.getByRole('alert').count(), 0);
  t.is(await page.locator('#main .problem, #main .field-error').count(), 0);
  // 05:00 UTC is 14:00 in Tokyo (UTC+9, no daylight saving).
  t.regex(
    await page.locator('#main').innerText(),
    /The daily capture runs next at \d{4}-\d{2}-\d{2} 05:00 UTC \([A-Z][a-z]{2},? 02:00 PM GMT\+9 your time\)/,
  );
  t.deepEqual(await seriousViolations(page), []);
  // Capture now: both slots are counted as not configured, none as failed.
  await page.getByRole('button', { name: 'Capture now' }).click();
  const done = page.getByText("Today's capture: 0 of 2 answers, 2 on platforms not configured.");
  await done.waitFor();
  t.notRegex(await page.locator('#main').innerText(), /failed|It stopped/);

  // The checklist: the brand, its competitor and its prompt are done; the rest link to where they are
  // done (no platform is configured, nothing was captured, nobody invited, no assistant connected).
  const checklist = page.locator('#main section', { has: page.getByRole('heading', { name: 'Get started' }) });
  await checklist.getByText('4 steps left.').waitFor();
  t.deepEqual(
    (await checklist.locator('li').allInnerTexts()).map((x) => x.replace(/\s+/g, ' ').trim()),
    [
      '✓ Add a brand (done)',
      '✓ Add competitors (done)',
      '✓ Add prompts (done)',
      '○ Configure the platforms',
      '○ Capture the first answers',
      '○ Invite someone',
      '○ Connect an assistant',
    ],
  );
  t.is(
    await checklist.getByRole('link', { name: 'Connect an assistant' }).getAttribute('href'),
    '/app/settings/connect',
  );
  // Dismissed, it is gone, and stays gone.
  await checklist.getByRole('button', { name: 'Dismiss' }).click();
  await page.getByRole('heading', { name: 'Get started' }).waitFor({ state: 'detached' });
  const read = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/checklist'));
  await page.reload();
  t.false((await (await read).json()).show);
  await page.getByRole('heading', { name: 'No answers yet' }).waitFor();
  await page.locator('#main p.notice', { hasText: 'not configured' }).waitFor();
  t.is(await page.getByRole('heading', { name: 'Get started' }).count(), 0);
  t.deepEqual(errors, []);
  await context.close();
});

browserTest('New brand: a website that does not answer, and a name already used, beside their fields', async (t) => {
  const who = await person(server);
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, server, who, '/app/brands/new');
  const brands = async () =>
    Number(
      (
        await server.stores.pg.query('SELECT count(*)::int AS n FROM brands WHERE organization_id = $1', [
          who.organizationId,
        ])
      ).rows[0].n,
    );
  t.is(await brands(), 1);

  // The website takes the connection and never answers: its error is beside Website.
  const website = page.getByLabel('Website', { exact: true });
  await website.fill(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`);
  await page.getByRole('button', { name: 'Continue' }).click();
  const websiteError = page.locator('#website-error');
  await websiteError.first().waitFor();
  t.regex(await websiteError.first().innerText(), /^website could not be read/);
  t.is(await website.getAttribute('aria-invalid'), 'true');
  t.regex((await website.getAttribute('aria-describedby')) ?? '', /error/);
  t.is(await page.getByLabel('Name', { exact: true }).count(), 0, 'no proposal');

  // A site proposing Acme, the organization's brand already: 409 beside Name, nothing made.
  await website.fill(site.url('/'));
  await page.getByRole('button', { name: 'Continue' }).click();
  const name = page.getByLabel('Name', { exact: true });
  await name.waitFor();
  t.is(await name.inputValue(), 'Acme');
  await page.getByRole('button', { name: 'Create brand' }).click();
  const nameError = page.locator('#brand-name-error');
  await nameError.first().waitFor();
  t.regex(await nameError.first().innerText(), /already/);
  t.is(await name.getAttribute('aria-invalid'), 'true');
  t.true(new URL(page.url()).pathname === '/app/brands/new');
  t.is(await brands(), 1);
  t.deepEqual(await seriousViolations(page), []);
  t.deepEqual(errors, []);
});

browserTest("Capture now's progress arrives from a server slower than the page's poll", async (t) => {
  const who = await person(server);
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, server, who, `/app/brands/${who.brandId}`);
  await page.getByRole('heading', { name: 'No answers yet' }).waitFor();
  // Each read of the progress answers after 2 s, longer than the page waits between reads (1.5 s),
  // as a busy server does. The server's capture is over at once (no platform is configured), so
  // the first two answers it gives after Capture now are shown as a capture still running; the
  // page must wait for each answer before it asks again, or it drops every answer as stale.
  let sent = 0;
  await page.route(
    (u) => u.pathname === '/app/api/op/capture-progress',
    async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      await new Promise((resolve) => setTimeout(resolve, 2000));
      if (body.capture_now && sent++ < 2) body.capture_now.finished_at = null;
      await route.fulfill({ response: res, json: body }).catch(() => undefined); // a read dropped as stale
    },
  );
  await page.getByRole('button', { name: 'Capture now' }).click();
  await page.getByText('Capturing: 0 of 2 answers').waitFor();
  await page.getByText("Today's capture: 0 of 2 answers, 2 on platforms not configured.").waitFor();
  t.is(sent, 3, 'two answers while it ran, the third when it had finished: none asked twice');
  t.deepEqual(errors, []);
});
