// Facts about one HTML page, extracted once with cheerio (parse5, the browsers' parsing rules)
// and shared by every signal. Only what a crawler that does not run JavaScript sees counts.
import { createRequire } from 'node:module';
import type * as Cheerio from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import { hostToDomain } from '../tracking/analysis/urls.ts';

export type PageKind = 'home' | 'article' | 'product' | 'page';

export interface Link {
  raw: string;
  url: URL | null;
  text: string;
  rel: string;
  /** Same site (host without `www.`), other than a jump within this page. */
  internal: boolean;
  external: boolean;
  /** Inside the main content rather than navigation, header or footer. */
  inMain: boolean;
}

export interface Image {
  src: string;
  alt: string | null;
  decorative: boolean;
}

export interface JsonLdBlock {
  ok: boolean;
  error?: string;
  value?: unknown;
}

/** A schema.org node with its types (prefix-free, e.g. `Article`) and its properties. */
export interface JsonLdNode {
  types: string[];
  data: Record<string, unknown>;
  context: boolean;
}

export interface Page {
  url: URL;
  $: CheerioAPI;
  html: string;
  lang: string | null;
  title: string | null;
  meta(name: string): string | null;
  headings: { level: number; text: string }[];
  /** All visible body text (scripts, styles and templates removed). */
  bodyText: string;
  bodyWords: number;
  /** The main content's text: <main>/<article> or the body without navigation and footer. */
  mainText: string;
  mainWords: number;
  sentences: string[];
  paragraphs: string[];
  links: Link[];
  images: Image[];
  scripts: { external: number; inline: number };
  jsonLd: { blocks: JsonLdBlock[]; nodes: JsonLdNode[] };
  kind: PageKind;
}

const BLOCK =
  'address,article,aside,blockquote,dd,details,div,dl,dt,figcaption,figure,footer,form,h1,h2,h3,h4,h5,h6,header,' +
  'hr,li,main,nav,ol,p,pre,section,summary,table,td,th,tr,ul';
const INVISIBLE = 'script,style,noscript,template,svg,iframe,object,canvas,[hidden],[aria-hidden="true"]';
const CHROME =
  'nav,header,footer,aside,[role="navigation"],[role="banner"],[role="contentinfo"],[role="complementary"]';

