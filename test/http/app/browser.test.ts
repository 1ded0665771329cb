// The app as people meet it, in Debian's Chromium: sign in, a key created, used on the API and
// revoked, a member invited who sets a password, a form from another site refused, names and
// answers holding HTML and script shown as text, axe-core on every page, and the keyboard alone.
// test-process: shared
// test-weight: 7
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { ingestLines, startTestServer, type TestServer } from '../../helpers/server.ts';
import { focusedOnceAt, HAVE_CHROMIUM, launch, person, seriousViolations, signIn } from './helpers.ts';
import { missedByTab } from './keyboard.ts';
import { addMember, removeMember } from '../../../src/tenancy/members.ts';
import { setPasswordByEmail } from '../../../src/tenancy/accounts.ts';

// Without Chromium these are reported as skipped, never as passed (README, Quick start).
const browserTest = HAVE_CHROMIUM ? test : test.skip;

let server: TestServer;
let browser: Browser;

test.before(async () => {
  if (!HAVE_CHROMIUM) return;
  server = await startTestServer();
  browser = await launch();
});

test.after.always(async () => {
  await browser?.close();
  await server?.stop();
});

const whoami = (key: string) =>
  fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${key}` } }).then(async (r) => ({
    status: r.status,
    body: await r.json(),
  }));

async function newPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext()).newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

const SETTINGS = ['keys', 'members', 'webhooks', 'alerts', 'usage', 'connect', 'account'];

browserTest('a wrong password gets the one message beside the field, and no session', async (t) => {
  const who = await person(server);
  const { page } = await newPage();
  await page.goto(`${server.url}/app/settings/keys`);
  t.true(page.url().startsWith(`${server.url}/app/sign-in`));
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill('not the password');
  const [response] = await Promise.all([
    page.waitForResponse(/\/app\/sign-in$/),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  t.is(response.status(), 401);
  await t.notThrowsAsync(page.getByText('Email or password is incorrect').waitFor());
  t.is(await page.getByLabel('Password').getAttribute('aria-invalid'), 'true');
  t.deepEqual(await page.context().cookies(), []);
});

browserTest('sign in, create a key and use it on the API, revoke it and get 401', async (t) => {
  const who = await person(server);
  const { page, errors } = await newPage();
  await signIn(page, server, who, '/app/settings/keys');
  t.is(new URL(page.url()).pathname, '/app/settings/keys');

  await page.getByRole('button', { name: 'New key' }).click();
  // A name is required: the message stands beside the field and nothing is created.
  await page.getByRole('button', { name: 'Create key' }).click();
  t.is(await page.getByRole('textbox', { name: 'New API key' }).count(), 0);
  await page.getByLabel('Name', { exact: true }).fill('Looker Studio');
  await page.getByRole('button', { name: 'Create key' }).click();
  const field = page.getByRole('textbox', { name: 'New API key' });
  const key = await field.inputValue();
  t.true(await field.evaluate((el) => (el as HTMLInputElement).readOnly));
  t.regex(key, /^ans_/);
  await t.notThrowsAsync(page.getByRole('button', { name: 'Copy' }).waitFor());
  t.is((await whoami(key)).status, 200);
  t.is((await whoami(key)).body.email, who.email);

  // Shown once: a reload lists the key by its first characters only.
  await page.reload();
  await page.getByRole('cell', { name: 'Looker Studio', exact: true }).waitFor();
  t.false((await page.content()).includes(key));
  t.true((await page.content()).includes(key.slice(0, 8)));

  await page.getByRole('button', { name: 'Revoke Looker Studio' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await page.getByRole('cell', { name: 'Looker Studio', exact: true }).waitFor({ state: 'detached' });
  t.deepEqual(await whoami(key), { status: 401, body: { error: 'Invalid API key' } });
  // The person's other key (made by the command line) is listed and still works.
  t.is((await whoami(who.key)).status, 200);
  t.deepEqual(errors, []);
});

browserTest('an admin invites a member, who sets a password from the link and is signed in', async (t) => {
  const admin = await person(server);
  const { page } = await newPage();
  await signIn(page, server, admin, '/app/settings/members');
  const email = `new-${Date.now()}@example.test`;
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Role').selectOption('member');
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = await page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  t.regex(link, /\/app\/invitations\//);

  const { page: invited } = await newPage();
  await invited.goto(link);
  t.is(await invited.getByLabel('Email').inputValue(), email);
  // Too short a password: the problem beside the field, nobody joined.
  await invited.getByLabel('Password').fill('short');
  await invited.getByRole('button', { name: /^Join / }).click();
  await invited.getByText('Password must be at least 10 characters').waitFor();
  await invited.getByLabel('Password').fill('a good long password');
  await Promise.all([invited.waitForURL(/\/app\/brands\//), invited.getByRole('button', { name: /^Join / }).click()]);
  await invited.getByText(`Signed in as`).waitFor();
  const me = await invited.evaluate(() => fetch('/app/api/me').then((r) => r.json()));
  t.is(me.email, email);
  t.is(me.role, 'member');
  t.is(me.organization.id, admin.organizationId);

  // The link was good once.
  const again = await (await browser.newContext()).newPage();
  const response = await again.goto(link);
  t.is(response?.status(), 404);
  await t.notThrowsAsync(again.getByText('This invitation link was already used or has expired').waitFor());

  // The admin sees the new member; Remove asks first, then the member is gone.
  await page.reload();
  await page.getByRole('cell', { name: email, exact: true }).waitFor();
  await page.getByRole('button', { name: `Remove ${email}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
  await page.getByRole('cell', { name: email, exact: true }).waitFor({ state: 'detached' });
  // The removed member's session sees no brand of the organization on its next request.
  const brands = await invited.evaluate(() => fetch('/app/api/op/brands').then((r) => r.json()));
  t.deepEqual(brands, []);
});

