// test-process: shared
import test from 'ava';
import { articleType, CURATED_CATEGORIES } from '../../src/tracking/analysis/classify.ts';
import { compileEntities, domainCategory } from '../../src/tracking/analysis/analyze.ts';
import { hostToDomain } from '../../src/tracking/analysis/urls.ts';
import type { ArticleType, Category } from '../../src/tracking/types.ts';
import type { Entity } from '../../src/tenancy/tracked.ts';
import curated from '../../src/tracking/analysis/data/domains.json' with { type: 'json' };

const acme: Entity = { id: 'b1', kind: 'brand', name: 'Acme', aliases: [], domains: ['acme.com', 'acme.io'] };
const globex: Entity = { id: 'c1', kind: 'competitor', name: 'Globex', aliases: [], domains: ['globex.com'] };
const initech: Entity = { id: 'c2', kind: 'competitor', name: 'Initech', aliases: [], domains: ['initech.net'] };

/** Hosts and their class for Acme against Globex and Initech, grouped by the rule each group shows. */
const DOMAINS: Record<string, [host: string, expected: Category][]> = {
  'you and competitor: exact host or sub-domain, never substring': [
    ['acme.com', 'you'],
    ['docs.acme.io', 'you'],
    ['WWW.Acme.com', 'you'],
    ['globex.com', 'competitor'],
    ['eu.shop.initech.net', 'competitor'],
    ['notacme.com', 'other'],
    ['acme.com.au', 'other'],
    ['myglobex.com', 'other'],
  ],
  'curated lists, with sub-domains': [
    ['nytimes.com', 'editorial'],
    ['techcrunch.com', 'editorial'],
    ['forbes.com', 'editorial'],
    ['reddit.com', 'forum'],
    ['old.reddit.com', 'forum'],
    ['quora.com', 'forum'],
    ['stackoverflow.com', 'forum'],
    ['news.ycombinator.com', 'forum'],
    ['youtube.com', 'social'],
    ['m.youtube.com', 'social'],
    ['x.com', 'social'],
    ['twitter.com', 'social'],
    ['linkedin.com', 'social'],
    ['facebook.com', 'social'],
    ['instagram.com', 'social'],
    ['tiktok.com', 'social'],
    ['g2.com', 'review'],
    ['capterra.com', 'review'],
    ['uk.trustpilot.com', 'review'],
    ['yelp.com', 'review'],
    ['tripadvisor.com', 'review'],
    ['en.wikipedia.org', 'institutional'],
    ['who.int', 'institutional'],
  ],
  'the most specific curated entry wins': [
    ['tomshardware.com', 'editorial'],
    ['forums.tomshardware.com', 'forum'],
    ['ycombinator.com', 'other'],
  ],
  'institutional by name: .gov .edu .mil .int and gov.xx, ac.xx, edu.xx': [
    ['nasa.gov', 'institutional'],
    ['ncbi.nlm.nih.gov', 'institutional'],
    ['mit.edu', 'institutional'],
    ['army.mil', 'institutional'],
    ['nato.int', 'institutional'],
    ['ox.ac.uk', 'institutional'],
    ['data.gov.uk', 'institutional'],
    ['gov.uk', 'institutional'],
    ['unimelb.edu.au', 'institutional'],
    ['gov.com', 'other'],
    ['governance.com', 'other'],
    ['edu.com', 'other'],
    ['ac.com', 'other'],
    ['education.org', 'other'],
  ],
  'other for everything else': [
    ['example.org', 'other'],
    ['192.168.0.1', 'other'],
    ['localhost', 'other'],
  ],
};

// A cited page's domain as analysis classifies it: the host as a URL gives it, its owners among the
// brand and its competitors, then the curated lists and name rules.
const classifyDomain = (host: string, brand: Entity, competitors: Entity[]) =>
  domainCategory(compileEntities([brand, ...competitors]), hostToDomain(new URL(`https://${host}/`).hostname));

for (const [rule, cases] of Object.entries(DOMAINS)) {
  for (const [host, expected] of cases) {
    test(`domain ${rule}: ${host} is ${expected}`, (t) => {
      t.is(classifyDomain(host, acme, [globex, initech]), expected);
    });
  }
}

