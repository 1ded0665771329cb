// A brand proposed from its website's home page: names from JSON-LD Organization, og:site_name and
// the title; refused (nothing proposed) when the site does not answer, is not HTML, or redirects
// to a private address. The local site is on loopback, so the policy here treats exactly 127.0.0.1
// as public: a refusal has to come from the redirect hop (as in fetch.test.ts).
// test-process: shared
import test from 'ava';
import { AuditFailure } from '../../src/audits/audit.ts';
import { proposeBrand, websiteUrl } from '../../src/audits/brand-proposal.ts';
import { onlyThisHost, redirect, startSite, type TestSite, UNHURRIED_MS } from './fixtures/site.ts';

let site: TestSite;
const policy = { allowPrivate: false, timeoutMs: UNHURRIED_MS, addressCheck: onlyThisHost };

test.before(async () => {
  site = await startSite({
    '/jsonld': {
      body: `<html><head><title>Home | Trailpeak Outdoor Gear</title>
<meta property="og:site_name" content="Trailpeak Outdoors">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Trailpeak",
"alternateName":["Trail Peak","TP Gear"],"legalName":"Trailpeak GmbH"}</script></head><body><p>Hi</p></body></html>`,
    },
    '/og': {
      body: '<html><head><title>Welcome</title><meta property="og:site_name" content="Northwind"></head></html>',
    },
    '/title': { body: '<html><head><title>Best trail shoes – Example</title></head><body></body></html>' },
    '/json': { type: 'application/json', body: '{"hello":"world"}' },
    '/to-private': redirect('http://10.0.0.7/'),
    '/to-jsonld': redirect('/jsonld'),
  });
});
test.after.always(async () => {
  await site?.close();
});

test('JSON-LD Organization names the brand; og:site_name and its other names become aliases', async (t) => {
  const p = await proposeBrand(site.url('/to-jsonld'), policy);
  t.deepEqual(p, {
    website: site.url('/jsonld'),
    name: 'Trailpeak',
    domain: '127.0.0.1',
    aliases: ['Trail Peak', 'TP Gear', 'Trailpeak GmbH', 'Trailpeak Outdoors'],
  });
});

test('og:site_name, else the title part that looks like the domain, else the first part', async (t) => {
  t.is((await proposeBrand(site.url('/og'), policy)).name, 'Northwind');
  t.is((await proposeBrand(site.url('/title'), policy)).name, 'Best trail shoes');
});

test('a site that is not HTML, redirects to a private address or does not answer proposes nothing', async (t) => {
  const json = await t.throwsAsync(proposeBrand(site.url('/json'), policy), { instanceOf: AuditFailure });
  t.is(json?.message, 'The page is not HTML (Content-Type: application/json)');
  const inward = await t.throwsAsync(proposeBrand(site.url('/to-private'), policy), { instanceOf: AuditFailure });
  t.regex(inward?.message ?? '', /private address/);
  await t.throwsAsync(proposeBrand('http://127.0.0.1:1/', policy), { instanceOf: AuditFailure });
  // Loopback itself under the default policy (ALLOW_PRIVATE_URLS unset).
  const loopback = await t.throwsAsync(proposeBrand(site.url('/og'), { allowPrivate: false, timeoutMs: UNHURRIED_MS }));
  t.regex(loopback?.message ?? '', /loopback/);
});

test('a website is an http(s) address; https is assumed', (t) => {
  t.is(websiteUrl(' trailpeak.example '), 'https://trailpeak.example/');
  t.throws(() => websiteUrl('ftp://trailpeak.example'), { message: 'website must be an http or https address' });
  t.throws(() => websiteUrl('trailpeak'), { message: 'website must be an address such as acme.example' });
  t.throws(() => websiteUrl(''), { message: 'website is required' });
});
