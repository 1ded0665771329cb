import test from 'ava';
import { belongsTo, domainOf, normaliseDomain, normaliseUrl, parseCitationUrl } from '../../src/tracking/urls.ts';

test('normaliseUrl lower-cases scheme and host, drops www, default port and fragment, keeps path case', (t) => {
  t.is(normaliseUrl('HTTPS://WWW.Acme.COM:443/Blog/Post#comments'), 'https://acme.com/Blog/Post');
  t.is(normaliseUrl('http://www.acme.com:80/a'), 'http://acme.com/a');
  t.is(normaliseUrl('https://acme.com:8443/a'), 'https://acme.com:8443/a');
  t.is(normaliseUrl('https://Acme.com.'), 'https://acme.com/');
});

test('normaliseUrl drops tracking parameters but keeps identity parameters, sorted by name', (t) => {
  t.is(
    normaliseUrl('https://acme.com/p?utm_source=chatgpt.com&UTM_Medium=x&b=2&fbclid=1&a=1&gclid=2&ref=hn&srsltid=9'),
    'https://acme.com/p?a=1&b=2',
  );
  t.is(
    normaliseUrl('https://acme.com/x?mc_cid=1&mc_eid=2&_hsenc=3&_hsmi=4&igshid=5&ref_src=6&msclkid=7&dclid=8&yclid=9'),
    'https://acme.com/x',
  );
  // Two videos stay two URLs; the share parameter `si` goes.
  t.is(normaliseUrl('https://www.youtube.com/watch?v=abc123&si=share'), 'https://youtube.com/watch?v=abc123');
  t.is(normaliseUrl('https://youtube.com/watch?v=xyz789'), 'https://youtube.com/watch?v=xyz789');
  t.not(normaliseUrl('https://youtube.com/watch?v=abc123'), normaliseUrl('https://youtube.com/watch?v=xyz789'));
  // Repeated keys keep their relative order; encoding is kept as written.
  t.is(normaliseUrl('https://acme.com/s?z=1&a=2&a=1&q=a%20b'), 'https://acme.com/s?a=2&a=1&q=a%20b&z=1');
  // Empty segments and a query of only trackers disappear.
  t.is(normaliseUrl('https://acme.com/s?&utm_campaign=x&'), 'https://acme.com/s');
});

test('normaliseUrl drops a trailing slash on a non-root path only', (t) => {
  t.is(normaliseUrl('https://acme.com/blog/'), 'https://acme.com/blog');
  t.is(normaliseUrl('https://acme.com/blog//'), 'https://acme.com/blog');
  t.is(normaliseUrl('https://acme.com/'), 'https://acme.com/');
  t.is(normaliseUrl('https://acme.com'), 'https://acme.com/');
  t.is(normaliseUrl('https://acme.com/blog/?page=2'), 'https://acme.com/blog?page=2');
});

test('normaliseUrl drops credentials, resolves dot segments, reads scheme-less hosts as https', (t) => {
  t.is(normaliseUrl('https://user:pw@acme.com/a/../b'), 'https://acme.com/b');
  t.is(normaliseUrl('www.acme.com/pricing'), 'https://acme.com/pricing');
  t.is(normaliseUrl('acme.com'), 'https://acme.com/');
  t.is(normaliseUrl('//cdn.acme.com/x'), 'https://cdn.acme.com/x');
  t.is(normaliseUrl('  https://acme.com/a  '), 'https://acme.com/a');
});

test('normaliseUrl returns null for unparsable and non-http(s) URLs', (t) => {
  t.is(normaliseUrl(''), null);
  t.is(normaliseUrl('not a url'), null);
  t.is(normaliseUrl('acme'), null);
  t.is(normaliseUrl('ftp://acme.com/file'), null);
  t.is(normaliseUrl('mailto:ana@acme.com'), null);
  t.is(normaliseUrl('javascript:alert(1)'), null);
  t.is(normaliseUrl('https://'), null);
  t.is(normaliseUrl('http://exa mple.com/'), null);
});

test('parseCitationUrl returns the parts analysis needs', (t) => {
  const { url, domain, path, query } = parseCitationUrl('https://Blog.Acme.com/Posts/?b=1&utm_id=2')!;
  t.deepEqual({ url, domain, path, query }, {
    url: 'https://blog.acme.com/Posts?b=1',
    domain: 'blog.acme.com',
    path: '/Posts',
    query: '?b=1',
  });
});

test('domainOf: host lower-cased without a leading www.', (t) => {
  t.is(domainOf('https://WWW.Acme.com/x'), 'acme.com');
  t.is(domainOf('https://www2.acme.com/x'), 'www2.acme.com');
  t.is(domainOf('https://shop.acme.co.uk/x?y=1'), 'shop.acme.co.uk');
  t.is(domainOf('www.acme.com'), 'acme.com');
  t.is(domainOf('nonsense'), '');
  t.is(normaliseDomain(' https://WWW.Acme.com/ '), 'acme.com');
});

test('belongsTo: exact or sub-domain match, never a substring', (t) => {
  t.true(belongsTo('acme.com', ['acme.com']));
  t.true(belongsTo('blog.acme.com', ['acme.com']));
  t.true(belongsTo('a.b.acme.com', ['globex.com', 'acme.com']));
  t.true(belongsTo('www.acme.com', ['ACME.com']));
  t.true(belongsTo('acme.com', ['www.acme.com']));
  t.false(belongsTo('notacme.com', ['acme.com']));
  t.false(belongsTo('acme.com.evil.net', ['acme.com']));
  t.false(belongsTo('acme.co', ['acme.com']));
  t.false(belongsTo('com', ['acme.com']));
  t.false(belongsTo('acme.com', ['blog.acme.com']));
  t.false(belongsTo('acme.com', []));
  t.false(belongsTo('', ['acme.com']));
});
