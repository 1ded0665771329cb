// Category of a cited domain and article type of a cited URL (docs/api.md section 2).
// The rules are user-facing: docs/analysis.md explains them and src/tracking/analysis/data/README.md
// explains how to extend the curated lists. Keep all three in step.

import type { ArticleType, Category } from '../types.ts';
import { domainSuffixes, normaliseDomain, parseCitationUrl } from './urls.ts';
import curated from './data/domains.json' with { type: 'json' };

export type CuratedCategory = 'editorial' | 'forum' | 'social' | 'review' | 'institutional';
export const CURATED_CATEGORIES: readonly CuratedCategory[] = [
  'editorial',
  'forum',
  'social',
  'review',
  'institutional',
];

/** host -> category, built once at load. A host listed twice is a data error: fail loudly at start-up. */
const CURATED: ReadonlyMap<string, CuratedCategory> = (() => {
  const m = new Map<string, CuratedCategory>();
  const data = curated as Record<string, unknown>;
  for (const key of Object.keys(data)) {
    if (!(CURATED_CATEGORIES as readonly string[]).includes(key))
      throw new Error(`domains.json: unknown list "${key}"`);
  }
  for (const cat of CURATED_CATEGORIES) {
    const list = data[cat];
    if (!Array.isArray(list)) throw new Error(`domains.json: "${cat}" must be an array`);
    for (const host of list) {
      const d = normaliseDomain(String(host));
      if (d === '' || d !== host)
        throw new Error(`domains.json: "${host}" must be a bare lower-case host without www.`);
      if (m.has(d)) throw new Error(`domains.json: "${d}" is listed in both ${m.get(d)} and ${cat}`);
      m.set(d, cat);
    }
  }
  return m;
})();

// Institutional second-level zones: gov.uk, ac.uk, edu.au, ... (two-letter country code after them).
const INSTITUTIONAL_SLD = new Set(['gov', 'ac', 'edu']);
const INSTITUTIONAL_TLD = new Set(['gov', 'edu', 'mil', 'int']);

/** The curated list a domain (or its nearest listed parent) is in; the most specific entry wins. */
function curatedCategory(domain: string): CuratedCategory | null {
  for (const s of domainSuffixes(domain)) {
    const c = CURATED.get(s);
    if (c) return c;
  }
  return null;
}

function institutionalByName(domain: string): boolean {
  const labels = domain.split('.');
  const n = labels.length;
  if (n < 2) return false;
  if (INSTITUTIONAL_TLD.has(labels[n - 1])) return true;
  return /^[a-z]{2}$/.test(labels[n - 1]) && INSTITUTIONAL_SLD.has(labels[n - 2]);
}

/**
 * Category of a domain that belongs to no tracked entity: the curated lists first, then the
 * institutional name rules, else `other`. Analysis calls this after its own entity check
 * (domainCategory in analyze.ts).
 */
export function classifyExternal(domain: string): Category {
  return curatedCategory(domain) ?? (institutionalByName(domain) ? 'institutional' : 'other');
}

// ---------------------------------------------------------------------------------------------
// Article types. The first rule that matches wins, in this order (docs/analysis.md explains why):
//   homepage > documentation > discussion > comparison > listicle (numbered) > review > how_to
//   > product > listicle (best/top) > news > other
// URL structure is the strongest signal; titles and URL slugs ("acme-vs-globex") come next.

const DOC_HOST_LABELS = new Set(['docs', 'doc', 'developer', 'developers', 'devdocs']);
const DOC_HOST_SUFFIXES = ['readthedocs.io', 'gitbook.io', 'learn.microsoft.com'];
const FORUM_HOST_LABELS = new Set(['forum', 'forums', 'community', 'discuss', 'discussions', 'answers']);
// Hosts where /p/ is a post, not a product page.
const POST_P_HOSTS = ['substack.com', 'medium.com'];

// Whole path segments, matched on the lower-cased path.
const seg = (names: string) => new RegExp(`/(?:${names})(?=/|$)`);
const DOC_SEGMENT = seg('docs|doc|documentation|api|reference|manual|sdk');
const DISCUSSION_SEGMENT = seg('comments|threads?|forums?|discussions?|t|viewtopic\\.php|showthread\\.php');
const PRODUCT_SEGMENT = seg('products?|p|dp|shop|item|itm|sku');
const PRODUCT_SEGMENT_NOT_P = seg('products?|dp|shop|item|itm|sku');
const NEWS_SEGMENT = seg('news|newsroom|press|press-releases?');
const DATED_PATH = /\/(?:19|20)\d\d\/(?:0?[1-9]|1[0-2])(?:\/|$)/;
const HOMEPAGE_PATH = /^\/(?:index\.(?:html?|php|aspx?)|home)?$/i;

