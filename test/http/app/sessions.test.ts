// Sign-in, sessions and settings over plain HTTP, as docs/api.md sections 17 and 18 decide: the
// app's headers and cookie, the throttle of failed sign-ins, changes refused without the session's
// token or from another site, bad input named beside its field with nothing written, a session
// that follows its person's membership, the last admin, invitations (mailed to an SMTP receiver
// started here), `answerscope users set-password`, and the consent page for a signed-in person.
// test-process: shared
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { SMTPServer } from 'smtp-server';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { cli } from '../../helpers/cli.ts';
import { authorizeUrl, newClient, pkce, REDIRECT_URI, tokenRequest } from '../oauth/helpers.ts';
import { appCall, person, session } from './helpers.ts';
import { setSessionCookie } from '../../../src/http/app/session-cookie.ts';
import { loadConfig } from '../../../src/config.ts';
import { applyWorkspace, parseWorkspace } from '../../../src/tenancy/workspace.ts';
import { listMembers } from '../../../src/tenancy/members.ts';

let server: TestServer;
let smtp: SMTPServer;
/** Each mail as received: the envelope's recipients and the message. */
const mails: { to: string[]; text: string }[] = [];
/** Recipients the SMTP server refuses (550): an invitation to them cannot be mailed. */
const UNDELIVERABLE = /^undeliverable-/;

test.before(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, done) {
      done(
        UNDELIVERABLE.test(address.address)
          ? Object.assign(new Error('No such mailbox'), { responseCode: 550 })
          : undefined,
      );
    },
    onData(stream, session, done) {
      let text = '';
      stream.on('data', (c) => (text += c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  // TRUST_PROXY: the tests speak from several addresses through X-Forwarded-For.
  server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, TRUST_PROXY: '1' });
});

