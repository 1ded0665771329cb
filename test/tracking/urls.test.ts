// test-process: shared
import test from 'ava';
import { compileEntities, ownersOfDomain } from '../../src/tracking/analysis/analyze.ts';
import { domainOf, normaliseDomain, normaliseUrl, parseCitationUrl } from '../../src/tracking/analysis/urls.ts';

/** [url as cited, normalised url or null], grouped by the rule each group shows. */
const NORMALISED: Record<string, [url: string, expected: string | null][]> = {
  'lower-cases scheme and host, drops www, default port and fragment, keeps path case': [
    ['HTTPS://WWW.Acme.COM:443/Blog/Post#comments', 'https://acme.com/Blog/Post'],
    ['http://www.acme.com:80/a', 'http://acme.com/a'],
    ['https://acme.com:8443/a', 'https://acme.com:8443/a'],
    ['https://Acme.com.', 'https://acme.com/'],
  ],
  'drops tracking parameters but keeps identity parameters, sorted by name': [
    [
      'https://acme.com/p?utm_source=chatgpt.com&UTM_Medium=x&b=2&fbclid=1&a=1&gclid=2&ref=hn&srsltid=9',
      'https://acme.com/p?a=1&b=2',
    ],
    [
      'https://acme.com/x?mc_cid=1&mc_eid=2&_hsenc=3&_hsmi=4&igshid=5&ref_src=6&msclkid=7&dclid=8&yclid=9',
      'https://acme.com/x',
    ],
    // Two videos stay two URLs (see below); the share parameter `si` goes.
    ['https://www.youtube.com/watch?v=abc123&si=share', 'https://youtube.com/watch?v=abc123'],
    ['https://youtube.com/watch?v=xyz789', 'https://youtube.com/watch?v=xyz789'],
    // Repeated keys keep their relative order; encoding is kept as written.
    ['https://acme.com/s?z=1&a=2&a=1&q=a%20b', 'https://acme.com/s?a=2&a=1&q=a%20b&z=1'],
    // Empty segments and a query of only trackers disappear.
    ['https://acme.com/s?&utm_campaign=x&', 'https://acme.com/s'],
  ],
  'drops a trailing slash on a non-root path only': [
    ['https://acme.com/blog/', 'https://acme.com/blog'],
    ['https://acme.com/blog//', 'https://acme.com/blog'],
    ['https://acme.com/', 'https://acme.com/'],
    ['https://acme.com', 'https://acme.com/'],
    ['https://acme.com/blog/?page=2', 'https://acme.com/blog?page=2'],
  ],
  'drops credentials, resolves dot segments, reads scheme-less hosts as https': [
    ['https://user:pw@acme.com/a/../b', 'https://acme.com/b'],
    ['www.acme.com/pricing', 'https://acme.com/pricing'],
    ['acme.com', 'https://acme.com/'],
    ['//cdn.acme.com/x', 'https://cdn.acme.com/x'],
    ['  https://acme.com/a  ', 'https://acme.com/a'],
  ],
  'returns null for unparsable and non-http(s) URLs': [
    ['', null],
    ['not a url', null],
    ['acme', null],
    ['ftp://acme.com/file', null],
    ['mailto:ana@acme.com', null],
    ['javascript:alert(1)', null],
    ['https://', null],
    ['http://exa mple.com/', null],
  ],
};

for (const [rule, cases] of Object.entries(NORMALISED)) {
  for (const [url, expected] of cases) {
    test(`normaliseUrl ${rule}: ${JSON.stringify(url)}`, (t) => {
      t.is(normaliseUrl(url), expected);
    });
  }
}

test('normaliseUrl keeps two videos two URLs', (t) => {
  t.not(normaliseUrl('https://youtube.com/watch?v=abc123'), normaliseUrl('https://youtube.com/watch?v=xyz789'));
});

test('parseCitationUrl returns the parts analysis needs', (t) => {
  const { url, domain, path, query } = parseCitationUrl('https://Blog.Acme.com/Posts/?b=1&utm_id=2')!;
  t.deepEqual(
    { url, domain, path, query },
    {
      url: 'https://blog.acme.com/Posts?b=1',
      domain: 'blog.acme.com',
      path: '/Posts',
      query: '?b=1',
    },
  );
});

test('domainOf: host lower-cased without a leading www.', (t) => {
  t.is(domainOf('https://WWW.Acme.com/x'), 'acme.com');
  t.is(domainOf('https://www2.acme.com/x'), 'www2.acme.com');
  t.is(domainOf('https://shop.acme.co.uk/x?y=1'), 'shop.acme.co.uk');
  t.is(domainOf('www.acme.com'), 'acme.com');
  t.is(domainOf('nonsense'), '');
  t.is(normaliseDomain(' https://WWW.Acme.com/ '), 'acme.com');
});

/** [domain, domains of an entity, whether the domain belongs to it]: exact or sub-domain, never a substring. */
const BELONGS: [domain: string, domains: string[], expected: boolean][] = [
  ['acme.com', ['acme.com'], true],
  ['blog.acme.com', ['acme.com'], true],
  ['a.b.acme.com', ['globex.com', 'acme.com'], true],
  ['www.acme.com', ['ACME.com'], true],
  ['acme.com', ['www.acme.com'], true],
  ['notacme.com', ['acme.com'], false],
  ['acme.com.evil.net', ['acme.com'], false],
  ['acme.co', ['acme.com'], false],
  ['com', ['acme.com'], false],
  ['acme.com', ['blog.acme.com'], false],
  ['acme.com', [], false],
  ['', ['acme.com'], false],
];

// As analysis decides it: a cited page's domain (normalised, as its URL gives it) among the
// owners it finds for the entity's domains.
const belongsTo = (domain: string, domains: string[]) =>
  ownersOfDomain(
    compileEntities([{ id: 'e', kind: 'brand', name: 'E', aliases: [], domains }]),
    normaliseDomain(domain),
  ).length > 0;

for (const [domain, domains, expected] of BELONGS) {
  const verdict = expected ? 'belongs' : 'does not belong';
  test(`belongsTo: ${JSON.stringify(domain)} ${verdict} to [${domains.join(', ')}]`, (t) => {
    t.is(belongsTo(domain, domains), expected);
  });
}
