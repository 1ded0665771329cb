// People in several organizations, as an attacker and as an agency would meet them over HTTP
// (docs/app.md, "People, organizations, keys and grants"): an invitation never takes over an
// account nor removes anyone; invitations are listed, revoked, and die with their inviter's admin
// role; the last admin stays on every path; sessions switch organization and follow links to
// another one's brand; keys and grants stay with the organization they were made in. Then the
// limits of round three: the client address behind N proxies, the app's own rate limits, every
// password check throttled (and the per-account cap), emails with invisible characters, the
// absolute session end, the session list, two Host headers, `next`. (The client address and the
// app's limits: limits.test.ts; https: https.test.ts. chDB allows one server per test process.)
// test-process: shared
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import test from 'ava';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { cli } from '../../helpers/cli.ts';
import { authorizeUrl, newClient, pkce, REDIRECT_URI, tokenRequest } from '../oauth/helpers.ts';
import { appCall, person, session, type Person } from './helpers.ts';
import { applyWorkspace, parseWorkspace } from '../../../src/tenancy/workspace.ts';
import { addMember } from '../../../src/tenancy/members.ts';
import { safeNext } from '../../../src/http/app/routes.ts';

let server: TestServer;

test.before(async () => {
  // No SMTP_URL: an invitation's link is shown to the admin, as an attacker admin would get it.
  server = await startTestServer({ TRUST_PROXY: '1' });
});

test.after.always(async () => {
  await server?.stop();
});

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  redirect: 'manual' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields),
});

let counter = 0;
const unique = (label: string) => `${label}-${Date.now()}-${++counter}@example.test`;

/** An organization made by a workspace file: its members have accounts without passwords. */
async function fileOrganization(on: TestServer, emails: string[]) {
  const applied = await applyWorkspace(
    on.stores.pg,
    parseWorkspace({
      organizations: [
        { name: `File org ${unique('o')}`, plan: 'starter', members: emails.map((email) => ({ email })) },
      ],
    }),
  );
  return applied.organizations[0].id as string;
}

async function invite(on: TestServer, who: { cookie: string; csrf: string }, email: string, role = 'member') {
  const invited = await appCall(on, who, '/members/invite', { email, role });
  if (invited.status !== 200) throw new Error(`invite answered ${invited.status}: ${JSON.stringify(invited.body)}`);
  return { ...invited.body, token: String(invited.body.link).split('/').pop() as string };
}

const accept = (on: TestServer, token: string, password: string, headers: Record<string, string> = {}) =>
  fetch(`${on.url}/app/invitations/${token}`, form({ password }, headers));

const membershipsOf = async (on: TestServer, email: string) =>
  (
    await on.stores.pg.query<{ organization_id: string }>(
      'SELECT m.organization_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1 ORDER BY 1',
      [email],
    )
  ).rows.map((r) => r.organization_id);