browserTest('a form posted from another site changes nothing and answers 403', async (t) => {
  const who = await person(server);
  // Another origin serves pages whose forms post to the app.
  const site = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    const target = req.url === '/sign-out' ? '/app/sign-out' : '/app/sign-in';
    res.end(`<!doctype html><title>elsewhere</title><form method="post" action="${server.url}${target}">
<input name="email" value="${who.email}"><input name="password" value="${who.password}"><input name="csrf" value="x">
<button>Go</button></form>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const elsewhere = `http://localhost:${(site.address() as AddressInfo).port}`;
  try {
    const { page } = await newPage();
    // A sign-in posted from another site opens no session.
    await page.goto(`${elsewhere}/sign-in`);
    const [signInPost] = await Promise.all([
      page.waitForResponse(/\/app\/sign-in$/),
      page.getByRole('button', { name: 'Go' }).click(),
    ]);
    t.is(signInPost.status(), 403);
    t.deepEqual(await page.context().cookies(), []);

    // Signed in here, a sign-out posted from the other site leaves the session alone.
    await signIn(page, server, who);
    await page.goto(`${elsewhere}/sign-out`);
    const [signOutPost] = await Promise.all([
      page.waitForResponse(/\/app\/sign-out$/),
      page.getByRole('button', { name: 'Go' }).click(),
    ]);
    t.is(signOutPost.status(), 403);
    await page.goto(`${server.url}/app/settings/keys`);
    t.is(new URL(page.url()).pathname, '/app/settings/keys');
  } finally {
    await new Promise((resolve) => site.close(resolve));
  }
});

const HOSTILE = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>`;

browserTest('names and answers holding HTML and script are shown as text and run nothing', async (t) => {
  const who = await person(server, [
    {
      name: `Acme ${HOSTILE}`,
      slug: 'acme',
      industry: 'Software',
      region: 'US',
      domains: ['acme.example'],
      aliases: ['Acme'],
      competitors: [
        { name: `Globex <b onmouseover="window.__xss=3">bold</b>`, domains: ['globex.example'], aliases: [] },
      ],
      topics: [{ name: 'CRM', prompts: [{ text: `best crm ${HOSTILE}`, platforms: ['chatgpt'], regions: ['US'] }] }],
    },
  ]);
  const text = `Acme and Globex <b onmouseover="window.__xss=3">bold</b> are good. ${HOSTILE}`;
  await ingestLines(server, [
    {
      prompt_id: who.promptIds[0],
      platform: 'chatgpt',
      model: 'gpt-4o',
      region: 'US',
      // Yesterday: inside the overview's default range (the last 30 complete UTC days).
      collected_at: `${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}T10:00:00Z`,
      text,
      citations: [{ url: 'https://acme.example/a', title: `<script>window.__xss=4</script>` }],
    },
  ]);
  const { page, errors } = await newPage();
  await signIn(page, server, who);
  await page.getByText('Latest answers').waitFor();
  await page.locator('.answer-text').first().waitFor();
  t.is(await page.locator('.answer-text').first().textContent(), text);
  t.is(await page.getByRole('heading', { level: 1 }).textContent(), `Acme ${HOSTILE}`);
  // The answer's citation (the overview's top URLs list the same title).
  await t.notThrowsAsync(
    page.getByRole('article').getByRole('link', { name: '<script>window.__xss=4</script>' }).waitFor(),
  );
  // The leaderboard and the prompts' best competitor both name it, as text.
  await t.notThrowsAsync(
    page.getByRole('cell', { name: 'Globex <b onmouseover="window.__xss=3">bold</b>' }).first().waitFor(),
  );
  await page.getByText('bold</b> are good').hover();
  t.is(await page.evaluate(() => (window as any).__xss), undefined);
  t.is(await page.locator('main img, main script, main b').count(), 0);
  t.deepEqual(errors, []);
});

browserTest('axe-core finds no serious or critical violation on any page', async (t) => {
  const who = await person(server);
  const { page } = await newPage();
  await page.goto(`${server.url}/app/sign-in`);
  const found: Record<string, string[]> = { 'sign-in': await seriousViolations(page) };
  await signIn(page, server, who);
  await page.getByText('Latest answers').waitFor();
  found.overview = await seriousViolations(page);
  for (const name of SETTINGS) {
    await page.goto(`${server.url}/app/settings/${name}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    found[name] = await seriousViolations(page);
  }
  // The states a page shows after an action: a new key, an open confirmation, an invitation.
  await page.goto(`${server.url}/app/settings/keys`);
  await page.getByRole('button', { name: 'New key' }).click();
  await page.getByLabel('Name', { exact: true }).fill('k');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('textbox', { name: 'New API key' }).waitFor();
  found['new key'] = await seriousViolations(page);
  await page.getByRole('button', { name: 'Revoke k' }).click();
  found['revoke dialog'] = await seriousViolations(page);
  await page.goto(`${server.url}/app/settings/members`);
  await page.getByLabel('Email').fill(`axe-${Date.now()}@example.test`);
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = await page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  found.invitation = await seriousViolations(page);
  const { page: invited } = await newPage();
  await invited.goto(link);
  found['invitation page'] = await seriousViolations(invited);
  t.deepEqual(
    Object.entries(found).filter(([, v]) => v.length),
    [],
  );
});

