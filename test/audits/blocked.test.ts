// Audits with ALLOW_PRIVATE_URLS=0, as in production: private, loopback, link-local and metadata
// addresses are refused before any connection, by name (after DNS resolution) and by literal, and
// the refused audit fails with a `Blocked address` error that names the class of the address (never
// the address) and gives its quota unit back.
// The test site sits on loopback, so even the first hop of its redirect chain is refused; that a
// later hop is checked too is shown in fetch.test.ts with a policy that admits the test host.
// test-process: shared
import test from 'ava';
import { seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { redirect, startSite, type TestSite } from './fixtures/site.ts';
import { quota, runAudit } from './helpers.ts';
import { fakeNames } from './fixtures/names.ts';

// A name that resolves inward, as a deployment's internal names do (`vm`, `db`, ...).
fakeNames({ 'intranet.test': '10.0.0.5' });

let server: TestServer;
let site: TestSite;

test.before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_URLS: '0' });
  site = await startSite({
    '/start': redirect('/next'),
    '/next': redirect('http://169.254.169.254/latest/meta-data/'),
    '/page': { body: '<html><body><p>internal</p></body></html>' },
  });
});

test.after.always(async () => {
  await site?.close();
  await server?.stop();
});

const ONLY_PUBLIC = '; only public addresses can be fetched';
const cases: [string, (s: TestSite) => string, string][] = [
  [
    'a redirect chain on loopback towards the metadata address',
    (s) => s.url('/start'),
    `Blocked address: the host is a loopback address${ONLY_PUBLIC}`,
  ],
  [
    'a host name resolving to loopback',
    (s) => `http://localhost:${new URL(s.origin).port}/page`,
    `Blocked address: localhost resolves to a loopback address${ONLY_PUBLIC}`,
  ],
  [
    'a host name resolving to a private address',
    () => 'http://intranet.test/admin',
    `Blocked address: intranet.test resolves to a private address${ONLY_PUBLIC}`,
  ],
  [
    'the cloud metadata address',
    () => 'http://169.254.169.254/latest/meta-data/',
    `Blocked address: the host is a link-local address${ONLY_PUBLIC}`,
  ],
  [
    'an IPv6 loopback literal',
    (s) => `http://[::1]:${new URL(s.origin).port}/page`,
    `Blocked address: the host is a loopback address${ONLY_PUBLIC}`,
  ],
  [
    'an IPv4-mapped IPv6 private address',
    () => 'http://[::ffff:192.168.1.1]/',
    `Blocked address: the host is a private address${ONLY_PUBLIC}`,
  ],
  [
    'a private network address',
    () => 'http://10.0.0.7/admin',
    `Blocked address: the host is a private address${ONLY_PUBLIC}`,
  ],
  [
    'a decimal spelling of loopback',
    () => 'http://2130706433/',
    `Blocked address: the host is a loopback address${ONLY_PUBLIC}`,
  ],
];

for (const [label, url, error] of cases) {
  test(`refuses ${label}`, async (t) => {
    const tenant = await seedTenant(server, undefined, 'starter');
    const before = site.requests.length;
    const audit = await runAudit(t, server, tenant, url(site));
    t.is(audit.status, 'failed');
    t.is(audit.error, error);
    // docs/api.md section 9: the class of the address, never the address (typed or resolved).
    t.notRegex(audit.error, /\d|::/);
    t.deepEqual(audit.signals, []);
    t.is(audit.totalScore, null);
    t.deepEqual(await quota(server, tenant), { used: 0, limit: 100, remaining: 100 });
    // Nothing reached the test site.
    t.is(site.requests.length, before);
  });
}