test('an admin of another organization cannot take over an account without a password through an invitation', async (t) => {
  const victim = unique('victim');
  const victimOrg = await fileOrganization(server, [victim]);
  const attacker = await person(server);
  const a = await session(server, attacker);
  const { token, link } = await invite(server, a, victim, 'admin');
  t.regex(link, /\/app\/invitations\//);
  // The attacker holds the link and tries to set the account's password: refused, nothing changed.
  const res = await accept(server, token, 'attacker chosen password');
  t.is(res.status, 400);
  t.true((await res.text()).includes('Password is incorrect'));
  const { rows } = await server.stores.pg.query('SELECT password_hash FROM users WHERE email = $1', [victim]);
  t.is(rows[0].password_hash, null);
  t.deepEqual(await membershipsOf(server, victim), [victimOrg]);
  // The attacker cannot sign in as the victim with that password either.
  const signIn = await fetch(
    `${server.url}/app/sign-in`,
    form({ email: victim, password: 'attacker chosen password' }),
  );
  t.is(signIn.status, 401);
});

test('the invitation page and its answers read alike whether or not the email has an account or a password', async (t) => {
  const admin = await person(server);
  const a = await session(server, admin);
  const withPassword = await person(server);
  const withoutPassword = unique('nopass');
  await fileOrganization(server, [withoutPassword]);
  const nobody = unique('nobody');
  const pages: string[] = [];
  const answers: string[] = [];
  for (const email of [withPassword.email, withoutPassword, nobody]) {
    const { token } = await invite(server, a, email);
    const page = await (await fetch(`${server.url}/app/invitations/${token}`)).text();
    const alike = (text: string) => text.replaceAll(email, 'EMAIL').replaceAll(token, 'TOKEN');
    pages.push(alike(page));
    // A short password is refused alike before anything else.
    const short = await accept(server, token, 'short');
    answers.push(`${short.status} ${alike(await short.text())}`);
  }
  t.is(pages[0], pages[1]);
  t.is(pages[1], pages[2]);
  t.is(answers[0], answers[1]);
  t.is(answers[1], answers[2]);
  // A wrong password and "no password yet" read alike.
  const wrong = [];
  for (const email of [withPassword.email, withoutPassword]) {
    const { token } = await invite(server, a, email);
    const res = await accept(server, token, 'ten or more characters');
    wrong.push(`${res.status} ${(await res.text()).replaceAll(email, 'EMAIL').replaceAll(token, 'TOKEN')}`);
  }
  t.is(wrong[0], wrong[1]);
  t.true(wrong[0].startsWith('400 '));
});

test('an existing person joins with their own password and keeps every other membership', async (t) => {
  const admin = await person(server);
  const joiner = await person(server);
  const { token } = await invite(server, await session(server, admin), joiner.email, 'member');
  const res = await accept(server, token, joiner.password);
  t.is(res.status, 303);
  t.deepEqual(await membershipsOf(server, joiner.email), [admin.organizationId, joiner.organizationId].sort());
  // The session opened on the organization joined; the person's own still has its member.
  const s = { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0], csrf: '' };
  t.is((await appCall(server, s, '/me')).body.organization.id, admin.organizationId);
  t.is((await appCall(server, await session(server, admin), '/members')).body.length, 2);
});

test('signed in as the invited email, Join adds the membership with a form bound to the session', async (t) => {
  const admin = await person(server);
  const joiner = await person(server);
  const { token } = await invite(server, await session(server, admin), joiner.email, 'admin');
  const s = await session(server, joiner);
  const page = await (await fetch(`${server.url}/app/invitations/${token}`, { headers: { cookie: s.cookie } })).text();
  t.true(page.includes('Join '));
  t.false(page.includes('name="password"'));
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
  // Another session's token, or none, joins nobody.
  const other = await session(server, joiner);
  const forged = await fetch(
    `${server.url}/app/invitations/${token}`,
    form({ action: 'join', csrf }, { cookie: other.cookie }),
  );
  t.is(forged.status, 403);
  const joined = await fetch(
    `${server.url}/app/invitations/${token}`,
    form({ action: 'join', csrf }, { cookie: s.cookie }),
  );
  t.is(joined.status, 303);
  const me = (await appCall(server, s, '/me')).body;
  t.is(me.organization.id, admin.organizationId);
  t.is(me.role, 'admin');
  t.is(me.organizations.length, 2);
});

test('pending invitations are listed and revocable, and die when their inviter stops being an admin or leaves', async (t) => {
  const admin = await person(server);
  const a = await session(server, admin);
  const listed = unique('listed');
  const first = await invite(server, a, listed, 'admin');
  const pending = (await appCall(server, a, '/members/invitations')).body;
  t.deepEqual(
    pending.map((i: any) => [i.email, i.role, i.invited_by]),
    [[listed, 'admin', admin.email]],
  );
  t.is((await appCall(server, a, `/members/invitations/${pending[0].id}/revoke`, {})).status, 200);
  t.is((await accept(server, first.token, 'a long enough password')).status, 404);
  t.deepEqual((await appCall(server, a, '/members/invitations')).body, []);

  // A second admin invites, then is demoted: the link dies. A third invites and is removed: it dies too.
  const second = unique('second');
  const third = unique('third');
  await addMember(server.stores.pg, second, admin.organizationId);
  await addMember(server.stores.pg, third, admin.organizationId);
  const members = (await appCall(server, a, '/members')).body;
  const idOf = (email: string) => members.find((m: any) => m.email === email).user_id;
  for (const email of [second, third]) {
    t.is((await appCall(server, a, `/members/${idOf(email)}/role`, { role: 'admin' })).status, 200);
    await server.stores.pg.query('UPDATE users SET password_hash = $2 WHERE email = $1', [
      email,
      (await server.stores.pg.query('SELECT password_hash FROM users WHERE email = $1', [admin.email])).rows[0]
        .password_hash,
    ]);
  }
  const bySecond = await invite(
    server,
    await session(server, { email: second, password: admin.password }),
    unique('x'),
  );
  const byThird = await invite(server, await session(server, { email: third, password: admin.password }), unique('y'));
  t.is((await appCall(server, a, `/members/${idOf(second)}/role`, { role: 'member' })).status, 200);
  t.is((await appCall(server, a, `/members/${idOf(third)}/remove`, {})).status, 200);
  t.is((await accept(server, bySecond.token, 'a long enough password')).status, 404);
  t.is((await accept(server, byThird.token, 'a long enough password')).status, 404);
  // Made admin again, the demoted admin's old link stays dead.
  t.is((await appCall(server, a, `/members/${idOf(second)}/role`, { role: 'admin' })).status, 200);
  t.is((await accept(server, bySecond.token, 'a long enough password')).status, 404);
});