browserTest('every page works with the keyboard alone', async (t) => {
  const who = await person(server, [
    {
      name: 'Acme',
      slug: 'acme',
      industry: 'Software',
      region: 'US',
      domains: ['acme.example'],
      aliases: [],
      competitors: [{ name: 'Globex', domains: ['globex.example'], aliases: [] }],
      topics: [
        {
          name: 'CRM',
          prompts: Array.from({ length: 8 }, (_, i) => ({
            text: `best crm ${i + 1}`,
            platforms: ['chatgpt', 'perplexity'],
            regions: ['US'],
          })),
        },
      ],
    },
  ]);
  // Answers citing many sources, so the overview's tables and answers hold over 100 stops.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await ingestLines(
    server,
    Array.from({ length: 24 }, (_, i) => ({
      prompt_id: who.promptIds[i % 8],
      platform: i % 2 ? 'perplexity' : 'chatgpt',
      model: i % 2 ? 'sonar' : 'gpt-4o',
      region: 'US',
      collected_at: `${yesterday}T${String(i).padStart(2, '0')}:00:00Z`,
      // Odd answers name Globex alone: their sources make the citation gap.
      text: `Answer ${i}: **${i % 2 ? 'Globex' : 'Acme'}** is a good CRM.`,
      citations: [1, 2, 3].map((k) => ({ url: `https://site${i}-${k}.example/p`, title: `Source ${i}-${k}` })),
    })),
  );
  const { page } = await newPage();
  // Sign in with the keyboard.
  await page.goto(`${server.url}/app/sign-in`);
  await page.keyboard.press('Tab');
  await page.keyboard.type(who.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(who.password);
  await Promise.all([page.waitForURL(/\/app\/brands\//), page.keyboard.press('Enter')]);
  // The overview has drawn every part (its main element says so).
  await page.locator('#main[data-ready="true"]').waitFor();

  // Every control of every page is reached by Tab (none is only for the mouse).
  for (const name of ['', ...SETTINGS]) {
    if (name) await page.goto(`${server.url}/app/settings/${name}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    const { reached, missed } = await missedByTab(page);
    if (!name) t.true(reached.length > 100, `the overview's ${reached.length} stops`);
    t.deepEqual(missed, [], `not reached by Tab on ${name || 'the overview'}`);
  }

  // Create and revoke a key with the keyboard: Enter on buttons, Escape and Tab in the dialog.
  await page.goto(`${server.url}/app/settings/keys`);
  await page.getByRole('button', { name: 'New key' }).focus();
  await page.keyboard.press('Enter');
  await page.getByLabel('Name', { exact: true }).focus();
  await page.keyboard.type('keyboard');
  await page.keyboard.press('Enter');
  const key = await page.getByRole('textbox', { name: 'New API key' }).inputValue();
  await page.getByRole('button', { name: 'Revoke keyboard' }).focus();
  await page.keyboard.press('Enter');
  // The dialog opens on Cancel; Escape closes it and nothing is revoked. It opens after the next
  // paint (an effect), so a key pressed before that would land on the page behind it.
  t.is(await focusedOnceAt(page, 'Cancel'), 'Cancel');
  await page.keyboard.press('Escape');
  // Closed, as a person sees it, before the next key: the dialog's close event clears the key it
  // was opened for, and a press before it would open nothing.
  await page.locator('dialog').waitFor({ state: 'detached' });
  t.is((await whoami(key)).status, 200);
  await page.getByRole('button', { name: 'Revoke keyboard' }).focus();
  await page.keyboard.press('Enter');
  t.is(await focusedOnceAt(page, 'Cancel'), 'Cancel');
  await page.keyboard.press('Tab');
  t.is(await page.evaluate(() => document.activeElement?.textContent), 'Revoke key');
  await page.keyboard.press('Enter');
  await page.getByRole('cell', { name: 'keyboard', exact: true }).waitFor({ state: 'detached' });
  t.is((await whoami(key)).status, 401);
});

browserTest('a member who is not an admin sees the members, without Invite, role controls or Remove', async (t) => {
  const admin = await person(server);
  const email = `plain-${Date.now()}@example.test`;
  const password = 'a plain member passphrase';
  await addMember(server.stores.pg, email, admin.organizationId);
  await setPasswordByEmail(server.stores.pg, email, password);
  const { page } = await newPage();
  await signIn(page, server, { email, password }, '/app/settings/members');
  await page.getByRole('cell', { name: admin.email, exact: true }).waitFor();
  t.is(await page.getByRole('button', { name: 'Invite' }).count(), 0);
  t.is(await page.getByLabel('Role').count(), 0);
  t.is(await page.getByRole('button', { name: /^Remove / }).count(), 0);
  t.is(await page.getByRole('button', { name: /^Make / }).count(), 0);
  t.is(await page.getByRole('heading', { name: 'Pending invitations' }).count(), 0);
  t.deepEqual(await seriousViolations(page), []);
});

browserTest('a person in two organizations switches with the Organization select, and sees its brands', async (t) => {
  const one = await person(server);
  const two = await person(server);
  await addMember(server.stores.pg, one.email, two.organizationId);
  const { page, errors } = await newPage();
  await signIn(page, server, one);
  const select = page.getByLabel('Organization');
  await select.waitFor();
  const current = await select.inputValue();
  const target = current === one.organizationId ? two : one;
  await Promise.all([
    page.waitForURL(new RegExp(`/app/brands/${target.brandId}`)),
    select.selectOption(target.organizationId),
  ]);
  t.is(await page.getByLabel('Organization').inputValue(), target.organizationId);
  // A brand of an organization the person is not in: Brand not found.
  const stranger = await person(server);
  await page.goto(`${server.url}/app/brands/${stranger.brandId}`);
  await page.getByRole('heading', { name: 'Brand not found' }).waitFor();
  // Settings > Account lists the sessions and offers to leave each organization.
  await page.goto(`${server.url}/app/settings/account`);
  await page.getByRole('button', { name: 'Sign out other sessions' }).waitFor();
  await page.getByRole('button', { name: `Leave ${await orgName(server, two.organizationId)}` }).waitFor();
  t.deepEqual(await seriousViolations(page), []);
  t.deepEqual(errors, []);
});

const orgName = async (on: TestServer, id: string) =>
  (await on.stores.pg.query('SELECT name FROM organizations WHERE id = $1', [id])).rows[0].name as string;

browserTest('a person in no organization sees a page saying so, and nothing else', async (t) => {
  const admin = await person(server);
  const email = `alone-${Date.now()}@example.test`;
  const password = 'a passphrase of their own';
  await addMember(server.stores.pg, email, admin.organizationId);
  await setPasswordByEmail(server.stores.pg, email, password);
  await removeMember(server.stores.pg, email, admin.organizationId);
  const { page, errors } = await newPage();
  for (const path of ['/app', '/app/settings/keys', `/app/brands/${admin.brandId}`]) {
    if (path === '/app') await signIn(page, server, { email, password });
    else await page.goto(`${server.url}${path}`);
    await page.getByRole('heading', { name: 'No organization' }).waitFor();
    t.regex((await page.locator('body').textContent()) ?? '', /belong to no organization, so there is nothing to show/);
    t.is(await page.getByRole('navigation').count(), 0, path);
    t.is(await page.getByLabel('Organization').count(), 0, path);
    t.is(await page.getByRole('link').count(), 0, path);
    t.deepEqual(await page.getByRole('button').allInnerTexts(), ['Sign out'], path);
  }
  t.deepEqual(await seriousViolations(page), []);
  t.deepEqual(errors, []);
});

browserTest('with one organization there is no Organization select', async (t) => {
  const who = await person(server);
  const { page } = await newPage();
  await signIn(page, server, who, '/app/settings/keys');
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  await page.getByRole('navigation').first().waitFor();
  t.is(await page.getByLabel('Organization').count(), 0);
});

browserTest(
  'Settings > Members lists a pending invitation with its expiry; Revoke invitation <email> ends it',
  async (t) => {
    const admin = await person(server);
    const email = `pending-${Date.now()}@example.test`;
    const { page, errors } = await newPage();
    await signIn(page, server, admin, '/app/settings/members');
    const inviteForm = page.getByRole('form', { name: 'Invite a member' });
    await inviteForm.getByLabel('Email').fill(email);
    await inviteForm.getByRole('button', { name: 'Invite' }).click();
    const table = page.getByRole('table', { name: 'Pending invitations' });
    const row = table.getByRole('row').filter({ hasText: email });
    await row.waitFor();
    const { rows } = await server.stores.pg.query<{ expires_at: Date }>(
      'SELECT expires_at FROM invitations WHERE email = $1',
      [email],
    );
    const expires = await page.evaluate(
      (iso) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }),
      rows[0].expires_at.toISOString(),
    );
    t.true((await row.textContent())?.includes(expires));
    await page.getByRole('button', { name: `Revoke invitation ${email}` }).click();
    await row.waitFor({ state: 'detached' });
    const left = await server.stores.pg.query('SELECT revoked_at FROM invitations WHERE email = $1', [email]);
    t.truthy(left.rows[0].revoked_at);
    t.deepEqual(errors, []);
  },
);

browserTest("Settings > API keys lists only the current organization's keys, after switching too", async (t) => {
  const one = await person(server);
  const two = await person(server);
  await addMember(server.stores.pg, one.email, two.organizationId);
  const { page, errors } = await newPage();
  await signIn(page, server, one, '/app/settings/keys');
  const select = page.getByLabel('Organization');
  await select.waitFor();
  const first = await select.inputValue();
  const second = first === one.organizationId ? two.organizationId : one.organizationId;
  const createKey = async (name: string) => {
    await page.getByRole('button', { name: 'New key' }).click();
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('cell', { name, exact: true }).waitFor();
  };
  await createKey('key of the first');
  await Promise.all([page.waitForURL(/\/app\/brands\//), select.selectOption(second)]);
  await page.goto(`${server.url}/app/settings/keys`);
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  t.is(await page.getByLabel('Organization').inputValue(), second);
  await createKey('key of the second');
  t.is(await page.getByRole('cell', { name: 'key of the first', exact: true }).count(), 0);
  await Promise.all([page.waitForURL(/\/app\/brands\//), page.getByLabel('Organization').selectOption(first)]);
  await page.goto(`${server.url}/app/settings/keys`);
  await page.getByRole('cell', { name: 'key of the first', exact: true }).waitFor();
  t.is(await page.getByRole('cell', { name: 'key of the second', exact: true }).count(), 0);
  t.deepEqual(errors, []);
});

browserTest('Settings > Account says API keys keep working after a password change, and they do', async (t) => {
  const who = await person(server);
  const { page, errors } = await newPage();
  await signIn(page, server, who, '/app/settings/account');
  const form = page.getByRole('form', { name: 'Change password' });
  await form.waitFor();
  t.regex((await form.textContent()) ?? '', /your API keys keep working/);
  await form.getByLabel('Current password').fill(who.password);
  await form.getByLabel('New password').fill('a changed long passphrase');
  await form.getByRole('button', { name: 'Change password' }).click();
  await page.getByText('Password changed.').waitFor();
  t.is((await whoami(who.key)).status, 200);
  t.deepEqual(errors, []);
});
