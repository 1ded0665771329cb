// Behind two trusted proxies (TRUST_PROXY=2, no PUBLIC_URL), over HTTP (docs/operations.md, "Behind a
// proxy"; docs/oauth.md, "Base URL"): the outermost proxy appends the client's address to
// X-Forwarded-For and the host it was asked for to X-Forwarded-Host, the inner one appends the outer
// one's; whatever the client wrote further left is never believed. A server of its own: chDB allows
// one per test process, and the other files' servers trust one proxy.
// test-process: shared
import http from 'node:http';
import test from 'ava';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { appCall, person, session } from './helpers.ts';

let server: TestServer;

test.before(async () => {
  server = await startTestServer({ TRUST_PROXY: '2' });
});

test.after.always(async () => {
  await server?.stop();
});

const INNER_PROXY = '10.0.0.2';

const signIn = (email: string, password: string, forwardedFor: string) =>
  fetch(`${server.url}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
    body: new URLSearchParams({ email, password }),
  });

test('a leftmost X-Forwarded-For entry the client writes does not escape the sign-in lock-out', async (t) => {
  const who = await person(server);
  const client = '198.51.100.61';
  // Ten failures, each claiming another address at the left of what the proxies wrote.
  for (let i = 0; i < 10; i++) {
    t.is((await signIn(who.email, `wrong guess ${i}`, `192.0.2.${i}, ${client}, ${INNER_PROXY}`)).status, 401);
  }
  const refused = await signIn(who.email, who.password, `192.0.2.99, ${client}, ${INNER_PROXY}`);
  t.is(refused.status, 429);
  t.true(Number(refused.headers.get('retry-after')) > 0);
  // Without a claim of its own, the same client is refused too; another client is not.
  t.is((await signIn(who.email, who.password, `${client}, ${INNER_PROXY}`)).status, 429);
  t.is((await signIn(who.email, who.password, `198.51.100.62, ${INNER_PROXY}`)).status, 303);
});

test("fewer X-Forwarded-For entries than trusted proxies: the connection's own address", async (t) => {
  const who = await person(server);
  const addressOf = async (forwardedFor: string) => {
    const s = await session(server, who, { 'x-forwarded-for': forwardedFor });
    const sessions = (await appCall(server, s, '/account/sessions')).body;
    return sessions.find((x: any) => x.current).address;
  };
  t.is(await addressOf('203.0.113.9'), '127.0.0.1');
  t.is(await addressOf(`203.0.113.9, ${INNER_PROXY}`), '203.0.113.9');
  t.is(await addressOf(`192.0.2.1, 203.0.113.9, ${INNER_PROXY}`), '203.0.113.9');
});

/** The issuer of the authorization server metadata, asked with these headers (Host set by hand). */
function issuer(headers: Record<string, string>): Promise<string> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: '/.well-known/oauth-authorization-server',
        headers: { host: `127.0.0.1:${url.port}`, ...headers },
        setHost: false,
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          try {
            resolve(JSON.parse(text).issuer);
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('without PUBLIC_URL the issuer is the host the outermost trusted proxy wrote, never the client', async (t) => {
  const { port } = new URL(server.url);
  t.is(await issuer({ 'x-forwarded-host': 'evil.example, answers.example, inner.internal' }), 'http://answers.example');
  t.is(await issuer({ 'x-forwarded-host': 'answers.example, inner.internal' }), 'http://answers.example');
  // Fewer entries than N: the Host the connection carried.
  t.is(await issuer({ 'x-forwarded-host': 'evil.example' }), `http://127.0.0.1:${port}`);
  t.is(await issuer({}), `http://127.0.0.1:${port}`);
});