test('a removed member does not come back through an older link', async (t) => {
  const admin = await person(server);
  const a = await session(server, admin);
  const email = unique('back');
  const older = await invite(server, a, email, 'admin');
  const newer = await invite(server, a, email, 'member');
  // A new invitation for the same email voids the older one.
  t.is((await accept(server, older.token, 'a long enough password')).status, 404);
  t.is((await accept(server, newer.token, 'a long enough password')).status, 303);
  const again = await invite(server, a, unique('other'));
  t.truthy(again.token);
  const members = (await appCall(server, a, '/members')).body;
  const id = members.find((m: any) => m.email === email).user_id;
  const pendingForThem = await server.stores.pg.query(
    `INSERT INTO invitations (id, token_hash, organization_id, email, role, invited_by, expires_at)
     SELECT gen_random_uuid(), 'stale-link-hash', organization_id, $1, 'admin', invited_by, now() + interval '1 day'
       FROM invitations WHERE email = $1 LIMIT 1 RETURNING id`,
    [email],
  );
  t.is(pendingForThem.rowCount, 1);
  t.is((await appCall(server, a, `/members/${id}/remove`, {})).status, 200);
  const { rows } = await server.stores.pg.query('SELECT revoked_at FROM invitations WHERE token_hash = $1', [
    'stale-link-hash',
  ]);
  t.truthy(rows[0].revoked_at);
});

test('a workspace file and members add keep other memberships; members remove ends one only', async (t) => {
  const who = await person(server);
  const other = await person(server);
  const file = path.join(server.dataDir, `${unique('ws')}.json`);
  const fileOrg = `File org ${unique('apply')}`;
  fs.writeFileSync(
    file,
    JSON.stringify({ organizations: [{ name: fileOrg, plan: 'starter', members: [{ email: who.email }] }] }),
  );
  const applied = await cli(['apply', file], server.env);
  t.is(applied.code, 0, applied.stderr);
  const fileOrgId = applied.json.organizations[0].id;
  t.deepEqual(await membershipsOf(server, who.email), [who.organizationId, fileOrgId].sort());
  const added = await cli(['members', 'add', '--email', who.email, '--org', other.organizationId], server.env);
  t.is(added.code, 0, added.stderr);
  t.deepEqual(await membershipsOf(server, who.email), [who.organizationId, fileOrgId, other.organizationId].sort());
  const removed = await cli(['members', 'remove', '--email', who.email, '--org', fileOrgId], server.env);
  t.is(removed.code, 0, removed.stderr);
  t.deepEqual(await membershipsOf(server, who.email), [who.organizationId, other.organizationId].sort());
  // Still admin of their own, and signed in they see both that remain.
  const me = (await appCall(server, await session(server, who), '/me')).body;
  t.deepEqual(me.organizations.map((o: any) => o.id).sort(), [who.organizationId, other.organizationId].sort());
  t.is(me.organizations.find((o: any) => o.id === who.organizationId).role, 'admin');
});

