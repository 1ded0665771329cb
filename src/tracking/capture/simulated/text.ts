// Building blocks of the simulated engine (answers.ts): answer texts, cited URLs and product
// cards. Everything here draws from the seeded generator it is given and never from Math.random,
// so the engine stays deterministic. Texts are meant to exercise the analysis of docs/api.md
// section 2: names, aliases and domains as surface forms, markdown links, bare URLs, repeats.
import type { CitationInput, ProductInput } from '../../types.ts';
import type { Entity, Platform } from '../../../tenancy/tracked.ts';
import type { ProductKind } from './products.ts';

/** A uniform [0, 1) generator; the seeded one lives in answers.ts. */
export type Rng = () => number;

export const pick = <T>(r: Rng, xs: readonly T[]): T => xs[(r() * xs.length) | 0];
export const int = (r: Rng, lo: number, hi: number): number => lo + ((r() * (hi - lo + 1)) | 0);

/** What one answer is about; built once per answer by answers.ts. */
export interface Ctx {
  r: Rng;
  platform: Platform;
  region: string;
  year: number;
  prompt: string; // the prompt as asked
  topic: string; // "crm for startups"
  topicTitle: string; // "Crm for Startups"
  entities: Entity[]; // brand first, then competitors
}

const slugs = new Map<string, string>(); // names and topics repeat endlessly: compute each once
export function slug(s: string): string {
  let v = slugs.get(s);
  if (v === undefined) {
    v = s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    if (slugs.size > 20_000) slugs.clear();
    slugs.set(s, v);
  }
  return v;
}

