// Without PUBLIC_URL the service names itself after the request's Host (docs/oauth.md, "Base URL"):
// only a well-formed host is taken (a DNS name or an IP literal, optional port), anything else is
// a 400 before it reaches a header or a document; the challenge's value is a quoted-string; and
// what is built from the Host is marked as varying by it, never cached for another host.
// test-process: shared
import http from 'node:http';
import test from 'ava';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { bearerChallenge } from '../../src/http/oauth/metadata.ts';

// Behind a trusted proxy: the Host rules hold for Host, and for X-Forwarded-Host when it is sent.
let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000', TRUST_PROXY: '1' });
});
test.after.always(async () => {
  await server?.stop();
});

/** A request with headers fetch() will not send as given (Host). */
function raw(
  on: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  const url = new URL(on.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers, setHost: false }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode!, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

const HOSTILE = [
  'evil.example", error="x',
  'a.com;sandbox',
  'a.com,b.example',
  'a.com/x',
  'a.com:99999',
  'user@a.com',
  'a.com:80:81',
  '[::1',
];
const BAD = { error: 'Host must be a host name or IP address with an optional port' };
const METADATA = ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource'];

test('a malformed Host is a 400, on the metadata and on the MCP 401, never written into a header', async (t) => {
  for (const host of HOSTILE) {
    for (const path of METADATA) {
      const r = await raw(server, 'GET', path, { host });
      t.deepEqual([r.status, r.body], [400, BAD], `${path} ${host}`);
    }
    const mcp = await raw(server, 'POST', '/api/mcp', { host, 'content-type': 'application/json' });
    t.is(mcp.status, 400, host);
    t.is(mcp.headers['www-authenticate'], undefined, host);
  }
});

test('a well-formed Host names the service, and the answer varies by Host and is not stored', async (t) => {
  for (const host of ['answers.example:8080', '203.0.113.9', '[2001:db8::1]:443', 'localhost']) {
    const r = await raw(server, 'GET', METADATA[0], { host });
    t.is(r.status, 200, host);
    t.is(r.body.issuer, `http://${host}`, host);
    t.regex(String(r.headers.vary), /\bHost\b/i, host);
    t.is(r.headers['cache-control'], 'no-store', host);
    const mcp = await raw(server, 'POST', '/api/mcp', { host, 'content-type': 'application/json' });
    t.is(mcp.status, 401, host);
    t.is(mcp.headers['www-authenticate'], `Bearer resource_metadata="http://${host}${METADATA[1]}"`);
    t.regex(String(mcp.headers.vary), /\bHost\b/i, host);
  }
});

test('behind a trusted proxy the forwarded host and protocol are held to the same rule', async (t) => {
  const ok = await raw(server, 'GET', METADATA[0], {
    host: '127.0.0.1',
    'x-forwarded-host': 'answers.example',
    'x-forwarded-proto': 'https',
  });
  t.is(ok.body.issuer, 'https://answers.example');
  t.regex(String(ok.headers.vary), /X-Forwarded-Host/i);
  // The proxy appends the host it was asked for; what the client wrote to the left of it is not believed.
  const appended = await raw(server, 'GET', METADATA[0], {
    host: '127.0.0.1',
    'x-forwarded-host': 'evil.example, answers.example',
    'x-forwarded-proto': 'https',
  });
  t.is(appended.body.issuer, 'https://answers.example');
  for (const headers of [
    { 'x-forwarded-host': 'evil.example", error="x', 'x-forwarded-proto': 'http' },
    { 'x-forwarded-host': 'answers.example', 'x-forwarded-proto': 'javascript' },
  ]) {
    const r = await raw(server, 'GET', METADATA[0], { host: '127.0.0.1', ...headers });
    t.deepEqual([r.status, r.body], [400, BAD], JSON.stringify(headers));
  }
});

test("the challenge's value is a quoted-string whatever it holds", (t) => {
  t.is(
    bearerChallenge('http://a"b\\c\r\n', false),
    'Bearer resource_metadata="http://a\\"b\\\\c/.well-known/oauth-protected-resource"',
  );
});