test('every path keeps an admin: remove, demote, leave and the command line answer 409 naming the rule', async (t) => {
  const admin = await person(server);
  const a = await session(server, admin);
  const memberEmail = unique('member');
  await addMember(server.stores.pg, memberEmail, admin.organizationId);
  const members = (await appCall(server, a, '/members')).body;
  const me = members.find((m: any) => m.email === admin.email).user_id;
  const rule = 'The last admin cannot be removed or demoted';
  t.deepEqual(await appCall(server, a, `/members/${me}/role`, { role: 'member' }), {
    status: 409,
    body: { error: rule },
  });
  t.deepEqual(await appCall(server, a, `/members/${me}/remove`, {}), { status: 409, body: { error: rule } });
  const leave = await appCall(server, a, '/account/leave', { organization_id: admin.organizationId });
  t.is(leave.status, 409);
  t.regex(leave.body.error, /^The last admin cannot leave/);
  const removed = await cli(['members', 'remove', '--email', admin.email, '--org', admin.organizationId], server.env);
  t.is(removed.code, 1);
  t.is(removed.stderr.trim(), rule);
  t.is((await appCall(server, a, '/members')).body.length, 2);
  // Once another member is admin, leaving is one's own choice.
  const other = members.find((m: any) => m.email === memberEmail).user_id;
  t.is((await appCall(server, a, `/members/${other}/role`, { role: 'admin' })).status, 200);
  t.is((await appCall(server, a, '/account/leave', { organization_id: admin.organizationId })).status, 200);
  t.deepEqual(await membershipsOf(server, admin.email), []);
  // In no organization, the person sees nothing.
  t.deepEqual((await appCall(server, a, '/me')).body.organization, null);
  t.deepEqual((await appCall(server, a, '/op/brands')).body, []);
});

test('a session switches organization; a link to a brand of another of them switches to it; others stay not found', async (t) => {
  const one = await person(server);
  const two = await person(server);
  await addMember(server.stores.pg, one.email, two.organizationId);
  const s = await session(server, one);
  const me = (await appCall(server, s, '/me')).body;
  t.is(me.organizations.length, 2);
  const brands = async () => (await appCall(server, s, '/op/brands')).body.map((b: any) => b.id);
  const before = await brands();
  const target = me.organization.id === one.organizationId ? two : one;
  t.is((await appCall(server, s, '/organization', { organization_id: target.organizationId })).status, 200);
  t.deepEqual(await brands(), [target.brandId]);
  // Keys of the app are the current organization's; a new one acts on it only.
  const key = (await appCall(server, s, '/keys', { name: 'agency' })).body.key;
  const whoami = await fetch(`${server.url}/api/v1/brands`, { headers: { authorization: `Bearer ${key}` } });
  t.deepEqual(
    ((await whoami.json()) as any[]).map((b) => b.id),
    [target.brandId],
  );
  // Opening a brand of the other organization (a link) switches the session to it.
  const back = target === one ? two : one;
  const page = await fetch(`${server.url}/app/brands/${back.brandId}`, { headers: { cookie: s.cookie } });
  t.is(page.status, 200);
  t.deepEqual(await brands(), before.length ? [back.brandId] : []);
  // A brand of an organization the person is not in: not found, and no switch.
  const stranger = await person(server);
  await fetch(`${server.url}/app/brands/${stranger.brandId}`, { headers: { cookie: s.cookie } });
  t.deepEqual(await brands(), [back.brandId]);
  const foreign = await appCall(server, s, `/op/visibility-summary?brand_id=${stranger.brandId}`);
  t.deepEqual(foreign, { status: 404, body: { error: 'Brand not found' } });
  t.is((await appCall(server, s, '/organization', { organization_id: stranger.organizationId })).status, 404);
  // The next sign-in opens the organization used last.
  const next = await session(server, one);
  t.is((await appCall(server, next, '/me')).body.organization.id, back.organizationId);
});