test.after.always(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

/** The invitation link mailed to `email` (quoted-printable may wrap it), once the mail is in. */
async function mailedLink(email: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mail = mails.find((m) => m.text.includes(email));
    const link = mail && /https?:\/\/\S+\/app\/invitations\/[A-Za-z0-9_-]+/.exec(mail.text.replace(/=\r?\n/g, ''))?.[0];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no invitation mailed to ${email}`);
}

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  redirect: 'manual' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields),
});

test('/ leads to /app, which asks for sign-in; every app page carries the security headers', async (t) => {
  const root = await fetch(`${server.url}/`, { redirect: 'manual' });
  t.is(root.headers.get('location'), '/app');
  const app = await fetch(`${server.url}/app/settings/keys`, { redirect: 'manual' });
  t.is(app.headers.get('location'), '/app/sign-in?next=%2Fapp%2Fsettings%2Fkeys');
  const who = await person(server);
  const s = await session(server, who);
  const pages = [
    await fetch(`${server.url}/app/sign-in`),
    await fetch(`${server.url}/app/brands/${who.brandId}`, { headers: { cookie: s.cookie } }),
    await fetch(`${server.url}/app/invitations/nothing`),
  ];
  for (const res of pages) {
    const csp = res.headers.get('content-security-policy') ?? '';
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    t.is(scriptSrc, "'self'");
    t.true(csp.includes("frame-ancestors 'none'"));
    t.is(res.headers.get('x-content-type-options'), 'nosniff');
    t.is(res.headers.get('referrer-policy'), 'same-origin');
  }
  // The shell's own script and style, named by their hash and kept a year; nothing from another host.
  const shell = await pages[1].text();
  t.false(/<script(?![^>]*\bsrc="\/app\/assets\/)/.test(shell));
  t.false(/(src|href)="(https?:)?\/\//.test(shell));
  const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(shell)?.[1] ?? '';
  const asset = await fetch(`${server.url}${script}`);
  t.is(asset.status, 200);
  t.is(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.is(asset.headers.get('content-type'), 'text/javascript; charset=utf-8');
});

test('the session cookie: HttpOnly, SameSite=Lax, a new token at every sign-in; Sign out ends it at once', async (t) => {
  const who = await person(server);
  const sign = () => fetch(`${server.url}/app/sign-in`, form({ email: who.email, password: who.password }));
  const first = await sign();
  const second = await sign();
  const cookie = first.headers.get('set-cookie') ?? '';
  t.regex(cookie, /^answerscope_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Lax$/);
  t.not(cookie.split(';')[0], (second.headers.get('set-cookie') ?? '').split(';')[0]);
  // The database holds only a hash of the token.
  const token = cookie.split(';')[0].split('=')[1];
  const stored = await server.stores.pg.query('SELECT 1 FROM sessions WHERE token_hash = $1', [token]);
  t.is(stored.rowCount, 0);

  const s = await session(server, who);
  t.is((await appCall(server, s, '/me')).status, 200);
  const out = await fetch(`${server.url}/app/sign-out`, form({ csrf: s.csrf }, { cookie: s.cookie }));
  t.is(out.status, 303);
  t.deepEqual(await appCall(server, s, '/me'), { status: 401, body: { error: 'Sign in first' } });
});

test('after sign-in the person goes where they were going, on this site only', async (t) => {
  const who = await person(server);
  const to = async (next: string) =>
    (await fetch(`${server.url}/app/sign-in`, form({ email: who.email, password: who.password, next }))).headers.get(
      'location',
    );
  t.is(await to('/app/settings/usage?x=1'), '/app/settings/usage?x=1');
  t.is(await to('//evil.example/app'), '/app');
  t.is(await to('https://evil.example/app'), '/app');
  t.is(await to('/application'), '/app');
});

test('Secure is set on the cookie when PUBLIC_URL is https', (t) => {
  const headers: string[] = [];
  const ctx = { append: (_: string, v: string) => headers.push(v) } as any;
  setSessionCookie(ctx, loadConfig({ PUBLIC_URL: 'https://answers.example' }), 'tok');
  setSessionCookie(ctx, loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8787' }), 'tok');
  t.true(headers[0].endsWith('; Secure'));
  t.false(headers[1].includes('Secure'));
});

test('10 failures for one email from one address within 15 minutes: the 11th is refused, even right, with 429', async (t) => {
  const who = await person(server);
  const attempt = (password: string, address: string, email = who.email) =>
    fetch(`${server.url}/app/sign-in`, form({ email, password }, { 'x-forwarded-for': address }));
  for (let i = 0; i < 10; i++) {
    const res = await attempt('wrong password', '203.0.113.7');
    t.is(res.status, 401);
    t.true((await res.text()).includes('Email or password is incorrect'));
  }
  const refused = await attempt(who.password, '203.0.113.7');
  t.is(refused.status, 429);
  t.regex(await refused.text(), /Try again at \d\d:\d\d UTC \(in 15 minutes\)/);
  t.true(Number(refused.headers.get('retry-after')) > 800);
  t.is(refused.headers.get('set-cookie'), null);
  // Another address, or another email, still gets through.
  t.is((await attempt(who.password, '203.0.113.8')).status, 303);
  t.is((await attempt('wrong password', '203.0.113.7', `other-${who.email}`)).status, 401);
  // An email nobody has counts the same.
  for (let i = 0; i < 10; i++) await attempt('x', '203.0.113.9', 'nobody@example.test');
  t.is((await attempt('x', '203.0.113.9', 'nobody@example.test')).status, 429);
});

test('a change without the session token, or from another site, is refused with 403 and writes nothing', async (t) => {
  const who = await person(server);
  const s = await session(server, who);
  const keys = async () => (await appCall(server, s, '/keys')).body.length;
  const before = await keys();
  t.is((await appCall(server, { ...s, csrf: 'forged' }, '/keys', { name: 'x' })).status, 403);
  t.is((await appCall(server, s, '/keys', { name: 'x' }, { origin: 'https://evil.example' })).status, 403);
  t.is((await appCall(server, s, '/keys', { name: 'x' }, { 'sec-fetch-site': 'cross-site' })).status, 403);
  t.deepEqual(
    (
      await appCall(
        server,
        s,
        '/op/create-webhook',
        { url: 'https://x.example', events: ['digest.daily'] },
        { origin: 'http://localhost:1' },
      )
    ).body,
    {
      error: 'Cross-site request refused',
    },
  );
  t.is(await keys(), before);
  t.is(
    (await appCall(server, s, '/keys', { name: 'ok' }, { origin: server.url, 'sec-fetch-site': 'same-origin' })).status,
    200,
  );
  t.is(await keys(), before + 1);
});

test('bad input names its field and writes nothing', async (t) => {
  const who = await person(server);
  const s = await session(server, who);
  t.deepEqual(await appCall(server, s, '/keys', { name: '  ' }), {
    status: 400,
    body: { error: 'Name is required', field: 'name' },
  });
  t.deepEqual(await appCall(server, s, '/members/invite', { email: 'not an email', role: 'member' }), {
    status: 400,
    body: { error: 'Email must be an email address', field: 'email' },
  });
  t.deepEqual(await appCall(server, s, '/members/invite', { email: 'a@example.test', role: 'owner' }), {
    status: 400,
    body: { error: 'Role must be admin or member', field: 'role' },
  });
  t.deepEqual(
    await appCall(server, s, '/account/password', { current_password: who.password, new_password: 'short' }),
    {
      status: 400,
      body: { error: 'Password must be at least 10 characters', field: 'new_password' },
    },
  );
  // The API's own messages come through the app unchanged, naming the parameter.
  const webhook = await appCall(server, s, '/op/create-webhook', { url: 'ftp://x.example', events: ['digest.daily'] });
  t.is(webhook.status, 400);
  t.regex(webhook.body.error, /^url /);
  t.is((await appCall(server, s, '/keys')).body.length, 1);
  t.deepEqual((await appCall(server, s, '/op/webhooks')).body, []);
  const invited = await server.stores.pg.query('SELECT 1 FROM invitations WHERE organization_id = $1', [
    who.organizationId,
  ]);
  t.is(invited.rowCount, 0);
});

test('a session follows its person: removed from the organization, they see none of it on the next request', async (t) => {
  const admin = await person(server);
  const adminSession = await session(server, admin);
  const email = `m-${Date.now()}@example.test`;
  const invited = await appCall(server, adminSession, '/members/invite', { email, role: 'member' });
  t.is(invited.status, 200);
  const token = (await mailedLink(email)).split('/').pop();
  const accept = await fetch(`${server.url}/app/invitations/${token}`, form({ password: 'long enough password' }));
  t.is(accept.status, 303);
  const member = await session(server, { email, password: 'long enough password' });
  t.is((await appCall(server, member, '/op/brands')).body.length, 1);
  // Members see who belongs, and manage nothing.
  t.is((await appCall(server, member, '/members')).body.length, 2);
  const refused = { status: 403, body: { error: 'Only admins manage members' } };
  t.deepEqual(await appCall(server, member, '/members/invite', { email: 'x@example.test', role: 'admin' }), refused);
  t.deepEqual(await appCall(server, member, '/members/invitations'), refused);

  const members = (await appCall(server, adminSession, '/members')).body;
  const userId = members.find((m: any) => m.role === 'member').user_id;
  t.is((await appCall(server, adminSession, `/members/${userId}/remove`, {})).status, 200);
  t.deepEqual((await appCall(server, member, '/op/brands')).body, []);
  t.is((await appCall(server, member, `/op/visibility-summary?brand_id=${admin.brandId}`)).status, 404);
});

test('the last admin cannot be removed or demoted', async (t) => {
  const admin = await person(server);
  const s = await session(server, admin);
  const [me] = (await appCall(server, s, '/members')).body;
  t.is(me.role, 'admin');
  const refused = { status: 409, body: { error: 'The last admin cannot be removed or demoted' } };
  t.deepEqual(await appCall(server, s, `/members/${me.user_id}/role`, { role: 'member' }), refused);
  t.deepEqual(await appCall(server, s, `/members/${me.user_id}/remove`, {}), refused);
  t.is((await appCall(server, s, '/members')).body.length, 1);
});

test('an invitation is mailed to the invited address only, good once and for 7 days; it adds a membership and removes none', async (t) => {
  const admin = await person(server);
  const elsewhere = await person(server);
  const s = await session(server, admin);
  const invited = await appCall(server, s, '/members/invite', { email: elsewhere.email, role: 'admin' });
  t.is(invited.status, 200);
  t.true(invited.body.mailed);
  // The admin never sees the link: only the mailbox holder can use it.
  t.is(invited.body.link, null);
  const days = (Date.parse(invited.body.expires_at) - Date.now()) / 86_400_000;
  t.true(days > 6.99 && days <= 7);
  const token = (await mailedLink(elsewhere.email)).split('/').pop();
  // Mailed to the invited address only: no other recipient in the envelope or the headers.
  const mail = mails.find((m) => m.text.includes(elsewhere.email));
  t.deepEqual(mail?.to, [elsewhere.email]);
  const headers = (mail?.text ?? '').split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  t.deepEqual(
    headers.split(/\r?\n/).filter((h) => /^(to|cc|bcc):/i.test(h)),
    [`To: ${elsewhere.email}`],
  );
  t.false(headers.includes(admin.email));
  // One form, the same for everyone: a password, never a new one for an existing account.
  const page = await (await fetch(`${server.url}/app/invitations/${token}`)).text();
  t.true(page.includes('If you already have an Answerscope account with this email, enter its'));
  const takeover = await fetch(`${server.url}/app/invitations/${token}`, form({ password: 'a new long password' }));
  t.is(takeover.status, 400);
  t.true((await takeover.text()).includes('Password is incorrect'));
  t.is((await fetch(`${server.url}/app/invitations/${token}`, form({ password: elsewhere.password }))).status, 303);
  t.is((await fetch(`${server.url}/app/invitations/${token}`, form({ password: elsewhere.password }))).status, 404);
  // The person now belongs to both organizations; their own lost nobody.
  const both = await session(server, elsewhere);
  const me = (await appCall(server, both, '/me')).body;
  t.deepEqual(me.organizations.map((o: any) => o.id).sort(), [admin.organizationId, elsewhere.organizationId].sort());
  t.is(me.organizations.find((o: any) => o.id === admin.organizationId).role, 'admin');
  t.is((await listMembers(server.stores.pg, elsewhere.organizationId)).length, 1);

  // A link past its 7 days is refused, and sets nothing.
  const lateEmail = `late-${Date.now()}@example.test`;
  await appCall(server, s, '/members/invite', { email: lateEmail, role: 'member' });
  const lateToken = (await mailedLink(lateEmail)).split('/').pop();
  await server.stores.pg.query(
    "UPDATE invitations SET expires_at = now() - interval '1 second' WHERE email LIKE 'late-%'",
  );
  t.is(
    (await fetch(`${server.url}/app/invitations/${lateToken}`, form({ password: 'a new long password' }))).status,
    404,
  );
});

test('an invitation that cannot be mailed is a 503 beside Email, and leaves no invitation behind', async (t) => {
  const admin = await person(server);
  const s = await session(server, admin);
  const email = `undeliverable-${Date.now()}@example.test`;
  const invited = await appCall(server, s, '/members/invite', { email, role: 'member' });
  t.deepEqual(invited, {
    status: 503,
    body: { error: 'The invitation could not be mailed, so it was not made: try again later', field: 'email' },
  });
  t.deepEqual((await appCall(server, s, '/members/invitations')).body, []);
  const { rows } = await server.stores.pg.query('SELECT 1 FROM invitations WHERE email = $1', [email]);
  t.is(rows.length, 0);
});

test('answerscope users set-password reads the first line of standard input and prints only the user id', async (t) => {
  const who = await person(server);
  const run = (input: string) => cli(['users', 'set-password', '--email', who.email], server.env, undefined, input);
  const done = await run('a password from stdin\nsecond line ignored\n');
  t.is(done.code, 0);
  t.deepEqual(Object.keys(done.json), ['userId']);
  t.false(done.stdout.includes('a password from stdin'));
  t.is((await session(server, { email: who.email, password: 'a password from stdin' })).cookie.length > 0, true);
  const short = await run('short\n');
  t.is(short.code, 1);
  t.is(short.stderr.trim(), 'Password must be at least 10 characters');
  const nobody = await cli(
    ['users', 'set-password', '--email', 'nobody@example.test'],
    server.env,
    undefined,
    'long enough pw\n',
  );
  t.is(nobody.code, 1);
});

test('the consent page: a signed-in person allows with one button; Disconnect ends the tokens at once', async (t) => {
  const who = await person(server);
  const s = await session(server, who);
  const clientId = await newClient(server);
  const { verifier, challenge } = pkce();
  const url = authorizeUrl(server, {
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    state: 'st',
  });
  // Not signed in: the page offers sign-in, and pasting a key stays possible.
  const anonymous = await (await fetch(url)).text();
  t.true(anonymous.includes('<label for="email">Email</label>'));
  t.true(anonymous.includes('name="key"'));
  t.false(anonymous.includes('value="allow"'));
  // Signed in: the organization and one Allow.
  const page = await (await fetch(url, { headers: { cookie: s.cookie } })).text();
  t.true(page.includes('value="allow"'));
  const nonce = /name="nonce" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? '';
  // The form's token is bound to this session and this request: without it, nothing is granted.
  const unbound = await fetch(`${server.url}/oauth/authorize`, form({ nonce, action: 'allow' }, { cookie: s.cookie }));
  t.is(unbound.status, 400);
  const allowed = await fetch(
    `${server.url}/oauth/authorize`,
    form({ nonce, action: 'allow', token }, { cookie: s.cookie }),
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
  t.is(tokens.status, 200);
  const mcp = () =>
    fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.body.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
  t.is((await mcp()).status, 200);
  const connected = (await appCall(server, s, '/connect')).body;
  t.is(connected.applications.length, 1);
  t.is(connected.applications[0].name, 'Test assistant');
  t.is((await appCall(server, s, `/connect/${clientId}/disconnect`, {})).status, 200);
  t.is((await mcp()).status, 401);
  t.deepEqual((await appCall(server, s, '/connect')).body.applications, []);
});

test('a cross-site post to the consent page is refused: Sec-Fetch-Site, Origin, another token', async (t) => {
  const who = await person(server);
  const s = await session(server, who);
  const clientId = await newClient(server);
  const url = authorizeUrl(server, {
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: pkce().challenge,
  });
  const pending = async (cookie = s.cookie) => {
    const page = await (await fetch(url, { headers: { cookie } })).text();
    return {
      nonce: /name="nonce" value="([^"]+)"/.exec(page)?.[1] ?? '',
      token: /name="token" value="([^"]+)"/.exec(page)?.[1] ?? '',
    };
  };
  const allow = (fields: { nonce: string; token: string }, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/oauth/authorize`, form({ ...fields, action: 'allow' }, { cookie: s.cookie, ...headers }));
  const refusedWithoutCode = async (res: Response, label: string) => {
    t.is(res.status, 400, label);
    t.is(res.headers.get('location'), null, label);
  };
  // A token bound to another pending request (or to another session) grants nothing.
  const a = await pending();
  const b = await pending();
  await refusedWithoutCode(await allow({ nonce: b.nonce, token: a.token }), 'token of another request');
  const otherSession = await pending((await session(server, who)).cookie);
  await refusedWithoutCode(await allow({ nonce: b.nonce, token: otherSession.token }), 'token of another session');
  // The right token, posted by another site, grants nothing either.
  const crossSite: Record<string, string>[] = [
    { 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'same-site' },
    { 'sec-fetch-site': 'cross-site', origin: 'null' },
    { origin: 'https://evil.example' },
  ];
  for (const headers of crossSite) {
    await refusedWithoutCode(await allow(b, headers), JSON.stringify(headers));
  }
  // The request is still pending: from this site (a no-referrer page's Origin: null), it is granted.
  const granted = await allow(b, { 'sec-fetch-site': 'same-origin', origin: 'null' });
  t.is(granted.status, 303);
  t.truthy(new URL(granted.headers.get('location') ?? '').searchParams.get('code'));
  // The consent page's sign-in, posted by another site, opens no session.
  const c = await pending('');
  const signIn = await fetch(
    `${server.url}/oauth/authorize`,
    form(
      { nonce: c.nonce, action: 'sign-in', email: who.email, password: who.password },
      { 'sec-fetch-site': 'cross-site' },
    ),
  );
  t.is(signIn.status, 403);
  t.is(signIn.headers.get('set-cookie'), null);
});

test('roles: the first member is admin, a workspace file may make another admin, and never demotes anyone', async (t) => {
  const name = `Roles ${Date.now()}`;
  const apply = (members: object[]) =>
    applyWorkspace(server.stores.pg, parseWorkspace({ organizations: [{ name, plan: 'starter', members }] }));
  const first = `first-${Date.now()}@example.test`;
  const second = `second-${Date.now()}@example.test`;
  const third = `third-${Date.now()}@example.test`;
  const applied = await apply([{ email: first }, { email: second }, { email: third, role: 'admin' }]);
  const roles = async () =>
    Object.fromEntries(
      (await listMembers(server.stores.pg, applied.organizations[0].id)).map((m) => [m.email, m.role]),
    );
  t.deepEqual(await roles(), { [first]: 'admin', [second]: 'member', [third]: 'admin' });
  await apply([{ email: first, role: 'member' }, { email: second }, { email: third }]);
  t.deepEqual(await roles(), { [first]: 'admin', [second]: 'member', [third]: 'admin' });
});