const SMALL = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'vs', 'with']);
/** "best crm for startups?" -> topic "crm for startups" (leading question words dropped). */
export function topicOf(prompt: string): { topic: string; topicTitle: string } {
  const words = prompt
    .toLowerCase()
    .replace(/[?!.]+$/g, '')
    .split(/\s+/)
    .filter(Boolean);
  const LEAD =
    /^(what|which|whats|what's|who|is|are|the|best|top|good|a|an|some|recommend|me|most|popular|should|i|use)$/;
  let i = 0;
  while (i < words.length - 1 && LEAD.test(words[i])) i++;
  const topic = words.slice(i).join(' ') || prompt;
  const topicTitle = topic
    .split(' ')
    .map((w, k) => (k > 0 && SMALL.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
  return { topic, topicTitle };
}

// ---- cited URLs -------------------------------------------------------------------------------
// Third-party hosts per category of docs/api.md section 2, so every category shows up in figures.
const EDITORIAL = [
  'techcrunch.com',
  'forbes.com',
  'nytimes.com',
  'theverge.com',
  'wired.com',
  'zdnet.com',
  'techradar.com',
  'pcmag.com',
  'businessinsider.com',
  'theguardian.com',
];
const INSTITUTIONAL = ['nist.gov', 'ftc.gov', 'mit.edu', 'stanford.edu', 'ox.ac.uk', 'cam.ac.uk', 'gov.uk', 'who.int'];
const SUBREDDITS = [
  'SaaS',
  'smallbusiness',
  'startups',
  'Entrepreneur',
  'sysadmin',
  'marketing',
  'BuyItForLife',
  'productivity',
];
const BLOG_A = ['bright', 'lean', 'quiet', 'north', 'plain', 'swift', 'clever', 'urban', 'tiny', 'open'];
const BLOG_B = ['stack', 'ledger', 'harbor', 'signal', 'tools', 'notes', 'compass', 'forge', 'review', 'pilot'];
const BLOG_TLD = ['com', 'io', 'co', 'net', 'blog', 'dev'];
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export const token = (r: Rng, n: number, abc = ALNUM): string => {
  let s = '';
  for (let i = 0; i < n; i++) s += abc[(r() * abc.length) | 0];
  return s;
};
export const digits = (r: Rng, n: number): string => int(r, 1, 9) + token(r, n - 1, '0123456789');

const ENTITY_PAGES: [string, string][] = [
  // [path, title]; {n} = entity name, {t} = topic title
  ['/', '{n} | {t} for Modern Teams'],
  ['/pricing', '{n} Pricing: Plans and Features'],
  ['/features', 'Features | {n}'],
  ['/customers', 'Customer Stories | {n}'],
  ['/blog/{s}', 'How to Choose {t} | {n} Blog'],
  ['/compare/{o}', '{n} vs {O}: An Honest Comparison'],
  ['/products/{s}', '{n} {t}: Product Overview'],
  ['/docs/getting-started', 'Getting Started - {n} Docs'],
  ['/blog/{year}-product-update', "What's New in {n} ({year})"],
];

/** A page on one of the entity's own sites (sometimes a sub-domain), with a title. */
function entityPage(c: Ctx, e: Entity): CitationInput {
  const r = c.r,
    other = pick(r, c.entities.length > 1 ? c.entities.filter((x) => x !== e) : c.entities);
  const [path, title] = pick(r, ENTITY_PAGES);
  const sub =
    path.startsWith('/docs') && r() < 0.5
      ? 'docs.'
      : path.startsWith('/blog') && r() < 0.3
        ? 'blog.'
        : r() < 0.3
          ? 'www.'
          : '';
  const fill = (s: string) =>
    s
      .replace('{n}', e.name)
      .replace('{O}', other.name)
      .replace('{o}', slug(other.name))
      .replace('{t}', c.topicTitle)
      .replace('{s}', slug(c.topic))
      .replace('{year}', String(c.year));
  return { url: `https://${sub}${pick(r, e.domains)}${fill(path)}`, title: fill(title) };
}

/** A third-party page of one category; `e` is an entity it may be about. */
function thirdParty(c: Ctx, cat: string, e: Entity): CitationInput {
  const r = c.r,
    t = c.topicTitle,
    y = c.year,
    ts = slug(c.topic),
    es = slug(e.name);
  switch (cat) {
    case 'editorial': {
      const host = pick(r, EDITORIAL),
        k = r();
      if (k < 0.45)
        return {
          url: `https://www.${host}/${y}/${String(int(r, 1, 12)).padStart(2, '0')}/best-${ts}/`,
          title: `The ${int(r, 5, 15)} Best ${t} in ${y}`,
        };
      if (k < 0.7)
        return {
          url:
            `https://${host}/${y}/${int(r, 1, 12)}/${int(r, 1, 28)}/${es}-raises-series-` +
            `${pick(r, ['a', 'b', 'c'])}/`,
          title: `${e.name} raises $${int(r, 8, 120)}M to expand its ${c.topic} platform`,
        };
      return {
        url: `https://www.${host}/reviews/${es}-review`,
        title: `${e.name} Review (${y}): Pros, Cons and Pricing`,
      };
    }
    case 'forum': {
      const k = r();
      if (k < 0.55) {
        const sub = pick(r, SUBREDDITS);
        return {
          url: `https://www.reddit.com/r/${sub}/comments/${token(r, 6)}/what_${ts.replace(/-/g, '_')}_do_you_use/`,
          title: `What ${c.topic} do you actually use? : r/${sub}`,
        };
      }
      if (k < 0.75)
        return {
          url: `https://www.quora.com/What-is-the-best-${t.replace(/\s+/g, '-')}`,
          title: `What is the best ${c.topic}? - Quora`,
        };
      if (k < 0.9)
        return {
          url: `https://stackoverflow.com/questions/${digits(r, 8)}/${es}-vs-alternatives`,
          title: `${e.name} vs alternatives for ${c.topic} - Stack Overflow`,
        };
      return {
        url: `https://news.ycombinator.com/item?id=${digits(r, 8)}`,
        title: `Ask HN: What do you use for ${c.topic}?`,
      };
    }
    case 'social': {
      const k = r();
      if (k < 0.5)
        return {
          url: `https://www.youtube.com/watch?v=${token(r, 11, B64)}`,
          title: `${e.name} Review: Is It Worth It in ${y}?`,
        };
      if (k < 0.75)
        return {
          url: `https://www.linkedin.com/pulse/${ts}-lessons-${token(r, 5)}`,
          title: `${int(r, 3, 9)} lessons from choosing ${c.topic}`,
        };
      return {
        url: `https://x.com/${pick(r, BLOG_A)}${pick(r, BLOG_B)}/status/${digits(r, 19)}`,
        title: `Thread: our ${c.topic} stack in ${y}`,
      };
    }
    case 'review': {
      const k = r();
      if (k < 0.4)
        return { url: `https://www.g2.com/categories/${ts}`, title: `Best ${t}: User Reviews from ${y} | G2` };
      if (k < 0.6)
        return {
          url: `https://www.g2.com/products/${es}/reviews`,
          title: `${e.name} Reviews ${y}: Details, Pricing, & Features | G2`,
        };
      if (k < 0.8)
        return {
          url: `https://www.capterra.com/p/${digits(r, 6)}/${es}/`,
          title: `${e.name} Reviews, Pricing & Features - Capterra`,
        };
      return {
        url: `https://www.trustpilot.com/review/${e.domains[0] ?? `${es}.com`}`,
        title: `${e.name} Reviews | Read Customer Service Reviews`,
      };
    }
    case 'institutional': {
      const host = pick(r, INSTITUTIONAL);
      return r() < 0.5
        ? { url: `https://www.${host}/publications/${ts}-guidelines`, title: `Guidelines for ${c.topic} (${y})` }
        : {
            url: `https://${host.endsWith('.gov') ? 'www' : 'news'}.${host}/${y}/study-${ts}`,
            title: `Study: how organisations adopt ${c.topic}`,
          };
    }
    default: {
      // other: small independent blogs
      const host = `${pick(r, BLOG_A)}${pick(r, BLOG_B)}.${pick(r, BLOG_TLD)}`,
        k = r();
      if (k < 0.4)
        return { url: `https://${host}/blog/how-to-choose-${ts}`, title: `How to Choose ${t}: A Practical Guide` };
      if (k < 0.7)
        return {
          url: `https://${host}/${es}-vs-${slug(pick(r, c.entities).name)}`,
          title: `${e.name} vs ${pick(r, c.entities).name}: Which Should You Pick?`,
        };
      return { url: `https://${host}/${ts}-alternatives/`, title: `${int(r, 5, 12)} ${t} Alternatives Worth Trying` };
    }
  }
}

const CATS = ['editorial', 'forum', 'social', 'review', 'institutional', 'other'];
const CAT_WEIGHTS = [0.24, 0.2, 0.12, 0.2, 0.07, 0.17]; // shares of third-party citations, same order

/**
 * `count` cited pages. Named entities are likelier to have their own site cited (ownCite[i] is the
 * probability for c.entities[i]); the rest are third-party pages. Some URLs carry utm_ parameters, and
 * a few repeat an earlier URL with them, so de-duplication by normalised URL has work to do.
 */
export function buildCitations(c: Ctx, count: number, ownCite: readonly number[]): CitationInput[] {
  const r = c.r,
    out: CitationInput[] = [];
  for (let i = 0; i < ownCite.length && out.length < count; i++) {
    if (c.entities[i].domains.length && r() < ownCite[i]) out.push(entityPage(c, c.entities[i]));
  }
  while (out.length < count) {
    let k = r(),
      i = 0;
    while (i < CATS.length - 1 && k >= CAT_WEIGHTS[i]) k -= CAT_WEIGHTS[i++];
    out.push(thirdParty(c, CATS[i], pick(r, c.entities)));
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = (r() * (i + 1)) | 0;
    [out[i], out[j]] = [out[j], out[i]];
  }
  const res: CitationInput[] = [],
    pages: string[] = [];
  for (const cit of out) {
    if (pages.includes(cit.url)) continue; // two draws of the same page: keep one
    pages.push(cit.url);
    if (r() < (c.platform === 'chatgpt' ? 0.3 : 0.06)) {
      const plain = cit.url,
        utm =
          c.platform === 'chatgpt'
            ? 'utm_source=chatgpt.com'
            : `utm_source=newsletter&utm_medium=email&utm_campaign=${c.year}`;
      cit.url += (plain.includes('?') ? '&' : '?') + utm;
      if (r() < 0.15 && res.length < count - 1) res.push({ url: plain, title: cit.title }); // same page twice
    }
    res.push(cit);
  }
  return res.slice(0, count);
}

// ---- answer texts -----------------------------------------------------------------------------
const INTROS = [
  'When it comes to {t}, a handful of options come up again and again.',
  'There is no single best answer to "{p}": it depends on team size, budget and the integrations you need.',
  'Here is a quick overview of the strongest choices for {t} right now.',
  'Based on recent reviews and user discussions, these are the {t} options most worth considering in {y}.',
  'Short answer: it depends on what you value most. Below are the names that reviewers and users mention most ' +
    'often for {t}.',
];
// [as a sentence after the name, as a list item after "**Name**:"]
const DESCS: [string, string][] = [
  ['stands out for its ease of use and quick onboarding.', 'Stands out for its ease of use and quick onboarding.'],
  [
    'is a solid choice for teams that need deep customisation and reporting.',
    'A solid choice for teams that need deep customisation and reporting.',
  ],
  ['offers competitive pricing with a generous free tier.', 'Competitive pricing with a generous free tier.'],
  [
    'is popular with mid-sized companies thanks to its wide range of integrations.',
    'Popular with mid-sized companies thanks to its wide range of integrations.',
  ],
  ['gets consistently strong reviews for customer support.', 'Consistently strong reviews for customer support.'],
  [
    'is the most feature-rich option here, although the learning curve is steeper.',
    'The most feature-rich option here, although the learning curve is steeper.',
  ],
  ['works well for small teams on a tight budget.', 'Works well for small teams on a tight budget.'],
  [
    'is often recommended for its clean interface and reliable mobile apps.',
    'Often recommended for its clean interface and reliable mobile apps.',
  ],
  [
    'focuses on automation and tends to save time on repetitive work.',
    'Focuses on automation and tends to save time on repetitive work.',
  ],
  [
    'is a newer player, but its roadmap and pace of updates are impressive.',
    'A newer player, but its roadmap and pace of updates are impressive.',
  ],
];
const OTHERS = ['Lumora', 'Kestrel Labs', 'Vantor', 'Brightfield', 'Oakline', 'Pellucid', 'Quillsoft'];
const ADVICE = [
  '- **Integrations:** make sure it connects with the tools you already use.',
  '- **Pricing at scale:** compare the cost at your expected number of users, not just the entry plan.',
  '- **Support:** check response times and whether onboarding help is included.',
  '- **Data export:** you should be able to leave without losing your history.',
  '- **Trial:** shortlist two or three products and run a real pilot with your team.',
];
const CLOSINGS = [
  'Before committing, run a short trial with two or three of these and compare onboarding time, pricing at your ' +
    'expected scale and the quality of support.',
  'Pricing and feature sets change often, so check the latest plans and recent user reviews before you decide.',
  'If you share more about your team size and budget, I can narrow this down further.',
];
const FILLERS = [
  'Most of these offer a free trial, which is the easiest way to see how they fit your workflow.',
  'User reviews suggest that ease of setup matters more in practice than long feature lists.',
  'Also consider how well each option handles security, permissions and data residency.',
];

/** How an entity is written: mostly its name, sometimes an alias, its domain or a markdown link. */
function form(r: Rng, e: Entity): string {
  const k = r();
  if (k < 0.12 && e.aliases.length) return pick(r, e.aliases);
  if (k < 0.2 && e.domains.length) return pick(r, e.domains);
  if (k < 0.32 && e.domains.length)
    return `[${e.name}](https://${pick(r, e.domains)}${pick(r, ['', '/', '/pricing', '/features'])})`;
  return e.name;
}
const fillIn = (s: string, c: Ctx) => s.replace('{t}', c.topic).replace('{p}', c.prompt).replace('{y}', String(c.year));

/**
 * An answer in one of three styles (numbered list, bullets, prose), naming `named` in that order,
 * mixed with a few untracked names. Perplexity-style answers carry [n] markers for their sources.
 */
export function buildText(c: Ctx, named: Entity[], nCites: number): string {
  const r = c.r,
    parts: string[] = [fillIn(pick(r, INTROS), c)];
  const items: string[] = [];
  for (const e of named) items.push(form(r, e));
  if (r() < 0.4) {
    // untracked names in the mix, as real answers have
    const o = int(r, 0, OTHERS.length - 1),
      n = int(r, 1, 2);
    for (let i = 0; i < n; i++) items.splice(int(r, 0, items.length), 0, OTHERS[(o + i) % OTHERS.length]);
  }
  if (!named.length && r() < 0.6) items.length = 0; // sometimes a general answer naming nobody
  // Descriptions walk DESCS with a stride prime to its length: no repeats within an answer.
  const d0 = int(r, 0, DESCS.length - 1);
  const desc = (i: number, k: 0 | 1) => DESCS[(d0 + 3 * i) % DESCS.length][k];
  // Perplexity-style answers point at their sources with [n] markers.
  const marks = c.platform === 'perplexity' && nCites > 0;
  const style = c.platform === 'claude' || c.platform === 'google_ai_overviews' ? (r() < 0.6 ? 2 : 1) : int(r, 0, 2);
  if (!items.length) {
    let advice = 'A few things to weigh before you pick a product:\n';
    for (const a of ADVICE) if (r() < 0.75) advice += `\n${a}`;
    parts.push(advice);
  } else if (style === 2) {
    // prose: two names per paragraph
    for (let i = 0; i < items.length; i += 2) {
      let p = `${items[i]} ${desc(i, 0)}`;
      if (marks && r() < 0.7) p += ` [${int(r, 1, nCites)}]`;
      if (i + 1 < items.length) p += ` ${pick(r, CONTRASTS)} ${items[i + 1]} ${desc(i + 1, 0)}`;
      parts.push(p);
    }
  } else {
    // numbered list or bullets
    let list = '';
    for (let i = 0; i < items.length; i++) {
      list += `${i ? '\n' : ''}${style === 0 ? `${i + 1}.` : '-'} **${items[i]}**: ${desc(i, 1)}`;
      if (marks && r() < 0.7) list += ` [${int(r, 1, nCites)}]`;
    }
    parts.push(list);
  }
  if (named.length >= 2 && r() < 0.5) {
    // a second mention of the leaders
    parts.push(
      `**Bottom line:** ${named[0].name} is the safest default, while ${named[1].name} is worth a look if ` +
        `budget is the main constraint.`,
    );
  } else if (named.length && r() < 0.25) {
    const e = pick(r, named);
    parts.push(
      e.domains.length && r() < 0.5
        ? // a bare URL: not a mention
          `You can compare plans directly at https://${e.domains[0]}/pricing before signing up.`
        : `Overall, ${e.name} is the option most reviewers come back to.`,
    );
  }
  parts.push(pick(r, CLOSINGS));
  return pad(parts.join('\n\n'));
}
/** Short answers get a few generic sentences so texts stay in the 400-1200 character range. */
function pad(text: string): string {
  for (let i = 0; text.length < 400 && i < FILLERS.length; i++) text += ` ${FILLERS[i]}`;
  return text;
}
const CONTRASTS = ['By contrast,', 'Meanwhile,', 'Alternatively,'];

// ---- shopping ---------------------------------------------------------------------------------
const LINES = ['Pro', 'Max', 'Air', 'One', 'Lite', 'Studio', 'Plus', 'Mini', 'Ultra', 'Essential'];
const MAKERS = ['Northvale', 'Corvid', 'Halden', 'Auralis', 'Tessin'];
const CURRENCY: Record<string, string> = {
  US: 'USD',
  GB: 'GBP',
  UK: 'GBP',
  DE: 'EUR',
  FR: 'EUR',
  ES: 'EUR',
  IT: 'EUR',
  NL: 'EUR',
  TR: 'TRY',
  JP: 'JPY',
};
// Retailers per market (Amazon listed twice: it dominates shopping cards everywhere).
const US_SHOPS = ['amazon.com', 'amazon.com', 'bestbuy.com', 'walmart.com', 'target.com', 'ebay.com'];
const SHOPS: Record<string, string[]> = {
  GB: ['amazon.co.uk', 'amazon.co.uk', 'currys.co.uk', 'argos.co.uk', 'ebay.co.uk'],
  DE: ['amazon.de', 'amazon.de', 'otto.de', 'mediamarkt.de', 'ebay.de'],
  FR: ['amazon.fr', 'amazon.fr', 'fnac.com', 'cdiscount.com'],
  JP: ['amazon.co.jp', 'amazon.co.jp', 'rakuten.co.jp'],
  TR: ['amazon.com.tr', 'trendyol.com', 'hepsiburada.com'],
};
SHOPS.UK = SHOPS.GB;

const group = (n: number, sep: string) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
/** Price as a shopper sees it: "$1,299.99", "€29,99", "₺2.699,99", "¥12,800", "£49.99". */
function priceString(totalCents: number, cur: string): string {
  const i = Math.floor(totalCents / 100),
    cents = String(totalCents % 100).padStart(2, '0');
  switch (cur) {
    case 'EUR':
      return `€${group(i, '.')},${cents}`;
    case 'TRY':
      return `₺${group(i, '.')},${cents}`;
    case 'GBP':
      return `£${group(i, ',')}.${cents}`;
    case 'JPY':
      return `¥${group(i, ',')}`;
    default:
      return `$${group(i, ',')}.${cents}`;
  }
}

/** 3-6 product cards plus the short answer that lists them. */
export function buildShopping(
  c: Ctx,
  makerOdds: readonly number[],
  kind?: ProductKind | null,
): { text: string; products: ProductInput[] } {
  const r = c.r,
    cur = CURRENCY[c.region.toUpperCase()] ?? 'USD',
    shops = kind?.shops[c.region.toUpperCase()] ?? (kind ? kind.shops.US : (SHOPS[c.region.toUpperCase()] ?? US_SHOPS));
  const base = (kind ? kind.price : pick(r, [19, 49, 129, 349, 899])) * (cur === 'JPY' ? 150 : cur === 'TRY' ? 40 : 1);
  const products: ProductInput[] = [],
    lines: string[] = [];
  const n = int(r, 3, 6);
  for (let pos = 1; pos <= n; pos++) {
    let maker: Entity | null = null;
    for (let i = 0; i < makerOdds.length && !maker; i++) if (r() < makerOdds[i]) maker = c.entities[i];
    const makerName = maker
      ? maker.aliases.length && r() < 0.15
        ? pick(r, maker.aliases)
        : maker.name
      : pick(r, kind ? kind.others : MAKERS);
    const title = kind
      ? `${makerName} ${pick(r, kind.lines)} ${pick(r, kind.cardSuffix)}`
      : `${makerName} ${pick(r, LINES)} ${int(r, 2, 15)}${r() < 0.3 ? ` (${c.year} Edition)` : ''}`;
    // Integer cents, so that numbers and strings agree exactly (no 954.8699999 floats).
    const cents =
      cur === 'JPY'
        ? Math.round(base * (0.6 + r())) * 1000
        : Math.round(base * (0.6 + r()) * 100) - (r() < 0.5 ? 1 : 0);
    const own = maker?.domains.length && r() < 0.35 ? pick(r, maker.domains) : null;
    const merchant = own ?? pick(r, shops);
    const ps = slug(title);
    const merchant_url = merchant.startsWith('amazon')
      ? `https://www.${merchant}/dp/B0${token(r, 8).toUpperCase()}`
      : merchant === 'bestbuy.com'
        ? `https://www.bestbuy.com/site/${ps}/${digits(r, 7)}.p`
        : merchant === 'walmart.com'
          ? `https://www.walmart.com/ip/${ps}/${digits(r, 9)}`
          : merchant.startsWith('ebay.')
            ? `https://www.${merchant}/itm/${digits(r, 12)}`
            : merchant === 'target.com'
              ? `https://www.target.com/p/${ps}/-/A-${digits(r, 8)}`
              : `https://${own ? '' : 'www.'}${merchant}/${own ? 'products' : 'p'}/${ps}`;
    const rating = Math.round((3.5 + r() * 1.5) * 10) / 10,
      reviews = int(r, 3, r() < 0.3 ? 25000 : 900);
    const asString = r() < 0.5;
    products.push({
      position: pos,
      title,
      brand: maker || r() < 0.7 ? makerName : undefined, // sometimes no brand: only the title names it
      price: asString ? priceString(cents, cur) : cents / 100,
      currency: asString && r() < 0.5 ? null : cur,
      image_url:
        r() < 0.9
          ? merchant.startsWith('amazon')
            ? `https://m.media-amazon.com/images/I/${token(r, 11, B64)}._AC_SL1500_.jpg`
            : `https://images.${merchant}/${token(r, 8)}/${ps}.jpg`
          : null,
      merchant_url,
      rating: r() < 0.85 ? rating : String(rating),
      review_count: r() < 0.9 ? reviews : group(reviews, ','),
    });
    lines.push(
      `${pos}. **${title}**: ${priceString(cents, cur)} at ${merchant}, rated ${rating}/5 ` +
        `(${group(reviews, ',')} reviews).`,
    );
  }
  const text =
    `${fillIn(
      pick(r, [
        'Here are some popular picks for {t}:',
        'Top-rated options for {t} right now:',
        kind
          ? `These ${kind.noun} stand out on price and reviews:`
          : 'These {t} products stand out on price and reviews:',
      ]),
      c,
    )}\n\n${lines.join('\n')}\n\n` +
    'Prices and availability change frequently, so check the retailer for current deals and shipping times.';
  return { text: pad(text), products };
}