export const words = (text: string): string[] => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
export const clean = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Text of a fragment with line breaks between block elements, so words of adjacent blocks do not merge. */
function blockText($: CheerioAPI, root: ReturnType<CheerioAPI>): string {
  root.find('br').replaceWith('\n');
  root.find(BLOCK).each((_, el) => {
    $(el).append('\n');
  });
  return root
    .text()
    .replace(/[ \t\f\r]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}

/** schema.org type names without their vocabulary prefix. */
const typeName = (t: unknown) =>
  String(t)
    .replace(/^(https?:\/\/)?schema\.org\//i, '')
    .replace(/^schema:/i, '');

function collectNodes(value: unknown, out: JsonLdNode[], inheritedContext: boolean, depth = 0): void {
  if (depth > 12 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) collectNodes(v, out, inheritedContext, depth + 1);
    return;
  }
  const obj = value as Record<string, unknown>;
  const ctx = obj['@context'];
  const context =
    inheritedContext ||
    (typeof ctx === 'string'
      ? /schema\.org/i.test(ctx)
      : JSON.stringify(ctx ?? '')
          .toLowerCase()
          .includes('schema.org'));
  if (obj['@type'] !== undefined) {
    const types = (Array.isArray(obj['@type']) ? obj['@type'] : [obj['@type']]).map(typeName);
    out.push({ types, data: obj, context });
  }
  for (const [k, v] of Object.entries(obj)) if (k !== '@context') collectNodes(v, out, context, depth + 1);
}

function parseJsonLd($: CheerioAPI): Page['jsonLd'] {
  const blocks: JsonLdBlock[] = [];
  const nodes: JsonLdNode[] = [];
  $('script[type="application/ld+json" i]').each((_, el) => {
    const raw = $(el).text().trim();
    try {
      const value = JSON.parse(raw);
      blocks.push({ ok: true, value });
      collectNodes(value, nodes, false);
    } catch (err) {
      blocks.push({ ok: false, error: (err as Error).message });
    }
  });
  return { blocks, nodes };
}

export const ARTICLE_TYPES = [
  'Article',
  'BlogPosting',
  'NewsArticle',
  'TechArticle',
  'Report',
  'ScholarlyArticle',
  'HowTo',
];

function pageKind(url: URL, $: CheerioAPI, nodes: JsonLdNode[], meta: (n: string) => string | null): PageKind {
  const has = (types: string[]) => nodes.some((n) => n.types.some((t) => types.includes(t)));
  const ogType = (meta('og:type') ?? '').toLowerCase();
  if ((url.pathname === '/' || url.pathname === '') && !url.search) return 'home';
  if (ogType.startsWith('product') || has(['Product']) || $('[itemtype*="schema.org/Product" i]').length)
    return 'product';
  if (ogType === 'article' || has(ARTICLE_TYPES) || $('article').length || meta('article:published_time'))
    return 'article';
  return 'page';
}

// Loaded on the first page parsed, not when the server starts: cheerio and parse5 cost every
// process about 0.3 CPU-seconds to load, and most processes never audit a page.
const require = createRequire(import.meta.url);
let loaded: typeof Cheerio | undefined;
const cheerioLib = (): typeof Cheerio => {
  loaded ??= require('cheerio') as typeof Cheerio;
  return loaded;
};

export function parsePage(html: string, finalUrl: string): Page {
  const url = new URL(finalUrl);
  const cheerio = cheerioLib();
  const $ = cheerio.load(html);
  const meta = (name: string): string | null => {
    const n = name.toLowerCase();
    let found: string | null = null;
    $('meta').each((_, el) => {
      const m = $(el);
      const key = (m.attr('name') ?? m.attr('property') ?? m.attr('http-equiv') ?? '').toLowerCase();
      if (key === n && found === null) found = clean(m.attr('content') ?? '');
    });
    return found;
  };

  // A second tree for text: invisible parts removed, then the page chrome for the main content.
  const $t = cheerio.load(html);
  $t(INVISIBLE).remove();
  const body = $t('body');
  const mainSel = $t('main, [role="main"]').first().length
    ? $t('main, [role="main"]').first()
    : $t('article').first().length
      ? $t('article').first()
      : null;
  const bodyText = blockText($t, body.clone());
  let mainRoot = mainSel?.clone();
  if (!mainRoot) {
    mainRoot = body.clone();
    mainRoot.find(CHROME).remove();
  }
  const mainText = blockText($t, mainRoot);
  const mainWords = words(mainText).length;
  const sentences = mainText
    .split(/(?<=[.!?])\s+|\n+/)
    .map(clean)
    .filter((s) => words(s).length >= 3);
  const paragraphs = (mainSel ?? body)
    .find('p')
    .toArray()
    .map((p) => clean($t(p).text()))
    .filter((p) => words(p).length > 0);

  const host = hostToDomain(url.hostname);
  const inMainEls = new Set((mainSel ?? body).find('a').toArray());
  const chromeEls = new Set(body.find(CHROME).find('a').toArray());
  const links: Link[] = [];
  // The $t tree drops nothing that holds links except invisible parts, so its anchors are used.
  body.find('a[href]').each((_, el) => {
    const a = $t(el);
    const raw = (a.attr('href') ?? '').trim();
    let target: URL | null = null;
    try {
      target = new URL(raw, url);
    } catch {
      target = null;
    }
    const web = target !== null && (target.protocol === 'http:' || target.protocol === 'https:');
    const samePage =
      web && target!.origin === url.origin && target!.pathname === url.pathname && target!.search === url.search;
    const sameSite = web && hostToDomain(target!.hostname) === host;
    links.push({
      raw,
      url: target,
      text: clean(a.text() || a.attr('aria-label') || a.find('img').attr('alt') || ''),
      rel: (a.attr('rel') ?? '').toLowerCase(),
      internal: sameSite && !samePage,
      external: web && !sameSite,
      inMain: mainSel ? inMainEls.has(el) : !chromeEls.has(el),
    });
  });

  const images: Image[] = $('img')
    .toArray()
    .map((el) => {
      const img = $(el);
      const role = (img.attr('role') ?? '').toLowerCase();
      const tiny = img.attr('width') === '1' || img.attr('height') === '1';
      return {
        src: img.attr('src') ?? img.attr('data-src') ?? '',
        alt: img.attr('alt') ?? null,
        decorative: role === 'presentation' || role === 'none' || img.attr('aria-hidden') === 'true' || tiny,
      };
    });

  const jsonLd = parseJsonLd($);
  const lang = $('html').attr('lang')?.trim() || null;
  const title = $('head title').first().text() || $('title').first().text();
  return {
    url,
    $,
    html,
    lang,
    title: title ? clean(title) : null,
    meta,
    headings: $('h1,h2,h3,h4,h5,h6')
      .toArray()
      .map((h) => ({ level: Number(h.tagName.slice(1)), text: clean($(h).text()) })),
    bodyText,
    bodyWords: words(bodyText).length,
    mainText,
    mainWords,
    sentences,
    paragraphs,
    links,
    images,
    scripts: { external: $('script[src]').length, inline: $('script:not([src])').length },
    jsonLd,
    kind: pageKind(url, $, jsonLd.nodes, meta),
  };
}

/** Nodes of any of the given types (subtypes are listed by the caller). */
export function nodesOf(page: Page, types: string[]): JsonLdNode[] {
  return page.jsonLd.nodes.filter((n) => n.types.some((t) => types.includes(t)));
}
