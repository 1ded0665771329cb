import test from 'ava';
import { articleType, classifyDomain, CURATED_CATEGORIES } from '../../src/tracking/classify.ts';
import type { Entity } from '../../src/tracking/types.ts';
import curated from '../../src/tracking/data/domains.json' with { type: 'json' };

const acme: Entity = { id: 'b1', kind: 'brand', name: 'Acme', aliases: [], domains: ['acme.com', 'acme.io'] };
const globex: Entity = { id: 'c1', kind: 'competitor', name: 'Globex', aliases: [], domains: ['globex.com'] };
const initech: Entity = { id: 'c2', kind: 'competitor', name: 'Initech', aliases: [], domains: ['initech.net'] };
const cls = (d: string) => classifyDomain(d, acme, [globex, initech]);

test('you and competitor: exact host or sub-domain, never substring', (t) => {
  t.is(cls('acme.com'), 'you');
  t.is(cls('docs.acme.io'), 'you');
  t.is(cls('WWW.Acme.com'), 'you');
  t.is(cls('globex.com'), 'competitor');
  t.is(cls('eu.shop.initech.net'), 'competitor');
  t.is(cls('notacme.com'), 'other');
  t.is(cls('acme.com.au'), 'other');
  t.is(cls('myglobex.com'), 'other');
});

test('you wins over competitor and over the curated lists', (t) => {
  const reddit: Entity = { id: 'b2', kind: 'brand', name: 'Reddit', aliases: [], domains: ['reddit.com'] };
  const shared: Entity = { id: 'c3', kind: 'competitor', name: 'Shared', aliases: [], domains: ['reddit.com'] };
  t.is(classifyDomain('old.reddit.com', reddit, [shared]), 'you');
  t.is(classifyDomain('old.reddit.com', acme, [shared]), 'competitor');
});

test('curated lists, with sub-domains', (t) => {
  t.is(cls('nytimes.com'), 'editorial');
  t.is(cls('techcrunch.com'), 'editorial');
  t.is(cls('forbes.com'), 'editorial');
  t.is(cls('reddit.com'), 'forum');
  t.is(cls('old.reddit.com'), 'forum');
  t.is(cls('quora.com'), 'forum');
  t.is(cls('stackoverflow.com'), 'forum');
  t.is(cls('news.ycombinator.com'), 'forum');
  t.is(cls('youtube.com'), 'social');
  t.is(cls('m.youtube.com'), 'social');
  t.is(cls('x.com'), 'social');
  t.is(cls('twitter.com'), 'social');
  t.is(cls('linkedin.com'), 'social');
  t.is(cls('facebook.com'), 'social');
  t.is(cls('instagram.com'), 'social');
  t.is(cls('tiktok.com'), 'social');
  t.is(cls('g2.com'), 'review');
  t.is(cls('capterra.com'), 'review');
  t.is(cls('uk.trustpilot.com'), 'review');
  t.is(cls('yelp.com'), 'review');
  t.is(cls('tripadvisor.com'), 'review');
  t.is(cls('en.wikipedia.org'), 'institutional');
  t.is(cls('who.int'), 'institutional');
});

test('the most specific curated entry wins', (t) => {
  t.is(cls('tomshardware.com'), 'editorial');
  t.is(cls('forums.tomshardware.com'), 'forum');
  t.is(cls('ycombinator.com'), 'other');
});

test('institutional by name: .gov .edu .mil .int and gov.xx, ac.xx, edu.xx', (t) => {
  t.is(cls('nasa.gov'), 'institutional');
  t.is(cls('ncbi.nlm.nih.gov'), 'institutional');
  t.is(cls('mit.edu'), 'institutional');
  t.is(cls('army.mil'), 'institutional');
  t.is(cls('nato.int'), 'institutional');
  t.is(cls('ox.ac.uk'), 'institutional');
  t.is(cls('data.gov.uk'), 'institutional');
  t.is(cls('gov.uk'), 'institutional');
  t.is(cls('unimelb.edu.au'), 'institutional');
  t.is(cls('gov.com'), 'other');
  t.is(cls('governance.com'), 'other');
  t.is(cls('edu.com'), 'other');
  t.is(cls('ac.com'), 'other');
  t.is(cls('education.org'), 'other');
});

test('other for everything else', (t) => {
  t.is(cls('example.org'), 'other');
  t.is(cls('192.168.0.1'), 'other');
  t.is(cls('localhost'), 'other');
});

test('domains.json: bare lower-case hosts, each in one list only', (t) => {
  const seen = new Set<string>();
  const data = curated as Record<string, string[]>;
  t.deepEqual(Object.keys(data).sort(), [...CURATED_CATEGORIES].sort());
  for (const cat of CURATED_CATEGORIES) {
    t.true(data[cat].length >= 25, `${cat} has a few dozen hosts`);
    for (const host of data[cat]) {
      t.regex(host, /^[a-z0-9-]+(\.[a-z0-9-]+)+$/, host);
      t.false(host.startsWith('www.'), host);
      t.false(seen.has(host), `${host} listed twice`);
      seen.add(host);
    }
  }
});

const at = articleType;

test('article type: homepage', (t) => {
  t.is(at('https://acme.com/', ''), 'homepage');
  t.is(at('https://www.acme.com', 'Best CRM for startups | Acme'), 'homepage');
  t.is(at('https://acme.com/index.html', ''), 'homepage');
  t.is(at('https://reddit.com/', ''), 'homepage');
  t.is(at('https://acme.com/?p=123', ''), 'other');
});

