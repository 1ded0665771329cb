// The client address behind N trusted proxies, and the app's own rate limits (docs/app.md,
// "Limits"; docs/operations.md, "Behind a proxy"), on a server with small limits.
// test-process: shared
import test from 'ava';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { appCall, person, session } from './helpers.ts';
import { authorizeUrl, newClient, pkce, REDIRECT_URI } from '../oauth/helpers.ts';
import { clientAddress } from '../../../src/http/client-address.ts';

let limited: TestServer;

test.before(async () => {
  limited = await startTestServer({
    TRUST_PROXY: '1',
    RATE_LIMIT_MAX: '5',
    APP_RATE_LIMIT_MAX: '20',
    APP_SESSION_RATE_LIMIT_MAX: '8',
    APP_FORM_RATE_LIMIT_MAX: '4',
  });
});

test.after.always(async () => {
  await limited?.stop();
});

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  redirect: 'manual' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields),
});

test('TRUST_PROXY=N: the client address is the Nth entry from the right of X-Forwarded-For', async (t) => {
  t.is(clientAddress('1.1.1.1, 2.2.2.2, 3.3.3.3', '10.0.0.1', 1), '3.3.3.3');
  t.is(clientAddress('1.1.1.1, 2.2.2.2, 3.3.3.3', '10.0.0.1', 2), '2.2.2.2');
  t.is(clientAddress('3.3.3.3', '10.0.0.1', 2), '10.0.0.1');
  t.is(clientAddress('1.1.1.1', '10.0.0.1', 0), '10.0.0.1');
  t.is(clientAddress('not-an-address', '10.0.0.1', 1), '10.0.0.1');

  // The client writes the left of the header; the proxy appends the address it saw. Varying the
  // left passes neither the sign-in lock-out nor the API's limit.
  const who = await person(limited);
  const proxyWrote = '198.51.100.77';
  const viaProxy = (i: number) => ({ 'x-forwarded-for': `192.0.2.${i}, ${proxyWrote}` });
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${limited.url}/api/v1/brands`, {
      headers: { authorization: `Bearer ${who.key}`, ...viaProxy(i) },
    });
    t.is(res.status, 200);
  }
  const statuses = [];
  for (let i = 3; i < 8; i++) {
    const res = await fetch(`${limited.url}/api/v1/brands`, {
      headers: { authorization: `Bearer ${who.key}`, ...viaProxy(i) },
    });
    statuses.push(res.status);
  }
  t.deepEqual(statuses, [200, 200, 429, 429, 429]);
  // Another client behind the same proxy (another address written by it) is counted apart.
  const other = await fetch(`${limited.url}/api/v1/brands`, {
    headers: { authorization: `Bearer ${who.key}`, 'x-forwarded-for': '192.0.2.1, 198.51.100.78' },
  });
  t.is(other.status, 200);
});

test("the app's own routes are limited per address and per session, with Retry-After", async (t) => {
  const who = await person(limited);
  const s = await session(limited, who);
  const from = { 'x-forwarded-for': '198.51.100.90' };
  const statuses = [];
  for (let i = 0; i < 9; i++) statuses.push((await appCall(limited, s, '/me', undefined, from)).status);
  t.deepEqual(statuses.slice(-2), [200, 429]);
  const refused = await fetch(`${limited.url}/app/api/me`, { headers: { cookie: s.cookie, ...from } });
  t.is(refused.status, 429);
  t.truthy(refused.headers.get('retry-after'));
  // The session's limit follows it to another address.
  t.is((await appCall(limited, s, '/me', undefined, { 'x-forwarded-for': '198.51.100.91' })).status, 429);
  // The forms: four posts from one address, then 429.
  const signIns = [];
  let last: Response | undefined;
  for (let i = 0; i < 5; i++) {
    last = await fetch(
      `${limited.url}/app/sign-in`,
      form({ email: `nobody${i}@example.test`, password: 'wrong password!' }, { 'x-forwarded-for': '198.51.100.92' }),
    );
    signIns.push(last.status);
  }
  t.deepEqual(signIns, [401, 401, 401, 401, 429]);
  t.true(Number(last?.headers.get('retry-after')) > 0);
});

test("the app's routes are limited per address whatever the session: three sessions from one address", async (t) => {
  const who = await person(limited);
  // Signed in from addresses of their own: the form limit (4) is not what this test is about.
  const sessions = [];
  for (let i = 0; i < 3; i++) sessions.push(await session(limited, who, { 'x-forwarded-for': `198.51.100.10${i}` }));
  const from = { 'x-forwarded-for': '198.51.100.110' };
  // 20 calls from one address, each session under its own limit of 8.
  const statuses = [];
  for (const [i, s] of sessions.entries()) {
    for (let j = 0; j < (i < 2 ? 7 : 6); j++) statuses.push((await appCall(limited, s, '/me', undefined, from)).status);
  }
  t.deepEqual(new Set(statuses), new Set([200]));
  t.is(statuses.length, 20);
  const refused = await fetch(`${limited.url}/app/api/me`, { headers: { cookie: sessions[2].cookie, ...from } });
  t.is(refused.status, 429);
  t.true(Number(refused.headers.get('retry-after')) > 0);
  // The same session from another address is under both limits.
  t.is((await appCall(limited, sessions[2], '/me', undefined, { 'x-forwarded-for': '198.51.100.111' })).status, 200);
});

test('the invitation and consent forms are limited per address, 429 with Retry-After', async (t) => {
  const post = (path: string, fields: Record<string, string>, address: string) =>
    fetch(`${limited.url}${path}`, form(fields, { 'x-forwarded-for': address }));
  // An invitation link tried again and again from one address.
  const invitations = [];
  for (let i = 0; i < 5; i++) {
    invitations.push(
      await post(`/app/invitations/guessed-${i}`, { password: 'a long enough password' }, '198.51.100.120'),
    );
  }
  t.deepEqual(
    invitations.map((r) => r.status),
    [404, 404, 404, 404, 429],
  );
  t.true(Number(invitations[4].headers.get('retry-after')) > 0);
  t.is((await post('/app/invitations/guessed', { password: 'a long enough password' }, '198.51.100.121')).status, 404);

  // The consent page's sign-in, guessed from one address.
  const clientId = await newClient(limited);
  const url = authorizeUrl(limited, {
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: pkce().challenge,
  });
  const nonce = /name="nonce" value="([^"]+)"/.exec(await (await fetch(url)).text())?.[1] ?? '';
  const guess = (i: number, address: string) =>
    post(
      '/oauth/authorize',
      { nonce, action: 'sign-in', email: `guess${i}@example.test`, password: 'wrong one!' },
      address,
    );
  const consents = [];
  for (let i = 0; i < 5; i++) consents.push(await guess(i, '198.51.100.122'));
  t.deepEqual(
    consents.map((r) => r.status),
    [401, 401, 401, 401, 429],
  );
  t.true(Number(consents[4].headers.get('retry-after')) > 0);
  t.is((await guess(5, '198.51.100.123')).status, 401);
});
