// The safe fetcher against a local site. Loopback is itself refused by the default policy, so the
// redirect tests pass a policy that treats exactly 127.0.0.1 as public and everything else as the
// default does: the refusal then has to come from the redirect hop, not from the first request.
import test from 'ava';
import zlib from 'node:zlib';
import { FetchError, MAX_REDIRECTS, safeFetch, USER_AGENT } from '../../src/audits/fetch.ts';
import { onlyThisHost, redirect, startSite, type TestSite, UNHURRIED_MS } from './fixtures/site.ts';
import { fakeNames } from './fixtures/names.ts';

let site: TestSite;
// Names that resolve inward, as a deployment's internal names do (`vm`, `db`, ...).
fakeNames({ 'intranet.test': '10.0.0.5', 'metadata.test': '169.254.169.254', 'ipvsix.test': '::1' });

test.before(async () => {
  site = await startSite({
    '/': { body: '<p>hello</p>' },
    '/ua': (req, res) => res.end(String(req.headers['user-agent'])),
    '/gzip': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync('<p>compressed</p>'));
    },
    '/bomb': (_req, res) => {
      // 64 KB on the wire, 8 MB once inflated.
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024, 32)));
    },
    '/big': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(Buffer.alloc(6 * 1024 * 1024, 97));
    },
    '/slow': (_req, res) => {
      setTimeout(() => res.end('late'), 3_000);
    },
    '/hop1': redirect('/hop2'),
    '/hop2': redirect('/hop3', 301),
    '/hop3': redirect('http://169.254.169.254/latest/meta-data/', 307),
    '/to-loopback': redirect('http://127.0.0.2:1/'),
    '/r1': redirect('/r2'),
    '/r2': redirect('/', 301),
    '/to-v6': redirect('http://[::ffff:10.0.0.1]/'),
    '/to-name': redirect('http://intranet.test/admin'),
    '/to-file': redirect('file:///etc/passwd'),
    '/loop': redirect('/loop'),
    '/post': (req, res) => {
      if (req.method === 'POST') {
        res.writeHead(302, { location: '/' });
        return res.end();
      }
      res.end('not a post');
    },
  });
});

test.after.always(async () => {
  await site?.close();
});

const open = { allowPrivate: true, timeoutMs: UNHURRIED_MS };
const ONLY_PUBLIC = '; only public addresses can be fetched';

async function refusal(t: any, p: Promise<unknown>): Promise<FetchError> {
  const err = await t.throwsAsync(p, { instanceOf: FetchError });
  return err as FetchError;
}

test('fetches a page and reports the final URL, address and timings', async (t) => {
  const res = await safeFetch(site.url('/'), open);
  t.is(res.status, 200);
  t.is(res.body.toString(), '<p>hello</p>');
  t.is(res.url, site.url('/'));
  t.is(res.address, '127.0.0.1');
  t.deepEqual(res.redirects, []);
  t.true(res.firstByteMs >= 0 && res.totalMs >= res.firstByteMs);
});

