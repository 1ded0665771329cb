// The consent page in a real browser (Debian's Chromium through playwright-core): a person finds
// the key field by its label, pastes a key, sees the organization, allows, and lands on the
// client's redirect URI with the code and the state; or denies. A signed-in person allows with one
// click, a person signs in on the page itself, and one in two organizations picks one. The page loads nothing from
// anywhere else, and its Content-Security-Policy blocks nothing it needs (the redirect included).
// test-process: shared
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { HAVE_CHROMIUM, launchChromium } from '../../helpers/chromium.ts';
import { seedTenant, startTestServer, type TestServer } from '../../helpers/server.ts';
import { authorizeUrl, pkce, registerClient } from './helpers.ts';
import { setPasswordByEmail } from '../../../src/tenancy/accounts.ts';
import { addMember } from '../../../src/tenancy/members.ts';

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
  browser = await launchChromium();
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

/** A person with a password, signed in to the app in `context`'s browser. */
async function signedIn(context: Awaited<ReturnType<Browser['newContext']>>, password = 'a long browser passphrase') {
  const tenant = await seedTenant(server);
  await setPasswordByEmail(server.stores.pg, tenant.email, password);
  const page = await context.newPage();
  await page.goto(`${server.url}/app/sign-in`);
  await page.getByLabel('Email').fill(tenant.email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForURL(/\/app\/brands\//), page.getByRole('button', { name: 'Sign in' }).click()]);
  await page.close();
  return { tenant, password };
}

async function consentUrl(state: string) {
  const reg = await registerClient(server, { client_name: 'Browser assistant', redirect_uris: [redirectUri] });
  return authorizeUrl(server, {
    client_id: reg.body.client_id,
    redirect_uri: redirectUri,
    code_challenge: pkce().challenge,
    state,
  });
}

// Chromium posts the no-referrer page's forms with `Origin: null`: they must still work.
chromiumTest('a signed-in person allows with one click in a real browser', async (t) => {
  const context = await browser.newContext();
  t.teardown(() => context.close());
  const { tenant } = await signedIn(context);
  const page = await context.newPage();
  await page.goto(await consentUrl('signed-in'));
  const organization = tenant.workspace.organizations[0].name;
  await page.getByRole('heading', { name: `Allow access to ${organization}?` }).waitFor();
  await Promise.all([page.waitForURL(/\/callback\?/), page.getByRole('button', { name: 'Allow' }).click()]);
  const back = new URL(page.url());
  t.truthy(back.searchParams.get('code'));
  t.is(back.searchParams.get('state'), 'signed-in');
});

chromiumTest(
  'a person signs in on the consent page, sees the organization and allows, in a real browser',
  async (t) => {
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const tenant = await seedTenant(server);
    await setPasswordByEmail(server.stores.pg, tenant.email, 'consent page passphrase');
    const page = await context.newPage();
    await page.goto(await consentUrl('sign-in-here'));
    await page.getByLabel('Email').fill(tenant.email);
    await page.getByLabel('Password').fill('consent page passphrase');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const organization = tenant.workspace.organizations[0].name;
    await page.getByRole('heading', { name: `Allow access to ${organization}?` }).waitFor();
    await Promise.all([page.waitForURL(/\/callback\?/), page.getByRole('button', { name: 'Allow' }).click()]);
    t.truthy(new URL(page.url()).searchParams.get('code'));
    t.is(new URL(page.url()).searchParams.get('state'), 'sign-in-here');
  },
);

chromiumTest('a person in two organizations chooses one on the consent page', async (t) => {
  const context = await browser.newContext();
  t.teardown(() => context.close());
  const { tenant } = await signedIn(context);
  const other = await seedTenant(server);
  await addMember(server.stores.pg, tenant.email, other.organizationId);
  const page = await context.newPage();
  await page.goto(await consentUrl('choose'));
  await page.getByLabel('Organization').selectOption(other.organizationId);
  await Promise.all([page.waitForURL(/\/callback\?/), page.getByRole('button', { name: 'Allow' }).click()]);
  t.truthy(new URL(page.url()).searchParams.get('code'));
  const { rows } = await server.stores.pg.query(
    'SELECT organization_id FROM oauth_grants g JOIN users u ON u.id = g.user_id WHERE u.email = $1',
    [tenant.email],
  );
  t.deepEqual(
    rows.map((r) => r.organization_id),
    [other.organizationId],
  );
});
