// OAuth 2.1 for the MCP endpoint (docs/api.md section 16) against the running service: the whole
// flow with the MCP SDK's own client, then each rule by hand: PKCE, one-use codes, refresh
// rotation, tokens dying with their key or its owner's membership, REST and the Metrics API
// refusing tokens, the 401 challenge, and no redirect to anything but a registered URI.
// test-process: shared
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { OAuthMetadataSchema, OAuthProtectedResourceMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { call, get, seedTenant, startTestServer, type TestServer } from '../../helpers/server.ts';
import { initialize, post } from '../../mcp/client.ts';
import { revokeKey } from '../../../src/tenancy/keys.ts';
import { addMember, removeMember } from '../../../src/tenancy/members.ts';
import {
  authorizeUrl,
  consent,
  formPost,
  grantTokens,
  newClient,
  openPage,
  pkce,
  postForm,
  REDIRECT_URI,
  registerClient,
  TestOAuthProvider,
  tokenRequest,
} from './helpers.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
});
test.after.always(async () => {
  await server?.stop();
});

const mcpWith = (token: string) => post(server, initialize, { authorization: `Bearer ${token}` });
const challenge = () => `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource"`;

test('the MCP SDK client connects by URL alone: discovery, registration, consent, tokens, then tools', async (t) => {
  const tenant = await seedTenant(server);
  const provider = new TestOAuthProvider(server, tenant.key);
  const url = new URL(`${server.url}/api/mcp`);
  const first = new Client({ name: 'oauth-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  // The first attempt meets the 401, registers, and sends the person to the consent page.
  await t.throwsAsync(first.connect(transport), { instanceOf: UnauthorizedError });
  t.truthy(provider.client?.client_id);
  t.truthy(provider.code);
  t.is(provider.states.returned, provider.states.sent);
  await transport.finishAuth(provider.code ?? '');
  t.is(provider.saved?.token_type, 'Bearer');
  t.is(provider.saved?.expires_in, 3600);
  t.regex(provider.saved?.access_token ?? '', /^ansat_/);

  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  const result = await client.callTool({ name: 'list_brands', arguments: {} });
  t.falsy(result.isError);
  // The token acts exactly as the key: the same brands as REST answers the key.
  const rest = await get(server, '/api/mcp/brands', tenant.key);
  t.deepEqual((result.structuredContent as { items: unknown[] }).items, rest.body);
  await client.close();

  // An access token the server no longer takes: the SDK refreshes (rotation) and carries on.
  const before = provider.saved;
  provider.saved = { ...(before as NonNullable<typeof before>), access_token: 'ansat_expired' };
  const again = new Client({ name: 'oauth-test', version: '1.0.0' });
  await again.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  t.not(provider.saved?.refresh_token, before?.refresh_token);
  t.false((await again.callTool({ name: 'list_brands', arguments: {} })).isError === true);
  await again.close();
});

test('the metadata documents (RFC 9728, RFC 8414) parse with the SDK schemas and point at each other', async (t) => {
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api/mcp']) {
    const res = await get(server, path);
    t.is(res.status, 200, path);
    const prm = OAuthProtectedResourceMetadataSchema.parse(res.body);
    t.is(prm.resource, `${server.url}/api/mcp`);
    t.deepEqual(prm.authorization_servers, [server.url]);
    t.is(res.headers.get('access-control-allow-origin'), '*');
  }
  const res = await get(server, '/.well-known/oauth-authorization-server');
  t.is(res.status, 200);
  const as = OAuthMetadataSchema.parse(res.body);
  t.is(as.issuer, server.url);
  t.is(as.authorization_endpoint, `${server.url}/oauth/authorize`);
  t.is(as.token_endpoint, `${server.url}/oauth/token`);
  t.is(as.registration_endpoint, `${server.url}/oauth/register`);
  t.deepEqual(as.code_challenge_methods_supported, ['S256']);
  t.deepEqual(as.grant_types_supported, ['authorization_code', 'refresh_token']);
  t.is((await call(server, 'DELETE', '/oauth/token')).status, 405);
});

test('a 401 from /api/mcp carries the resource metadata challenge; a dead token says invalid_token', async (t) => {
  const none = await post(server, initialize);
  t.is(none.status, 401);
  t.deepEqual(none.body, { error: 'Missing or malformed API key' });
  t.is(none.headers.get('www-authenticate'), challenge());
  const badKey = await mcpWith('ans_not_a_key');
  t.deepEqual([badKey.status, badKey.body], [401, { error: 'Invalid API key' }]);
  t.is(badKey.headers.get('www-authenticate'), challenge());
  const badToken = await mcpWith('ansat_not_a_token');
  t.deepEqual([badToken.status, badToken.body], [401, { error: 'Invalid API key' }]);
  t.is(badToken.headers.get('www-authenticate'), `${challenge()}, error="invalid_token"`);
  // REST's 401 has no OAuth challenge: it takes keys only.
  t.is((await get(server, '/api/mcp/brands')).headers.get('www-authenticate'), null);
});

test('REST and the Metrics API refuse an access token; the MCP endpoint takes it', async (t) => {
  const tenant = await seedTenant(server);
  const { access_token } = await grantTokens(server, tenant.key);
  t.is((await mcpWith(access_token)).status, 200);
  for (const path of ['/api/mcp/brands', '/api/v1/brands', '/api/mcp/whoami', '/api/v1/whoami']) {
    const res = await get(server, path, access_token);
    t.deepEqual([res.status, res.body], [401, { error: 'Missing or malformed API key' }], path);
  }
});

test('PKCE: S256 only, and a wrong verifier gets no token', async (t) => {
  const tenant = await seedTenant(server);
  const clientId = await newClient(server);
  const { verifier, challenge: codeChallenge } = pkce();
  const base = { client_id: clientId, redirect_uri: REDIRECT_URI, state: 'xyz' };
  // plain and a missing challenge go back to the (registered) client as invalid_request.
  for (const params of [
    { ...base, code_challenge: verifier, code_challenge_method: 'plain' },
    { ...base, code_challenge: undefined },
    { ...base, code_challenge: codeChallenge, code_challenge_method: undefined },
  ]) {
    const res = await openPage(authorizeUrl(server, params));
    t.is(res.status, 302);
    const back = new URL(res.headers.get('location') ?? '');
    t.is(back.origin + back.pathname, REDIRECT_URI);
    t.is(back.searchParams.get('error'), 'invalid_request');
    t.is(back.searchParams.get('state'), 'xyz');
    t.is(back.searchParams.get('iss'), server.url);
  }

  const { location } = await consent(
    server,
    authorizeUrl(server, { ...base, code_challenge: codeChallenge }),
    tenant.key,
  );
  const code = location.searchParams.get('code') ?? '';
  const exchange = { grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: REDIRECT_URI };
  const wrong = await tokenRequest(server, { ...exchange, code_verifier: pkce().verifier });
  t.is(wrong.status, 400);
  t.is(wrong.body.error, 'invalid_grant');
  t.is(wrong.headers.get('cache-control'), 'no-store');
  const missing = await tokenRequest(server, exchange);
  t.deepEqual([missing.status, missing.body.error], [400, 'invalid_request']);
  // The code was good for one attempt: the right verifier now comes too late.
  t.is((await tokenRequest(server, { ...exchange, code_verifier: verifier })).body.error, 'invalid_grant');
});

test('a replayed code is refused and the tokens issued from it are revoked', async (t) => {
  const tenant = await seedTenant(server);
  const granted = await grantTokens(server, tenant.key);
  t.is((await mcpWith(granted.access_token)).status, 200);
  const replay = await tokenRequest(server, {
    grant_type: 'authorization_code',
    client_id: granted.clientId,
    code: granted.code,
    code_verifier: granted.verifier,
    redirect_uri: REDIRECT_URI,
  });
  t.deepEqual([replay.status, replay.body.error], [400, 'invalid_grant']);
  t.is((await mcpWith(granted.access_token)).status, 401);
  const refresh = await tokenRequest(server, {
    grant_type: 'refresh_token',
    client_id: granted.clientId,
    refresh_token: granted.refresh_token,
  });
  t.is(refresh.body.error, 'invalid_grant');
});

test('refresh tokens rotate: a used one is dead, and presenting it again revokes the grant', async (t) => {
  const tenant = await seedTenant(server);
  const granted = await grantTokens(server, tenant.key);
  const refresh = (token: string) =>
    tokenRequest(server, { grant_type: 'refresh_token', client_id: granted.clientId, refresh_token: token });
  const next = await refresh(granted.refresh_token);
  t.is(next.status, 200);
  t.is(next.headers.get('cache-control'), 'no-store');
  t.not(next.body.refresh_token, granted.refresh_token);
  t.not(next.body.access_token, granted.access_token);
  t.is((await mcpWith(next.body.access_token)).status, 200);
  const old = await refresh(granted.refresh_token);
  t.deepEqual([old.status, old.body.error], [400, 'invalid_grant']);
  // The replay revoked the whole grant: the new pair is dead too.
  t.is((await mcpWith(next.body.access_token)).status, 401);
  t.is((await refresh(next.body.refresh_token)).body.error, 'invalid_grant');
  // Another client cannot use a client's refresh token.
  const other = await grantTokens(server, tenant.key);
  const stolen = await tokenRequest(server, {
    grant_type: 'refresh_token',
    client_id: await newClient(server),
    refresh_token: other.refresh_token,
  });
  t.is(stolen.body.error, 'invalid_grant');
});

test("a revoked key's tokens are refused on the next request, refresh included", async (t) => {
  const tenant = await seedTenant(server);
  const granted = await grantTokens(server, tenant.key);
  t.is((await mcpWith(granted.access_token)).status, 200);
  await revokeKey(server.stores.pg, tenant.keyId);
  const res = await mcpWith(granted.access_token);
  t.is(res.status, 401);
  t.regex(res.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  const refresh = await tokenRequest(server, {
    grant_type: 'refresh_token',
    client_id: granted.clientId,
    refresh_token: granted.refresh_token,
  });
  t.is(refresh.body.error, 'invalid_grant');
});

test("a removed member's tokens are refused, and stay refused if they come back", async (t) => {
  const tenant = await seedTenant(server);
  const granted = await grantTokens(server, tenant.key);
  t.is((await mcpWith(granted.access_token)).status, 200);
  await removeMember(server.stores.pg, tenant.email, tenant.organizationId);
  t.is((await mcpWith(granted.access_token)).status, 401);
  await addMember(server.stores.pg, tenant.email, tenant.organizationId);
  t.is((await mcpWith(granted.access_token)).status, 401);
  // The key itself works again (it follows its owner); a new consent gives a working token.
  t.is((await mcpWith(tenant.key)).status, 200);
  t.is((await mcpWith((await grantTokens(server, tenant.key)).access_token)).status, 200);
});

test('revocation (RFC 7009): a refresh token revokes its grant; unknown tokens answer 200', async (t) => {
  const tenant = await seedTenant(server);
  const granted = await grantTokens(server, tenant.key);
  const res = await formPost(server, '/oauth/revoke', { client_id: granted.clientId, token: granted.refresh_token });
  t.is(res.status, 200);
  t.is((await mcpWith(granted.access_token)).status, 401);
  const unknown = await formPost(server, '/oauth/revoke', { client_id: granted.clientId, token: 'whatever' });
  t.is(unknown.status, 200);
});

test('an unknown client or a redirect_uri not registered shows an error page and never redirects', async (t) => {
  const clientId = await newClient(server);
  const { challenge: codeChallenge } = pkce();
  for (const params of [
    { client_id: 'nope', redirect_uri: REDIRECT_URI },
    { client_id: clientId, redirect_uri: 'https://evil.example/callback' },
    { client_id: clientId, redirect_uri: `${REDIRECT_URI}/` },
    { client_id: clientId, redirect_uri: `${REDIRECT_URI}?x=1` },
  ]) {
    const res = await openPage(authorizeUrl(server, { ...params, code_challenge: codeChallenge, state: 's' }));
    t.is(res.status, 400, JSON.stringify(params));
    t.is(res.headers.get('location'), null);
    t.regex(res.headers.get('content-type') ?? '', /text\/html/);
    t.notRegex(res.html, /evil\.example/);
  }
});

test('deny goes back with access_denied and the state exactly; a stale form grants nothing', async (t) => {
  const tenant = await seedTenant(server);
  const clientId = await newClient(server);
  const state = 'a b&c=d/é%20+';
  const url = authorizeUrl(server, {
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: pkce().challenge,
    state,
  });
  const denied = await consent(server, url, tenant.key, 'deny');
  t.is(denied.location.searchParams.get('error'), 'access_denied');
  t.is(denied.location.searchParams.get('state'), state);
  t.is(denied.location.searchParams.get('code'), null);

  const allowed = await consent(server, url, tenant.key);
  t.is(allowed.location.searchParams.get('state'), state);
  t.is(allowed.organizationShown, tenant.workspace.organizations[0].name);

  // The first form's nonce dies when the key is pasted: only the confirmation page can grant.
  const page = await openPage(url);
  const confirm = await postForm(server, { nonce: page.nonce ?? '', action: 'continue', key: tenant.key });
  t.is(confirm.status, 200);
  const stale = await postForm(server, { nonce: page.nonce ?? '', action: 'allow' });
  t.is(stale.status, 400);
  t.is(stale.headers.get('location'), null);
  // Allow without a pasted key shows the key step again.
  const fresh = await openPage(url);
  const early = await postForm(server, { nonce: fresh.nonce ?? '', action: 'allow' });
  t.is(early.status, 400);
  t.is(early.headers.get('location'), null);
  // A bad key is said so on the page, and nothing is granted.
  const bad = await postForm(server, { nonce: fresh.nonce ?? '', action: 'continue', key: 'ans_wrong' });
  t.is(bad.status, 400);
  t.regex(bad.html, /does not exist or was revoked/);
});

test('the consent page is self-contained: CSP, no framing, no caching, lang and labels', async (t) => {
  const clientId = await newClient(server);
  const res = await openPage(
    authorizeUrl(server, { client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: pkce().challenge }),
  );
  t.is(res.status, 200);
  const csp = res.headers.get('content-security-policy') ?? '';
  t.regex(csp, /default-src 'none'/);
  t.regex(csp, /frame-ancestors 'none'/);
  t.regex(csp, /form-action 'self' http:\/\/127\.0\.0\.1:9(;|$)/);
  t.is(res.headers.get('cache-control'), 'no-store');
  t.regex(res.html, /<html lang="en">/);
  t.regex(res.html, /<label for="key">/);
  t.notRegex(res.html, /<script|https?:\/\/(?!127\.0\.0\.1)/);
});

test('registration: https, or http on loopback only; metadata checked', async (t) => {
  for (const uri of ['https://claude.ai/api/mcp/auth_callback', 'http://127.0.0.1:33418/cb', 'http://localhost/cb']) {
    const res = await registerClient(server, { redirect_uris: [uri] });
    t.is(res.status, 201, uri);
    t.deepEqual(res.body.redirect_uris, [uri]);
    t.is(res.body.client_secret, undefined);
  }
  const ipv6 = await registerClient(server, { redirect_uris: ['http://[::1]:8080/cb'] });
  t.is(ipv6.status, 201);
  for (const uri of ['http://example.com/cb', 'https://x.example/cb#frag', 'javascript:alert(1)', 'ftp://x/cb']) {
    const res = await registerClient(server, { redirect_uris: [uri] });
    t.is(res.status, 400, uri);
    t.true(['invalid_redirect_uri', 'invalid_client_metadata'].includes(res.body.error), uri);
  }
  const implicit = await registerClient(server, { response_types: ['token'] });
  t.deepEqual([implicit.status, implicit.body.error], [400, 'invalid_client_metadata']);
  const notJson = await call(server, 'POST', '/oauth/register', { body: '{' });
  t.deepEqual([notJson.status, notJson.body.error], [400, 'invalid_client_metadata']);
});

test('a confidential client authenticates with its secret (Basic or post); errors are RFC 6749 JSON', async (t) => {
  const tenant = await seedTenant(server);
  const reg = await registerClient(server, { token_endpoint_auth_method: 'client_secret_basic' });
  t.is(reg.status, 201);
  const { client_id: id, client_secret: secret } = reg.body;
  t.truthy(secret);
  const { verifier, challenge: codeChallenge } = pkce();
  const { location } = await consent(
    server,
    authorizeUrl(server, { client_id: id, redirect_uri: REDIRECT_URI, code_challenge: codeChallenge }),
    tenant.key,
  );
  const fields = {
    grant_type: 'authorization_code',
    code: location.searchParams.get('code') ?? '',
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
  };
  const noSecret = await tokenRequest(server, { ...fields, client_id: id });
  t.deepEqual([noSecret.status, noSecret.body.error], [401, 'invalid_client']);
  const wrong = await tokenRequest(server, fields, {
    authorization: `Basic ${Buffer.from(`${id}:nope`).toString('base64')}`,
  });
  t.deepEqual([wrong.status, wrong.body.error], [401, 'invalid_client']);
  t.regex(wrong.headers.get('www-authenticate') ?? '', /^Basic/);
  const ok = await tokenRequest(server, fields, {
    authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
  });
  t.is(ok.status, 200);
  const refreshed = await tokenRequest(server, {
    grant_type: 'refresh_token',
    refresh_token: ok.body.refresh_token,
    client_id: id,
    client_secret: secret,
  });
  t.is(refreshed.status, 200);

  const unknown = await tokenRequest(server, {
    grant_type: 'client_credentials',
    client_id: id,
    client_secret: secret,
  });
  t.deepEqual([unknown.status, unknown.body.error], [400, 'unsupported_grant_type']);
  const asJson = await call(server, 'POST', '/oauth/token', { body: { grant_type: 'refresh_token' } });
  t.deepEqual([asJson.status, asJson.body.error], [400, 'invalid_request']);
  t.is(typeof asJson.body.error_description, 'string');
});
