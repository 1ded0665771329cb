// The OAuth rules that need no server: PUBLIC_URL, the resource indicator, redirect URIs, and the
// S256 check against RFC 7636's own example (Appendix B).
// test-process: shared
import test from 'ava';
import type Koa from 'koa';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import {
  baseUrl,
  bearerChallenge,
  isOurResource,
  protectedResourceMetadata,
} from '../../../src/http/oauth/metadata.ts';
import { redirectUriProblem } from '../../../src/http/oauth/register.ts';
import { pkceMatches } from '../../../src/http/oauth/token.ts';

const request = (protocol: string, host: string) =>
  ({
    protocol,
    get: (name: string) => (name === 'Host' ? host : ''),
    vary: () => {},
    set: () => {},
  }) as unknown as Koa.Context;

test('PUBLIC_URL is an origin and wins over the request; without it the request names the base', (t) => {
  const config = loadConfig({ PUBLIC_URL: 'https://answers.example.com/' });
  t.is(config.publicUrl, 'https://answers.example.com');
  t.is(baseUrl(request('http', '10.0.0.5:8787'), config), 'https://answers.example.com');
  t.is(baseUrl(request('http', '127.0.0.1:8787'), loadConfig({})), 'http://127.0.0.1:8787');
  for (const bad of ['https://answers.example.com/app', 'ftp://x.example', 'answers.example.com']) {
    t.throws(() => loadConfig({ PUBLIC_URL: bad }), { instanceOf: ConfigError, message: /PUBLIC_URL/ }, bad);
  }
  const prm = protectedResourceMetadata('https://answers.example.com');
  t.is(prm.resource, 'https://answers.example.com/api/mcp');
  t.is(
    bearerChallenge('https://answers.example.com', false),
    'Bearer resource_metadata="https://answers.example.com/.well-known/oauth-protected-resource"',
  );
});

test('the resource indicator names this MCP server only', (t) => {
  const base = 'https://answers.example.com';
  for (const ok of [`${base}/api/mcp`, `${base}/api/mcp/`, base, `${base}/`]) t.true(isOurResource(ok, base), ok);
  for (const no of [`${base}/api`, `${base}/api/mcp/x`, 'https://evil.example/api/mcp', `http://answers.example.com`]) {
    t.false(isOurResource(no, base), no);
  }
});

test('redirect URIs: https anywhere, http on loopback only, no fragment or credentials', (t) => {
  for (const ok of ['https://claude.ai/api/mcp/auth_callback', 'http://127.0.0.1:1234/cb', 'http://[::1]/cb']) {
    t.is(redirectUriProblem(ok), undefined, ok);
  }
  for (const no of [
    'http://example.com/cb',
    'http://127.0.0.1.evil.example/cb',
    'https://x.example/cb#f',
    'https://u:p@x.example/cb',
    'myapp://cb',
    'not a url',
    // The URL parser keeps these in a host; a header built from it would gain directives.
    'https://a.com;sandbox;frame-ancestors/x',
    'https://a.com,b.example/cb',
    'https://a"b.example/cb',
  ]) {
    t.truthy(redirectUriProblem(no), no);
  }
});

test('S256: the verifier of RFC 7636 Appendix B matches its challenge, nothing else does', (t) => {
  // RFC 7636 Appendix B, https://www.rfc-editor.org/rfc/rfc7636#appendix-B (taken 2026-11-25).
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
  t.true(pkceMatches(verifier, challenge));
  t.false(pkceMatches(`${verifier}x`, challenge));
  // The plain method would compare the verifier itself: refused.
  t.false(pkceMatches(verifier, verifier));
});