test('a signed-in grant acts on the organization chosen on the consent page, and dies when its person leaves it', async (t) => {
  const one = await person(server);
  const two = await person(server);
  await addMember(server.stores.pg, one.email, two.organizationId);
  const s = await session(server, one);
  const clientId = await newClient(server);
  const { verifier, challenge } = pkce();
  const url = authorizeUrl(server, { client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge });
  const page = await (await fetch(url, { headers: { cookie: s.cookie } })).text();
  t.true(page.includes('<select id="organization_id" name="organization_id">'));
  const nonce = /name="nonce" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const allowed = await fetch(
    `${server.url}/oauth/authorize`,
    form({ nonce, token, action: 'allow', organization_id: two.organizationId }, { cookie: s.cookie }),
  );
  t.is(allowed.status, 303);
  const code = new URL(allowed.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const tokens = await tokenRequest(server, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
  });
  const listBrands = async () => {
    const res = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.body.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_brands', arguments: {} },
      }),
    });
    return { status: res.status, text: await res.text() };
  };
  const listed = await listBrands();
  t.is(listed.status, 200);
  t.true(listed.text.includes(two.brandId));
  t.false(listed.text.includes(one.brandId));
  // Another admin stays, so one may leave; the grant on that organization dies with the membership.
  const a2 = await session(server, two);
  const oneId = (await appCall(server, a2, '/members')).body.find((m: any) => m.email === one.email).user_id;
  t.is((await appCall(server, a2, `/members/${oneId}/remove`, {})).status, 200);
  t.is((await listBrands()).status, 401);
});

test('a password change ends the other sessions and the grants given while signed in; keys stay', async (t) => {
  const who = await person(server);
  const s = await session(server, who);
  const other = await session(server, who);
  const sessions = (await appCall(server, s, '/account/sessions')).body;
  t.is(sessions.length, 2);
  t.true(sessions[0].current);
  t.is(sessions[0].address, '127.0.0.1');
  t.true(sessions.every((x: any) => typeof x.browser === 'string' && x.started_at && x.last_used_at));
  const clientId = await newClient(server);
  const { verifier, challenge } = pkce();
  const url = authorizeUrl(server, { client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge });
  const page = await (await fetch(url, { headers: { cookie: s.cookie } })).text();
  const nonce = /name="nonce" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const allowed = await fetch(
    `${server.url}/oauth/authorize`,
    form({ nonce, token, action: 'allow' }, { cookie: s.cookie }),
  );
  const code = new URL(allowed.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const tokens = await tokenRequest(server, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
  });
  t.is(tokens.status, 200);
  const changed = await appCall(server, s, '/account/password', {
    current_password: who.password,
    new_password: 'a brand new passphrase',
  });
  t.is(changed.status, 200);
  t.is((await appCall(server, other, '/me')).status, 401);
  t.is((await appCall(server, s, '/me')).status, 200);
  const refreshed = await tokenRequest(server, {
    grant_type: 'refresh_token',
    client_id: clientId,
    refresh_token: tokens.body.refresh_token,
  });
  t.is(refreshed.body.error, 'invalid_grant');
  t.is((await fetch(`${server.url}/api/v1/brands`, { headers: { authorization: `Bearer ${who.key}` } })).status, 200);
  // Sign out other sessions.
  const third = await session(server, { email: who.email, password: 'a brand new passphrase' });
  t.is((await appCall(server, s, '/account/sessions/sign-out-others', {})).status, 200);
  t.is((await appCall(server, third, '/me')).status, 401);
  t.is((await appCall(server, s, '/account/sessions')).body.length, 1);
});

