// What the app's tests share: a signed-in person of a fresh tenant, Debian's Chromium driven by
// playwright-core, axe-core run in a page, and fetch with a session cookie.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.ts';
import { seedTenant, type TestServer } from '../../helpers/server.ts';
import { setPasswordByEmail } from '../../../src/tenancy/accounts.ts';

export { HAVE_CHROMIUM } from '../../helpers/chromium.ts';

/**
 * Playwright's 30-second default for a wait: a page of the app on a machine running the whole suite
 * beside other work can take longer than that to go quiet, which says nothing about the page.
 */
export const PAGE_TIMEOUT_MS = 120_000;

/** Debian's Chromium, headless; every context it opens waits up to PAGE_TIMEOUT_MS. */
export async function launch(): Promise<Browser> {
  const browser = await launchChromium();
  const newContext = browser.newContext.bind(browser);
  // browser.newPage opens its context through this too.
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    return context;
  };
  return browser;
}

export interface Person {
  email: string;
  password: string;
  organizationId: string;
  brandId: string;
  promptIds: string[];
  key: string;
}

/** A new organization whose first member (its admin) has a password. */
export async function person(server: TestServer, brands?: any[]): Promise<Person> {
  const tenant = await seedTenant(server, brands);
  const password = randomBytes(9).toString('base64url');
  await setPasswordByEmail(server.stores.pg, tenant.email, password);
  return {
    email: tenant.email,
    password,
    organizationId: tenant.organizationId,
    brandId: tenant.brandId,
    promptIds: tenant.promptIds,
    key: tenant.key,
  };
}

/** Signs in through the form, as a person would; resolves on the page the app opened. */
export async function signIn(page: Page, server: TestServer, who: { email: string; password: string }, path = '/app') {
  await page.goto(`${server.url}${path}`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await Promise.all([
    page.waitForURL((u) => !u.pathname.startsWith('/app/sign-in')),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
}

/**
 * What has the keyboard's focus, once it is `want` (an element's id, else its text) or after
 * PAGE_TIMEOUT_MS. The app moves focus in an effect, a paint after the key or click that asked for
 * it, so a look at once races the page; the caller's assertion on the answer still fails if focus
 * never arrives.
 */
export async function focusedOnceAt(page: Page, want: string): Promise<string | undefined> {
  const at = () => {
    const el = document.activeElement;
    return el?.id || el?.textContent || undefined;
  };
  await page.waitForFunction(`(${at})() === ${JSON.stringify(want)}`).catch(() => undefined);
  return page.evaluate(at);
}

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now, as `rule: target` lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Injected through the DevTools protocol, so the page's own script-src policy does not apply.
  await page.evaluate(AXE);
  const results = await page.evaluate(async () => (window as any).axe.run(document, { resultTypes: ['violations'] }));
  return (results.violations as any[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n: any) => `${v.id}: ${n.target.join(' ')}`));
}

/**
 * Signs in over HTTP and returns the session cookie and the change token of the app's page;
 * `headers` go with the sign-in (an X-Forwarded-For, to sign in from another address).
 */
export async function session(
  server: TestServer,
  who: { email: string; password: string },
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ email: who.email, password: who.password }),
  });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  if (res.status !== 303 || !cookie) throw new Error(`sign-in answered ${res.status}`);
  const shell = await (await fetch(`${server.url}/app/settings/keys`, { headers: { cookie } })).text();
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(shell)?.[1] ?? '';
  return { cookie, csrf };
}

/** Calls an app route with the session: GET, or POST with JSON and the change token. */
export async function appCall(
  server: TestServer,
  s: { cookie: string; csrf: string },
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}/app/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      cookie: s.cookie,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'x-csrf-token': s.csrf }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}