test('you wins over competitor and over the curated lists', (t) => {
  const reddit: Entity = { id: 'b2', kind: 'brand', name: 'Reddit', aliases: [], domains: ['reddit.com'] };
  const shared: Entity = { id: 'c3', kind: 'competitor', name: 'Shared', aliases: [], domains: ['reddit.com'] };
  t.is(classifyDomain('old.reddit.com', reddit, [shared]), 'you');
  t.is(classifyDomain('old.reddit.com', acme, [shared]), 'competitor');
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

/** [url, title, article type], grouped by the type or the rule each group shows. */
const ARTICLES: Record<string, [url: string, title: string | null, expected: ArticleType][]> = {
  homepage: [
    ['https://acme.com/', '', 'homepage'],
    ['https://www.acme.com', 'Best CRM for startups | Acme', 'homepage'],
    ['https://acme.com/index.html', '', 'homepage'],
    ['https://reddit.com/', '', 'homepage'],
    ['https://acme.com/?p=123', '', 'other'],
  ],
  documentation: [
    ['https://docs.acme.com/getting-started', 'Getting started', 'documentation'],
    ['https://acme.com/docs/crm/setup', 'How to set up the CRM', 'documentation'],
    ['https://acme.com/documentation', '', 'documentation'],
    ['https://acme.com/api/v2/contacts', '', 'documentation'],
    ['https://developer.acme.com/guides', '', 'documentation'],
    ['https://acme.readthedocs.io/en/latest/', '', 'documentation'],
  ],
  discussion: [
    ['https://www.reddit.com/r/CRM/comments/abc123/best_crm_for_startups/', 'Best CRM for startups?', 'discussion'],
    ['https://quora.com/What-is-the-best-CRM', '', 'discussion'],
    ['https://news.ycombinator.com/item?id=1', 'Acme vs Globex', 'discussion'],
    ['https://community.acme.com/t/sync-fails/42', '', 'discussion'],
    ['https://example.com/forum/thread/99', '', 'discussion'],
    ['https://example.com/threads/acme-review.123/', '', 'discussion'],
  ],
  comparison: [
    ['https://example.com/blog/acme-vs-globex', '', 'comparison'],
    ['https://example.com/a', 'Acme vs. Globex: which CRM wins?', 'comparison'],
    ['https://example.com/a', 'Acme versus Globex', 'comparison'],
    ['https://example.com/a', 'Top 10 Acme alternatives', 'comparison'],
    ['https://example.com/compare/crm', '', 'comparison'],
  ],
  listicle: [
    ['https://www.forbes.com/advisor/business/software/best-crm-software/', 'Best CRM Software Of 2025', 'listicle'],
    ['https://example.com/a', 'Top 10 CRM tools', 'listicle'],
    ['https://example.com/a', 'The 7 best CRMs for startups', 'listicle'],
    ['https://example.com/a', '12 CRM tools that grow with you', 'listicle'],
    ['https://example.com/top-5-crm-tools', '', 'listicle'],
    ['https://example.com/2025/11/03/best-crm-tools', '', 'listicle'],
    ['https://example.com/a', '2025 CRM trends', 'other'],
  ],
  review: [
    ['https://www.g2.com/products/acme/reviews', 'Acme Reviews 2025: Details, Pricing, & Features', 'review'],
    ['https://example.com/a', 'Acme CRM review: is it the best tool?', 'review'],
    ['https://example.com/acme-review', '', 'review'],
  ],
  how_to: [
    ['https://example.com/a', 'How to choose a CRM', 'how_to'],
    ['https://example.com/crm-buyers-guide', '', 'how_to'],
    ['https://example.com/a', 'Acme tutorial for beginners', 'how_to'],
    ['https://example.com/a', 'Step-by-step: importing contacts', 'how_to'],
  ],
  product: [
    ['https://www.amazon.com/Acme-Widget/dp/B0ABC123', 'Acme Widget, Best Seller', 'product'],
    ['https://shop.acme.com/products/widget-pro', 'Widget Pro', 'product'],
    ['https://acme.com/product/widget', '', 'product'],
    ['https://example.com/p/widget-123', '', 'product'],
    ['https://acme.com/shop/widget', '', 'product'],
    // On Substack and Medium, /p/ is a post.
    ['https://acme.substack.com/p/launch-notes', '', 'other'],
  ],
  news: [
    ['https://techcrunch.com/2025/11/03/globex-raises-50m/', 'Globex raises $50M', 'news'],
    ['https://acme.com/news/acme-launches-ai', 'Acme launches AI', 'news'],
    ['https://acme.com/press/q3-results', '', 'news'],
  ],
  'other, and unparsable URLs': [
    ['https://acme.com/pricing', 'Pricing', 'other'],
    ['https://en.wikipedia.org/wiki/Customer_relationship_management', 'CRM - Wikipedia', 'other'],
    ['not a url', 'How to choose a CRM', 'other'],
    ['https://acme.com/about', null, 'other'],
  ],
  ['precedence: documentation > discussion > comparison > numbered listicle > review > how_to > product > ' +
    'best/top > news']: [
    ['https://docs.acme.com/forum/acme-vs-globex', '', 'documentation'],
    ['https://reddit.com/r/crm/comments/1/acme_vs_globex', 'Acme vs Globex', 'discussion'],
    ['https://example.com/a', 'Top 10 CRM reviews compared', 'comparison'],
    ['https://example.com/a', '10 best CRM reviews', 'listicle'],
    ['https://example.com/a', 'Acme review: a guide for buyers', 'review'],
    ['https://example.com/products/widget', 'How to install the widget', 'how_to'],
    ['https://example.com/products/widget', 'Best widget ever', 'product'],
    ['https://example.com/2025/11/best-crm', '', 'listicle'],
    ['https://example.com/news/2025/11/acme', '', 'news'],
  ],
};

for (const [rule, cases] of Object.entries(ARTICLES)) {
  for (const [url, title, expected] of cases) {
    test(`article type ${rule}: ${url}${title ? ` "${title}"` : ''} is ${expected}`, (t) => {
      t.is(articleType(url, title), expected);
    });
  }
}
