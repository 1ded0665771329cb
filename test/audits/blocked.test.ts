// Audits with ALLOW_PRIVATE_URLS=0, as in production: private, loopback, link-local and metadata
// addresses are refused before any connection, by name (after DNS resolution) and by literal, and
// the refused audit fails with a `Blocked address` error and gives its quota unit back.
// The test site sits on loopback, so even the first hop of its redirect chain is refused; that a
// later hop is checked too is shown in fetch.test.ts with a policy that admits the test host.
import test from 'ava';
import { seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { redirect, startSite, type TestSite } from './fixtures/site.ts';
import { quota, runAudit } from './helpers.ts';

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

const cases: [string, (s: TestSite) => string, RegExp][] = [
  ['a redirect chain on loopback towards the metadata address', (s) => s.url('/start'),
    /^Blocked address: 127\.0\.0\.1 is a loopback address; only public addresses can be fetched$/],
  ['a host name resolving to loopback', (s) => `http://localhost:${new URL(s.origin).port}/page`,
    /^Blocked address: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address; only public addresses can be fetched$/],
  ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/',
    /^Blocked address: 169\.254\.169\.254 is a cloud metadata address/],
  ['an IPv6 loopback literal', (s) => `http://[::1]:${new URL(s.origin).port}/page`, /^Blocked address: ::1 is a loopback address/],
  ['an IPv4-mapped IPv6 private address', () => 'http://[::ffff:192.168.1.1]/', /^Blocked address: ::ffff:c0a8:101 is a private network address \(192\.168\.1\.1 inside an IPv6 address\)/],
  ['a private network address', () => 'http://10.0.0.7/admin', /^Blocked address: 10\.0\.0\.7 is a private network address/],
  ['a decimal spelling of loopback', () => 'http://2130706433/', /^Blocked address: 127\.0\.0\.1 is a loopback address/],
];

for (const [label, url, error] of cases) {
  test(`refuses ${label}`, async (t) => {
    const tenant = await seedTenant(server, undefined, 'starter');
    const before = site.requests.length;
    const audit = await runAudit(t, server, tenant, url(site));
    t.is(audit.status, 'failed');
    t.regex(audit.error, error);
    t.deepEqual(audit.signals, []);
    t.is(audit.totalScore, null);
    t.deepEqual(await quota(server, tenant), { used: 0, limit: 100, remaining: 100 });
    // Nothing reached the test site.
    t.is(site.requests.length, before);
  });
}
