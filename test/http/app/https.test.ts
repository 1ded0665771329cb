// Behind an https PUBLIC_URL (docs/app.md, "Sessions"): the session cookie's `__Host-` prefix and
// Strict-Transport-Security on every response.
// test-process: shared
import test from 'ava';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { person } from './helpers.ts';

let https: TestServer;

test.before(async () => {
  https = await startTestServer({ PUBLIC_URL: 'https://answers.example' });
});

test.after.always(async () => {
  await https?.stop();
});

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  redirect: 'manual' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields),
});

test('behind an https PUBLIC_URL the cookie is __Host- prefixed and every response carries HSTS', async (t) => {
  const who = await person(https);
  const res = await fetch(`${https.url}/app/sign-in`, form({ email: who.email, password: who.password }));
  t.is(res.status, 303);
  const cookie = res.headers.get('set-cookie') ?? '';
  t.regex(cookie, /^__Host-answerscope_session=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
  t.false(/Domain=/i.test(cookie));
  for (const path of ['/healthz', '/app/sign-in', '/api/v1/brands', '/.well-known/oauth-authorization-server']) {
    const r = await fetch(`${https.url}${path}`);
    t.is(r.headers.get('strict-transport-security'), 'max-age=31536000', path);
  }
  // The prefixed cookie opens the session; the plain name does not.
  const token = cookie.split(';')[0].split('=')[1];
  t.is(
    (await fetch(`${https.url}/app/api/me`, { headers: { cookie: `__Host-answerscope_session=${token}` } })).status,
    200,
  );
  t.is((await fetch(`${https.url}/app/api/me`, { headers: { cookie: `answerscope_session=${token}` } })).status, 401);
});