test('article type: documentation', (t) => {
  t.is(at('https://docs.acme.com/getting-started', 'Getting started'), 'documentation');
  t.is(at('https://acme.com/docs/crm/setup', 'How to set up the CRM'), 'documentation');
  t.is(at('https://acme.com/documentation', ''), 'documentation');
  t.is(at('https://acme.com/api/v2/contacts', ''), 'documentation');
  t.is(at('https://developer.acme.com/guides', ''), 'documentation');
  t.is(at('https://acme.readthedocs.io/en/latest/', ''), 'documentation');
});

test('article type: discussion', (t) => {
  t.is(at('https://www.reddit.com/r/CRM/comments/abc123/best_crm_for_startups/', 'Best CRM for startups?'), 'discussion');
  t.is(at('https://quora.com/What-is-the-best-CRM', ''), 'discussion');
  t.is(at('https://news.ycombinator.com/item?id=1', 'Acme vs Globex'), 'discussion');
  t.is(at('https://community.acme.com/t/sync-fails/42', ''), 'discussion');
  t.is(at('https://example.com/forum/thread/99', ''), 'discussion');
  t.is(at('https://example.com/threads/acme-review.123/', ''), 'discussion');
});

test('article type: comparison', (t) => {
  t.is(at('https://example.com/blog/acme-vs-globex', ''), 'comparison');
  t.is(at('https://example.com/a', 'Acme vs. Globex: which CRM wins?'), 'comparison');
  t.is(at('https://example.com/a', 'Acme versus Globex'), 'comparison');
  t.is(at('https://example.com/a', 'Top 10 Acme alternatives'), 'comparison');
  t.is(at('https://example.com/compare/crm', ''), 'comparison');
});

test('article type: listicle', (t) => {
  t.is(at('https://www.forbes.com/advisor/business/software/best-crm-software/', 'Best CRM Software Of 2025'), 'listicle');
  t.is(at('https://example.com/a', 'Top 10 CRM tools'), 'listicle');
  t.is(at('https://example.com/a', 'The 7 best CRMs for startups'), 'listicle');
  t.is(at('https://example.com/a', '12 CRM tools that grow with you'), 'listicle');
  t.is(at('https://example.com/top-5-crm-tools', ''), 'listicle');
  t.is(at('https://example.com/2025/11/03/best-crm-tools', ''), 'listicle');
  t.is(at('https://example.com/a', '2025 CRM trends'), 'other');
});

test('article type: review', (t) => {
  t.is(at('https://www.g2.com/products/acme/reviews', 'Acme Reviews 2025: Details, Pricing, & Features'), 'review');
  t.is(at('https://example.com/a', 'Acme CRM review: is it the best tool?'), 'review');
  t.is(at('https://example.com/acme-review', ''), 'review');
});

test('article type: how_to', (t) => {
  t.is(at('https://example.com/a', 'How to choose a CRM'), 'how_to');
  t.is(at('https://example.com/crm-buyers-guide', ''), 'how_to');
  t.is(at('https://example.com/a', 'Acme tutorial for beginners'), 'how_to');
  t.is(at('https://example.com/a', 'Step-by-step: importing contacts'), 'how_to');
});

test('article type: product', (t) => {
  t.is(at('https://www.amazon.com/Acme-Widget/dp/B0ABC123', 'Acme Widget, Best Seller'), 'product');
  t.is(at('https://shop.acme.com/products/widget-pro', 'Widget Pro'), 'product');
  t.is(at('https://acme.com/product/widget', ''), 'product');
  t.is(at('https://example.com/p/widget-123', ''), 'product');
  t.is(at('https://acme.com/shop/widget', ''), 'product');
  // On Substack and Medium, /p/ is a post.
  t.is(at('https://acme.substack.com/p/launch-notes', ''), 'other');
});

test('article type: news', (t) => {
  t.is(at('https://techcrunch.com/2025/11/03/globex-raises-50m/', 'Globex raises $50M'), 'news');
  t.is(at('https://acme.com/news/acme-launches-ai', 'Acme launches AI'), 'news');
  t.is(at('https://acme.com/press/q3-results', ''), 'news');
});

test('article type: other, and unparsable URLs', (t) => {
  t.is(at('https://acme.com/pricing', 'Pricing'), 'other');
  t.is(at('https://en.wikipedia.org/wiki/Customer_relationship_management', 'CRM - Wikipedia'), 'other');
  t.is(at('not a url', 'How to choose a CRM'), 'other');
  t.is(at('https://acme.com/about', null), 'other');
});

test('article type precedence: documentation > discussion > comparison > numbered listicle > review > how_to > product > best/top > news', (t) => {
  t.is(at('https://docs.acme.com/forum/acme-vs-globex', ''), 'documentation');
  t.is(at('https://reddit.com/r/crm/comments/1/acme_vs_globex', 'Acme vs Globex'), 'discussion');
  t.is(at('https://example.com/a', 'Top 10 CRM reviews compared'), 'comparison');
  t.is(at('https://example.com/a', '10 best CRM reviews'), 'listicle');
  t.is(at('https://example.com/a', 'Acme review: a guide for buyers'), 'review');
  t.is(at('https://example.com/products/widget', 'How to install the widget'), 'how_to');
  t.is(at('https://example.com/products/widget', 'Best widget ever'), 'product');
  t.is(at('https://example.com/2025/11/best-crm', ''), 'listicle');
  t.is(at('https://example.com/news/2025/11/acme', ''), 'news');
});
