// The OAuth endpoints pass a per-address rate limit (a server of its own: the limit is tiny).
// test-process: shared
import test from 'ava';
import { get, startTestServer, type TestServer } from '../../helpers/server.ts';
import { tokenRequest } from './helpers.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '2' });
});
test.after.always(async () => {
  await server?.stop();
});

test('past the limit, the OAuth endpoints answer 429 with Retry-After, as an OAuth error', async (t) => {
  t.is((await get(server, '/.well-known/oauth-authorization-server')).status, 200);
  t.is((await get(server, '/.well-known/oauth-protected-resource')).status, 200);
  const res = await tokenRequest(server, { grant_type: 'refresh_token' });
  t.is(res.status, 429);
  t.is(res.body.error, 'too_many_requests');
  t.regex(res.body.error_description, /Too many requests/);
  t.regex(res.headers.get('retry-after') ?? '', /^\d+$/);
  const page = await fetch(new URL('/oauth/authorize', server.url));
  t.is(page.status, 429);
});
