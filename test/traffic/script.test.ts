// /t.js as built from its template, run in a bare VM with a fake page: what it sends and when.
// (browser.test.ts runs it in real Chromium; this covers the branches cheaply.)
// test-process: shared
import vm from 'node:vm';
import test from 'ava';
import { buildScript, serveScript } from '../../src/traffic/script.ts';
import { platforms } from '../../src/traffic/referrers.ts';

interface Run {
  beacons: { url: string; body: any }[];
  fetches: { url: string; init: any }[];
}

function run(
  page: { href: string; referrer: string; site?: string | null; beacon?: boolean; src?: string },
  times = 1,
): Run {
  const out: Run = { beacons: [], fetches: [] };
  const u = new URL(page.href);
  const script = {
    src: page.src ?? 'https://as.example/t.js',
    getAttribute: (n: string) => (n === 'data-site' ? ('site' in page ? page.site : 'as_site123') : null),
  };
  const window: any = {
    fetch: (url: string, init: any) => {
      out.fetches.push({ url, init });
      return Promise.resolve();
    },
  };
  const sandbox = {
    window,
    document: { currentScript: script, referrer: page.referrer, querySelector: () => script },
    location: { href: page.href, search: u.search },
    navigator:
      page.beacon === false
        ? {}
        : {
            sendBeacon: (url: string, body: string) => {
              out.beacons.push({ url, body: JSON.parse(body) });
              return true;
            },
          },
    fetch: window.fetch,
    URL,
    URLSearchParams,
    JSON,
  };
  const code = buildScript();
  for (let i = 0; i < times; i++) vm.runInNewContext(code, sandbox);
  return out;
}

test('is under 2 KB, valid JavaScript, and lists every platform host', (t) => {
  const s = serveScript();
  t.true(s.bytes < 2048, `${s.bytes} bytes`);
  t.notThrows(() => new vm.Script(s.body));
  for (const host of platforms.hosts.keys()) t.true(s.body.includes(`"${host}"`), host);
  t.regex(s.etag, /^"[A-Za-z0-9_-]{22}"$/);
});

test("an AI referrer sends one beacon {site, url, referrer} to the script's own origin", (t) => {
  const r = run({ href: 'https://acme.example/pricing?x=1', referrer: 'https://chatgpt.com/' });
  t.deepEqual(r.beacons, [
    {
      url: 'https://as.example/api/collect',
      body: { site: 'as_site123', url: 'https://acme.example/pricing?x=1', referrer: 'https://chatgpt.com/' },
    },
  ]);
  t.is(run({ href: 'https://acme.example/', referrer: 'https://www.perplexity.ai/search' }).beacons.length, 1);
});

test('utm_source alone is enough, as a listed value or a platform host', (t) => {
  t.is(run({ href: 'https://acme.example/?utm_source=chatgpt.com', referrer: '' }).beacons.length, 1);
  t.is(
    run({ href: 'https://acme.example/?utm_source=Perplexity', referrer: 'https://www.google.com/' }).beacons.length,
    1,
  );
});

test('nothing is sent without an AI referrer or utm_source, for look-alikes, or without data-site', (t) => {
  for (const [href, referrer] of [
    ['https://acme.example/', ''],
    ['https://acme.example/', 'https://www.google.com/'],
    ['https://acme.example/', 'https://notchatgpt.com/'],
    ['https://acme.example/', 'https://claude.example.workers.dev/'],
    ['https://acme.example/?utm_source=newsletter', 'https://www.bing.com/'],
  ]) {
    const r = run({ href, referrer });
    t.is(r.beacons.length + r.fetches.length, 0, `${href} from ${referrer}`);
  }
  t.is(run({ href: 'https://acme.example/', referrer: 'https://chatgpt.com/', site: null }).beacons.length, 0);
});

test('embedded twice: one beacon; without sendBeacon: fetch with keepalive and no credentials', (t) => {
  t.is(run({ href: 'https://acme.example/', referrer: 'https://claude.ai/' }, 2).beacons.length, 1);
  const r = run({ href: 'https://acme.example/', referrer: 'https://claude.ai/', beacon: false });
  t.is(r.fetches.length, 1);
  t.is(r.fetches[0].url, 'https://as.example/api/collect');
  t.like(r.fetches[0].init, { method: 'POST', keepalive: true, credentials: 'omit' });
  t.deepEqual(JSON.parse(r.fetches[0].init.body), {
    site: 'as_site123',
    url: 'https://acme.example/',
    referrer: 'https://claude.ai/',
  });
});
