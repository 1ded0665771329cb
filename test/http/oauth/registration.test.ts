// Dynamic client registration's bounds (docs/oauth.md): redirect URIs whose host is a DNS name or
// an IP literal only (the URL parser keeps `;` in a host, which the consent page's CSP would have
// carried as directives), metadata bounded field by field, registrations per client address
// bounded, and a client never used expiring. The consent page's headers hold whatever is stored.
// test-process: shared
import test from 'ava';
import { call, seedTenant, startTestServer, type TestServer } from '../../helpers/server.ts';
import { authorizeUrl, openPage, pkce, REDIRECT_URI } from './helpers.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000', TRUST_PROXY: '1', OAUTH_REGISTRATIONS_PER_ADDRESS: '3' });
});
test.after.always(async () => {
  await server?.stop();
});

let seq = 0;
/** Each registration from an address of its own unless a test pins one (the bound is per address). */
const fresh = () => `10.7.${++seq >> 8}.${seq & 255}`;
const register = (body: Record<string, unknown>, ip = fresh()) =>
  call(server, 'POST', '/oauth/register', {
    body: { client_name: 'Test assistant', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', ...body },
    headers: { 'x-forwarded-for': ip },
  });

test('a redirect URI whose host is not a DNS name or an IP literal is 400 invalid_redirect_uri', async (t) => {
  for (const uri of [
    'https://a.com;sandbox;frame-ancestors/x',
    'https://a.com,evil.example/cb',
    "https://a.com'unsafe-inline'/cb",
    'https://a.com%3Bsandbox/cb',
    'https://-a.com/cb',
    'https://a..com/cb',
    'https://a_b.example/cb',
  ]) {
    const res = await register({ redirect_uris: [uri] });
    t.is(res.status, 400, uri);
    t.is(res.body.error, 'invalid_redirect_uri', uri);
  }
  for (const uri of ['https://xn--bcher-kva.example/cb', 'https://bücher.example/cb', 'https://203.0.113.7:8443/cb']) {
    t.is((await register({ redirect_uris: [uri] })).status, 201, uri);
  }
});

test('metadata is bounded: every string by length, every list by count', async (t) => {
  const cases: [Record<string, unknown>, string][] = [
    [{ contacts: ['x'.repeat(321)] }, 'contacts[0] has at most 320 characters'],
    [{ contacts: Array.from({ length: 11 }, (_, i) => `a${i}@b.example`) }, 'contacts holds at most 10 values'],
    [{ client_name: 'n'.repeat(201) }, 'client_name has at most 200 characters'],
    [{ client_uri: `https://a.example/${'p'.repeat(2000)}` }, 'client_uri has at most 2000 characters'],
    [{ software_version: 'v'.repeat(201) }, 'software_version has at most 200 characters'],
    [{ grant_types: Array.from({ length: 11 }, () => 'authorization_code') }, 'grant_types holds at most 10 values'],
    [{ jwks: { keys: [{ n: 'k'.repeat(5000) }] } }, 'jwks has at most 4096 characters as JSON'],
  ];
  for (const [body, description] of cases) {
    const res = await register(body);
    t.deepEqual(
      [res.status, res.body.error, res.body.error_description],
      [400, 'invalid_client_metadata', description],
    );
  }
  // A 60 KB contacts entry was stored before: now the body itself is too long.
  const huge = await register({ contacts: ['x'.repeat(60 * 1024)] });
  t.deepEqual(
    [huge.status, huge.body.error, huge.body.error_description],
    [400, 'invalid_client_metadata', 'Request body exceeds 16384 bytes'],
  );
});

test('registrations per client address are bounded, with a clear error and Retry-After', async (t) => {
  const ip = fresh();
  for (let i = 0; i < 3; i++) t.is((await register({}, ip)).status, 201);
  const over = await register({}, ip);
  t.is(over.status, 429);
  t.is(over.body.error, 'too_many_requests');
  t.regex(over.body.error_description, /Too many client registrations from this address: at most 3 a day/);
  const retry = Number(over.headers.get('retry-after'));
  t.true(retry > 23 * 3600 && retry <= 24 * 3600, String(retry));
  t.is((await register({}, fresh())).status, 201, 'another address still registers');
});

test('a client never used expires a day after registering, and the next registration removes it', async (t) => {
  await seedTenant(server); // a key for the grant below
  const unused = (await register({})).body.client_id;
  const used = (await register({})).body.client_id;
  const { pg } = server.stores;
  // A grant makes a client used (made before both age: other tests' registrations remove unused
  // clients meanwhile); its row is enough here (no key is needed to show the page).
  await pg.query(
    `INSERT INTO oauth_grants (id, client_id, key_id, user_id, organization_id, scope, code_hash, code_challenge, redirect_uri, code_expires_at)
     SELECT gen_random_uuid(), $1, k.id, k.user_id, m.organization_id, 'mcp', md5(random()::text), 'x', $2, now()
     FROM api_keys k JOIN memberships m ON m.user_id = k.user_id LIMIT 1`,
    [used, REDIRECT_URI],
  );
  await pg.query("UPDATE oauth_clients SET created_at = now() - interval '25 hours' WHERE id = ANY($1)", [
    [unused, used],
  ]);
  const page = (clientId: string) =>
    openPage(
      authorizeUrl(server, { client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: pkce().challenge }),
    );
  t.is((await page(unused)).status, 400, 'expired: an unknown client');
  t.is((await page(used)).status, 200);
  t.is((await register({})).status, 201);
  const { rows } = await pg.query('SELECT id FROM oauth_clients WHERE id = ANY($1)', [[unused, used]]);
  t.deepEqual(
    rows.map((r) => r.id),
    [used],
  );
});

test("the consent page's CSP names only a well-formed redirect origin, whatever was stored", async (t) => {
  const clientId = (await register({})).body.client_id;
  const bad = 'https://a.com;sandbox;frame-ancestors/x';
  // As a registration accepted before the rule would have stored it.
  await server.stores.pg.query('UPDATE oauth_clients SET redirect_uris = $2 WHERE id = $1', [clientId, [bad]]);
  const res = await openPage(
    authorizeUrl(server, { client_id: clientId, redirect_uri: bad, code_challenge: pkce().challenge }),
  );
  const csp = res.headers.get('content-security-policy') ?? '';
  t.notRegex(csp, /sandbox|a\.com/);
  t.regex(csp, /form-action 'self';/);
  t.regex(csp, /frame-ancestors 'none'$/);
});