test('sends an honest User-Agent', async (t) => {
  const res = await safeFetch(site.url('/ua'), open);
  t.is(res.body.toString(), USER_AGENT);
  t.regex(USER_AGENT, /^AnswerscopeAudit\/\d+\.\d+ \(\+https:\/\//);
});

test('decompresses gzip', async (t) => {
  t.is((await safeFetch(site.url('/gzip'), open)).body.toString(), '<p>compressed</p>');
});

test('caps the decompressed size (a gzip bomb is refused)', async (t) => {
  const err = await refusal(t, safeFetch(site.url('/bomb'), open));
  t.is(err.code, 'too_large');
  t.is(err.message, 'The response is larger than 5 MB');
});

test('caps the plain size', async (t) => {
  const err = await refusal(t, safeFetch(site.url('/big'), open));
  t.is(err.code, 'too_large');
  const small = await refusal(t, safeFetch(site.url('/big'), { ...open, maxBytes: 1024 * 1024 }));
  t.is(small.message, 'The response is larger than 1 MB');
});

test('times out', async (t) => {
  // The page answers after 3 s: a refusal naming the timeout is the fetch giving up first.
  const err = await refusal(t, safeFetch(site.url('/slow'), { ...open, timeoutMs: 300 }));
  t.is(err.code, 'timeout');
  t.regex(err.message, /^Timed out after 0\.3 s fetching http:\/\/127\.0\.0\.1:\d+\/slow$/);
});

test('an external signal cancels', async (t) => {
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 100);
  const err = await refusal(t, safeFetch(site.url('/slow'), { ...open, signal: ac.signal }));
  t.is(err.code, 'aborted');
});

test('refuses loopback by default, before connecting', async (t) => {
  const before = site.requests.length;
  const err = await refusal(t, safeFetch(site.url('/'), { allowPrivate: false, timeoutMs: UNHURRIED_MS }));
  t.is(err.code, 'blocked');
  t.is(err.message, 'Blocked address: the host is a loopback address; only public addresses can be fetched');
  t.is(site.requests.length, before);
});

test('refuses a host name that resolves to loopback (checked after DNS resolution)', async (t) => {
  const port = new URL(site.origin).port;
  const err = await refusal(
    t,
    safeFetch(`http://localhost:${port}/`, { allowPrivate: false, timeoutMs: UNHURRIED_MS }),
  );
  t.is(err.code, 'blocked');
  t.is(err.message, `Blocked address: localhost resolves to a loopback address${ONLY_PUBLIC}`);
});

// docs/api.md section 9: the refusal names the class of the address, never the address a name resolved
// to (which would let a tenant map the deployment's internal names).
test('a refused host name is answered with the class of its address, never the address', async (t) => {
  const cases = [
    ['intranet.test', 'a private address'],
    ['metadata.test', 'a link-local address'],
    ['ipvsix.test', 'a loopback address'],
  ];
  for (const [name, cls] of cases) {
    const err = await refusal(t, safeFetch(`http://${name}/x`, { allowPrivate: false, timeoutMs: UNHURRIED_MS }));
    t.is(err.code, 'blocked');
    t.is(err.message, `Blocked address: ${name} resolves to ${cls}; only public addresses can be fetched`);
    t.notRegex(err.message, /\d|::/, name);
  }
});

test('the address a refused name resolved to is kept for the server logs only', async (t) => {
  const err = await refusal(t, safeFetch('http://intranet.test/x', { allowPrivate: false, timeoutMs: UNHURRIED_MS }));
  t.regex(err.detail ?? '', /10\.0\.0\.5/);
  t.notRegex(err.message, /10\.0\.0\.5/);
});

test('a redirect to a name that resolves inward names the class only', async (t) => {
  const policy = { allowPrivate: false, addressCheck: onlyThisHost, timeoutMs: UNHURRIED_MS };
  const err = await refusal(t, safeFetch(site.url('/to-name'), policy));
  t.is(err.code, 'blocked');
  t.is(err.message, `Blocked address: intranet.test resolves to a private address${ONLY_PUBLIC}`);
});

test('a host name is connected through the checked addresses', async (t) => {
  const port = new URL(site.origin).port;
  const checked: string[] = [];
  const res = await safeFetch(`http://localhost:${port}/`, {
    allowPrivate: false,
    timeoutMs: UNHURRIED_MS,
    addressCheck: (ip) => {
      checked.push(ip);
      return ip === '127.0.0.1' ? null : 'not the test host';
    },
  });
  t.is(res.status, 200);
  t.is(res.address, '127.0.0.1');
  // Once after resolution, once more on the connected socket.
  t.deepEqual([...new Set(checked)], ['127.0.0.1']);
  t.true(checked.length >= 2);
});

test('refuses an IPv6 loopback literal', async (t) => {
  const err = await refusal(t, safeFetch('http://[::1]:9/', { allowPrivate: false, timeoutMs: UNHURRIED_MS }));
  t.is(err.message, 'Blocked address: the host is a loopback address; only public addresses can be fetched');
});

test('a redirect chain ending at the metadata address is refused at that hop', async (t) => {
  const err = await refusal(
    t,
    safeFetch(site.url('/hop1'), { allowPrivate: false, addressCheck: onlyThisHost, timeoutMs: UNHURRIED_MS }),
  );
  t.is(err.code, 'blocked');
  t.is(err.message, 'Blocked address: the host is a link-local address; only public addresses can be fetched');
  // The first three hops were fetched, the fourth never left the process.
  t.is(err.url, 'http://169.254.169.254/latest/meta-data/');
});

/** [where the redirect points, the site path that sends it, the class of the address it is refused as]. */
const REFUSED_REDIRECTS: [target: string, path: string, cls: string][] = [
  ['another loopback address', '/to-loopback', 'a loopback address'],
  ['an IPv4-mapped private address', '/to-v6', 'a private address'],
];
for (const [target, path, cls] of REFUSED_REDIRECTS) {
  test(`a redirect to ${target} is refused`, async (t) => {
    const err = await refusal(
      t,
      safeFetch(site.url(path), { allowPrivate: false, addressCheck: onlyThisHost, timeoutMs: UNHURRIED_MS }),
    );
    t.is(err.message, `Blocked address: the host is ${cls}${ONLY_PUBLIC}`);
  });
}

test('a redirect to a non-HTTP scheme is refused', async (t) => {
  const err = await refusal(t, safeFetch(site.url('/to-file'), open));
  t.is(err.code, 'invalid_url');
  t.is(err.message, 'Redirect to a non-HTTP URL: file:///etc/passwd');
});

test(`follows at most ${MAX_REDIRECTS} redirects`, async (t) => {
  const err = await refusal(t, safeFetch(site.url('/loop'), open));
  t.is(err.code, 'too_many_redirects');
  t.regex(err.message, /^More than 5 redirects/);
  const ok = await safeFetch(site.url('/hop1'), { ...open, maxRedirects: 1 }).catch((e) => e);
  t.is(ok.code, 'too_many_redirects');
});

test('ALLOW_PRIVATE_URLS lets loopback through (the policy is not consulted) and redirects are followed', async (t) => {
  const res = await safeFetch(site.url('/r1'), {
    ...open,
    addressCheck: () => 'never consulted when private URLs are allowed',
  });
  t.is(res.status, 200);
  t.is(res.url, site.url('/'));
  t.deepEqual(res.redirects, [site.url('/r1'), site.url('/r2')]);
});

test('a POST does not follow redirects (webhook use)', async (t) => {
  const res = await safeFetch(site.url('/post'), {
    ...open,
    method: 'POST',
    body: '{"a":1}',
    headers: { 'content-type': 'application/json' },
  });
  t.is(res.status, 302);
  t.is(res.headers.location, '/');
});

test('DNS failures, refused connections and bad URLs have their own messages', async (t) => {
  const dns = await refusal(t, safeFetch('http://no-such-host.invalid/', open));
  t.is(dns.code, 'dns');
  t.regex(dns.message, /^DNS lookup failed for no-such-host\.invalid \((ENOTFOUND|EAI_AGAIN)\)$/);
  const refused = await refusal(t, safeFetch('http://127.0.0.1:9/', open));
  t.is(refused.code, 'connection');
  t.is(refused.message, 'Could not connect to 127.0.0.1:9 (ECONNREFUSED)');
  t.is(
    (await refusal(t, safeFetch('ftp://example.com/', open))).message,
    'Only http and https URLs can be fetched, not ftp:',
  );
  t.is((await refusal(t, safeFetch('not a url', open))).code, 'invalid_url');
});
