// The consent page in a real browser (Debian's Chromium through playwright-core): a person finds
// the key field by its label, pastes a key, sees the organization, allows, and lands on the
// client's redirect URI with the code and the state; or denies. The page loads nothing from
// anywhere else, and its Content-Security-Policy blocks nothing it needs (the redirect included).
// test-process: shared
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { chromium, type Browser } from 'playwright-core';
import { seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { authorizeUrl, pkce, registerClient } from './oauth-helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);

let server: TestServer;
let callback: http.Server;
let redirectUri: string;
let browser: Browser;

test.before(async () => {
  if (!HAVE_CHROMIUM) return;
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  // The client's loopback listener, as a native MCP client runs one.
  callback = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><title>Back in the assistant</title><p>Done</p>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
});

test.after.always(async () => {
  await browser?.close();
  await new Promise((resolve) => (callback ? callback.close(resolve) : resolve(undefined)));
  await server?.stop();
});

const chromiumTest = HAVE_CHROMIUM ? test.serial : test.skip;

async function openConsent(state: string) {
  const tenant = await seedTenant(server);
  const reg = await registerClient(server, { client_name: 'Browser assistant', redirect_uris: [redirectUri] });
  const url = authorizeUrl(server, {
    client_id: reg.body.client_id,
    redirect_uri: redirectUri,
    code_challenge: pkce().challenge,
    state,
  });
  const context = await browser.newContext();
  const page = await context.newPage();
  const foreign: string[] = [];
  const cspViolations: string[] = [];
  page.on('request', (r) => {
    const origin = new URL(r.url()).origin;
    if (origin !== server.url && origin !== new URL(redirectUri).origin) foreign.push(r.url());
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  await page.goto(url);
  return { tenant, page, context, foreign, cspViolations };
}

chromiumTest('a person pastes a key, sees the organization, allows, and the client gets code and state', async (t) => {
  const state = 'state with spaces & symbols/=?';
  const { tenant, page, context, foreign, cspViolations } = await openConsent(state);
  t.teardown(() => context.close());
  t.is(await page.getAttribute('html', 'lang'), 'en');
  t.regex(await page.title(), /Connect an assistant/);
  t.true(await page.getByText('Browser assistant').isVisible());
  // Nothing is granted before the organization is shown: the first page has no Allow.
  t.is(await page.getByRole('button', { name: 'Allow' }).count(), 0);

  await page.getByLabel('Answerscope API key').fill(tenant.key);
  await page.getByRole('button', { name: 'Continue' }).click();
  const organization = tenant.workspace.organizations[0].name;
  await page.getByRole('heading', { name: `Allow access to ${organization}?` }).waitFor();
  t.is(await page.locator('#organization').textContent(), organization);
  t.true(await page.getByText('only when you explicitly ask').isVisible());

  await Promise.all([page.waitForURL(/\/callback\?/), page.getByRole('button', { name: 'Allow' }).click()]);
  const back = new URL(page.url());
  t.is(back.origin + back.pathname, redirectUri);
  t.truthy(back.searchParams.get('code'));
  t.is(back.searchParams.get('state'), state);
  t.is(back.searchParams.get('iss'), server.url);
  t.deepEqual(foreign, []);
  t.deepEqual(cspViolations, []);
});

chromiumTest('a wrong key is said so next to the field; deny returns access_denied with the state', async (t) => {
  const { page, context } = await openConsent('s1');
  t.teardown(() => context.close());
  await page.getByLabel('Answerscope API key').fill('ans_not_a_real_key');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('alert').waitFor();
  t.regex((await page.getByRole('alert').textContent()) ?? '', /does not exist or was revoked/);
  t.is(await page.getByLabel('Answerscope API key').getAttribute('aria-invalid'), 'true');
  // Deny needs no key.
  await Promise.all([page.waitForURL(/\/callback\?/), page.getByRole('button', { name: 'Deny' }).click()]);
  const back = new URL(page.url());
  t.is(back.searchParams.get('error'), 'access_denied');
  t.is(back.searchParams.get('state'), 's1');
  t.is(back.searchParams.get('code'), null);
});