// Word rules, applied in one pass to "title + URL path" (lower-case). Words are separated by
// anything that is not a letter or digit, so "acme-vs-globex", "how_to" and "Acme vs. Globex" all
// read the same. Each alternative is one capture group; which groups matched decides the type.
const SEP = '[\\s\\-_/+]+';
const WORD_RULES = new RegExp(
  '(?<![a-z0-9])(?:' +
    [
      '(vs|versus|alternatives?|compare[sd]?|comparing|comparisons?)', // 1 comparison
      // 2 numbered listicle
      `((?:top|best)${SEP}\\d{1,3}|\\d{1,3}${SEP}(?:best|top|greatest|leading|popular|essential|cheapest))`,
      `(reviews?|reviewed|hands${SEP}on)`, // 3 review
      `(how${SEP}to|how${SEP}do${SEP}i|guides?|tutorials?|step${SEP}by${SEP}step|walkthrough)`, // 4 how-to
      `(best|top|ranked|ranking|list${SEP}of)`, // 5 listicle words
    ].join('|') +
    ')(?![a-z0-9])',
  'g',
);
const TITLE_STARTS_WITH_COUNT = /^\s*\d{1,3}\s+\p{L}/u; // "12 CRM tools that ..." (a year has 4 digits)

function endsWithHost(domain: string, suffixes: readonly string[]): boolean {
  for (const s of suffixes)
    if (domain === s || (domain.endsWith(s) && domain[domain.length - s.length - 1] === '.')) return true;
  return false;
}

/** Article type from already-normalised parts; analysis uses this to avoid parsing twice. */
export function articleTypeOf(domain: string, path: string, query: string, title: string): ArticleType {
  if (query === '' && HOMEPAGE_PATH.test(path)) return 'homepage';

  const lowerPath = path.toLowerCase();
  const dot = domain.indexOf('.');
  const firstLabel = dot < 0 ? domain : domain.slice(0, dot);

  if (DOC_HOST_LABELS.has(firstLabel) || DOC_SEGMENT.test(lowerPath) || endsWithHost(domain, DOC_HOST_SUFFIXES)) {
    return 'documentation';
  }
  if (FORUM_HOST_LABELS.has(firstLabel) || DISCUSSION_SEGMENT.test(lowerPath) || curatedCategory(domain) === 'forum') {
    return 'discussion';
  }

  const t = title ? title.toLowerCase() : '';
  let slug = lowerPath;
  if (slug.includes('%')) {
    try {
      slug = decodeURIComponent(lowerPath);
    } catch {
      /* keep the encoded path */
    }
  }
  const words = `${t} ${slug}`;
  let found = 0; // bit i set when rule group i matched
  WORD_RULES.lastIndex = 0;
  for (let m = WORD_RULES.exec(words); m; m = WORD_RULES.exec(words)) {
    for (let g = 1; g <= 5; g++)
      if (m[g] !== undefined) {
        found |= 1 << g;
        break;
      }
  }

  if (found & (1 << 1)) return 'comparison';
  if (found & (1 << 2) || (t !== '' && TITLE_STARTS_WITH_COUNT.test(t))) return 'listicle';
  if (found & (1 << 3)) return 'review';
  if (found & (1 << 4)) return 'how_to';
  if ((endsWithHost(domain, POST_P_HOSTS) ? PRODUCT_SEGMENT_NOT_P : PRODUCT_SEGMENT).test(lowerPath)) return 'product';
  if (found & (1 << 5)) return 'listicle';
  if (NEWS_SEGMENT.test(lowerPath) || DATED_PATH.test(lowerPath)) return 'news';
  return 'other';
}

/** Article type of a cited URL with its title (title may be empty). Unparsable URLs are `other`. */
export function articleType(url: string, title?: string | null): ArticleType {
  const p = parseCitationUrl(url);
  if (!p) return 'other';
  return articleTypeOf(p.domain, p.path, p.query, title ?? '');
}