test('a session ends 30 days after sign-in, however recently used', async (t) => {
  const who = await person(server);
  const s = await session(server, who);
  t.is((await appCall(server, s, '/me')).status, 200);
  await server.stores.pg.query(
    `UPDATE sessions SET created_at = now() - interval '30 days 1 minute', last_seen_at = now()
      WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
    [who.email],
  );
  t.is((await appCall(server, s, '/me')).status, 401);
});

test('the current password check in Settings > Account is throttled like a sign-in', async (t) => {
  const who = await person(server);
  const s = await session(server, who);
  const change = (current: string) =>
    appCall(
      server,
      s,
      '/account/password',
      { current_password: current, new_password: 'another long password' },
      {
        'x-forwarded-for': '198.51.100.23',
      },
    );
  for (let i = 0; i < 10; i++) t.is((await change(`wrong guess ${i}`)).status, 400);
  const refused = await change(who.password);
  t.is(refused.status, 429);
  t.is(refused.body.field, 'current_password');
  t.regex(refused.body.error, /^Too many failed sign-ins/);
  // The sign-in form from that address is refused for the account too.
  const signIn = await fetch(
    `${server.url}/app/sign-in`,
    form({ email: who.email, password: who.password }, { 'x-forwarded-for': '198.51.100.23' }),
  );
  t.is(signIn.status, 429);
});

/** Nine failed checks of `email` from `address` (written directly: each real check costs a scrypt). */
const nineFailures = (on: TestServer, email: string, address: string) =>
  on.stores.pg.query('INSERT INTO sign_in_failures (email, address) SELECT $1, $2 FROM generate_series(1, 9)', [
    email,
    address,
  ]);

test('an invitation checks an existing password as sign-in does: throttled, 429 with Retry-After', async (t) => {
  const admin = await person(server);
  const joiner = await person(server);
  const { token } = await invite(server, await session(server, admin), joiner.email);
  const address = '198.51.100.31';
  const from = { 'x-forwarded-for': address };
  await nineFailures(server, joiner.email, address);
  // The tenth failure is the invitation's own: it counts.
  t.is((await accept(server, token, 'not the right password', from)).status, 400);
  const refused = await accept(server, token, joiner.password, from);
  t.is(refused.status, 429);
  t.truthy(Number(refused.headers.get('retry-after')) > 0);
  t.regex(await refused.text(), /Too many failed sign-ins for this email/);
  t.is(refused.headers.get('set-cookie'), null);
  t.deepEqual(await membershipsOf(server, joiner.email), [joiner.organizationId]);
  // The sign-in form counts the same failures.
  const signIn = await fetch(
    `${server.url}/app/sign-in`,
    form({ email: joiner.email, password: joiner.password }, from),
  );
  t.is(signIn.status, 429);
  // From another address the right password joins.
  t.is((await accept(server, token, joiner.password, { 'x-forwarded-for': '198.51.100.32' })).status, 303);
});

test("the consent page's own sign-in counts as a password check: throttled, 429 with Retry-After", async (t) => {
  const who = await person(server);
  const clientId = await newClient(server);
  const url = authorizeUrl(server, {
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: pkce().challenge,
  });
  const consentSignIn = async (password: string, address: string) => {
    const nonce = /name="nonce" value="([^"]+)"/.exec(await (await fetch(url)).text())?.[1] ?? '';
    return fetch(
      `${server.url}/oauth/authorize`,
      form({ nonce, action: 'sign-in', email: who.email, password }, { 'x-forwarded-for': address }),
    );
  };
  // Nine failures, the tenth on the consent page: the consent page refuses the right password...
  await nineFailures(server, who.email, '198.51.100.41');
  t.is((await consentSignIn('not the right password', '198.51.100.41')).status, 401);
  const refused = await consentSignIn(who.password, '198.51.100.41');
  t.is(refused.status, 429);
  t.truthy(Number(refused.headers.get('retry-after')) > 0);
  t.regex(await refused.text(), /Too many failed sign-ins for this email/);
  t.is(refused.headers.get('set-cookie'), null);
  // ...and so does the sign-in form, which counted the consent page's failure.
  const signIn = await fetch(
    `${server.url}/app/sign-in`,
    form({ email: who.email, password: who.password }, { 'x-forwarded-for': '198.51.100.41' }),
  );
  t.is(signIn.status, 429);
  // The other way round: failures on the sign-in form close the consent page's sign-in.
  await nineFailures(server, who.email, '198.51.100.42');
  const wrong = await fetch(
    `${server.url}/app/sign-in`,
    form({ email: who.email, password: 'not the right password' }, { 'x-forwarded-for': '198.51.100.42' }),
  );
  t.is(wrong.status, 401);
  t.is((await consentSignIn(who.password, '198.51.100.42')).status, 429);
  // Elsewhere the consent page signs in.
  t.is((await consentSignIn(who.password, '198.51.100.43')).status, 200);
});

test('one account takes at most 100 failed checks an hour from all addresses together', async (t) => {
  const who = await person(server);
  const s = await session(server, who);
  // 99 failures from 99 addresses (written directly: each real check costs a scrypt), then one real one.
  await server.stores.pg.query(
    `INSERT INTO sign_in_failures (email, address) SELECT $1, '203.0.113.' || g FROM generate_series(1, 99) g`,
    [who.email],
  );
  const attempt = (password: string, address: string) =>
    fetch(`${server.url}/app/sign-in`, form({ email: who.email, password }, { 'x-forwarded-for': address }));
  t.is((await attempt('the hundredth guess', '192.0.2.100')).status, 401);
  const refused = await attempt(who.password, '192.0.2.101');
  t.is(refused.status, 429);
  t.truthy(refused.headers.get('retry-after'));
  // Sessions already open keep working.
  t.is((await appCall(server, s, '/me')).status, 200);
});

test('an email with NUL, a control, zero-width or bidi character is a 400 naming email, never a 500', async (t) => {
  const admin = await person(server);
  const a = await session(server, admin);
  for (const email of [
    'a\u0000b@example.test',
    'a\u200Bb@example.test',
    'a\u202Eb@example.test',
    'a\u0007@example.test',
    // At either end: JavaScript's trim() would take these off unseen.
    '\uFEFFa@example.test',
    'a@example.test\uFEFF',
    '\u2028a@example.test',
    'a@example.test\u2029',
    ' \uFEFFa@example.test ',
  ]) {
    const signIn = await fetch(`${server.url}/app/sign-in`, form({ email, password: 'whatever it is' }));
    t.is(signIn.status, 400, JSON.stringify(email));
    t.true((await signIn.text()).includes('Email must not contain control, zero-width or bidirectional characters'));
    const invited = await appCall(server, a, '/members/invite', { email, role: 'member' });
    t.is(invited.status, 400);
    t.is(invited.body.field, 'email');
  }
  const added = await cli(
    ['members', 'add', '--email', 'x\u200Dy@example.test', '--org', admin.organizationId],
    server.env,
  );
  t.is(added.code, 1);
  t.regex(added.stderr, /^Email must not contain/);
  const atEnd = await cli(
    ['members', 'add', '--email', 'x@example.test\uFEFF', '--org', admin.organizationId],
    server.env,
  );
  t.is(atEnd.code, 1);
  // A workspace file's member too.
  await t.throwsAsync(fileOrganization(server, ['\uFEFFfiled@example.test']), {
    message: /^Email must not contain/,
  });
  // Trimmed and compared case-insensitively; an internationalised domain kept in its ASCII form.
  const idn = await appCall(server, a, '/members/invite', { email: '  Ana@Bücher.Example ', role: 'member' });
  t.is(idn.body.email, 'ana@xn--bcher-kva.example');
});

test('a request with two Host headers is a 400', async (t) => {
  const url = new URL(server.url);
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: '/app/sign-in',
        setHost: false,
        headers: [
          ['Host', url.host],
          ['Host', 'evil.example'],
        ].flat() as unknown as http.OutgoingHttpHeaders,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
  t.is(status, 400);
});

test('after sign-in, next is followed only to /app/ or /oauth/authorize once dot segments and encodings are resolved', (t) => {
  t.is(safeNext('/app/brands/x?date_from=2026-01-01'), '/app/brands/x?date_from=2026-01-01');
  t.is(safeNext('/oauth/authorize?client_id=c&state=s'), '/oauth/authorize?client_id=c&state=s');
  for (const bad of [
    '/app/../evil',
    '/app/%2e%2e/evil',
    '/app%2f..%2f..%2fevil',
    '/app/..%2f..%2fevil',
    '/app/%252e%252e/%252e%252e/evil',
    '/\\evil.example/app/',
    '//evil.example/app',
    '/oauth/authorize/../../evil',
    '/oauth/authorizex',
    'javascript:alert(1)',
    '/app/\u0000',
  ]) {
    t.is(safeNext(bad), '/app', bad);
  }
});

test('a person who is not an admin sees the members and manages none of them', async (t) => {
  const admin: Person = await person(server);
  const memberEmail = unique('plain');
  const { token } = await invite(server, await session(server, admin), memberEmail);
  t.is((await accept(server, token, 'a plain long password')).status, 303);
  const m = await session(server, { email: memberEmail, password: 'a plain long password' });
  t.is((await appCall(server, m, '/me')).body.role, 'member');
  t.is((await appCall(server, m, '/members')).status, 200);
  const adminId = (await appCall(server, m, '/members')).body.find((x: any) => x.email === admin.email).user_id;
  for (const [path, body] of [
    ['/members/invite', { email: unique('z'), role: 'member' }],
    [`/members/${adminId}/role`, { role: 'member' }],
    [`/members/${adminId}/remove`, {}],
    ['/members/invitations', undefined],
  ] as const) {
    t.is((await appCall(server, m, path, body)).status, 403, path);
  }
});
