// E-E-A-T: who wrote the page (byline, author data), when (dates, freshness), and who stands
// behind the site (about page, Organization data).
import { ARTICLE_TYPES, nodesOf, type Page } from '../page.ts';
import { ORGANIZATION_TYPES } from './schema.ts';
import { fail, graded, na, pass, plural, quote, warn, type AuditInput, type Signal } from './types.ts';
import { DAY_MS, isoDay } from '../../instant.ts';

const BYLINE = '[rel~="author"], [itemprop="author"], .author, .byline, [class*="author" i], [class*="byline" i]';
const needsAuthor = (page: Page) => page.kind === 'article' || page.kind === 'page';

/** `author` values of the structured data: strings or {name, url, sameAs} objects (or whatever else a page put). */
function schemaAuthors(page: Page): unknown[] {
  return page.jsonLd.nodes.flatMap((n) => (n.data.author === undefined ? [] : [n.data.author].flat())).filter(Boolean);
}

const isObject = (a: unknown): a is Record<string, unknown> => typeof a === 'object' && a !== null;

function authorByline(input: AuditInput): Signal {
  const { page } = input;
  if (!needsAuthor(page)) return na('author_byline', `Not expected on a ${page.kind} page.`);
  const $ = page.$;
  const els = $(BYLINE)
    .filter((_, el) => {
      const t = $(el).text().trim();
      return t.length > 1 && t.length <= 80;
    })
    .toArray();
  const visible = els.length
    ? $(els[0]).text().replace(/\s+/g, ' ').trim()
    : page.mainText.slice(0, 600).match(/\bBy\s+([A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,3})/)?.[0];
  const linked =
    $('a[rel~="author"]').length > 0 ||
    els.some((el) => $(el).is('a[href]') || $(el).find('a[href]').length > 0) ||
    schemaAuthors(page).some((a) => isObject(a) && (a.url || a.sameAs));
  const machine =
    schemaAuthors(page)
      .map((a) => (typeof a === 'string' ? a : isObject(a) ? a.name : undefined))
      .find(Boolean) ?? page.meta('author');
  if (visible && linked) return pass('author_byline', `Byline ${quote(visible, 60)} with a link to the author.`);
  if (visible) return warn('author_byline', 0.6, `Byline ${quote(visible, 60)} without a link to an author page.`);
  if (machine)
    return warn('author_byline', 0.4, `Author ${quote(String(machine), 60)} only in metadata, not shown on the page.`);
  return fail('author_byline', 'No author named on the page or in its metadata.');
}

function authorSchema(input: AuditInput): Signal {
  const { page } = input;
  if (!needsAuthor(page)) return na('author_schema', `Not expected on a ${page.kind} page.`);
  const authors = schemaAuthors(page);
  const objects = authors.filter(isObject);
  const full = objects.find((a) => a.name && (a.url || a.sameAs));
  if (full)
    return pass(
      'author_schema',
      `JSON-LD author ${full['@type'] ?? 'object'} ${quote(String(full.name), 40)} with ` +
        `${full.url ? 'url' : 'sameAs'}.`,
    );
  const named = objects.find((a) => a.name);
  if (named)
    return warn('author_schema', 0.6, `JSON-LD author ${quote(String(named.name), 40)} without url or sameAs.`);
  if (authors.some((a) => typeof a === 'string'))
    return warn(
      'author_schema',
      0.4,
      `JSON-LD author is a bare string (${quote(String(authors[0]), 40)}), not a Person.`,
    );
  return fail('author_schema', 'No author in the structured data.');
}

interface FoundDate {
  label: string;
  date: Date;
  modified: boolean;
}

/** Machine-readable dates of the page, from JSON-LD, meta tags and <time datetime>. */
export function pageDates(page: Page): FoundDate[] {
  const out: FoundDate[] = [];
  const add = (label: string, value: unknown, modified: boolean) => {
    if (typeof value !== 'string' || !value.trim()) return;
    const d = new Date(value.trim());
    if (!Number.isNaN(d.getTime())) out.push({ label, date: d, modified });
  };
  for (const n of nodesOf(page, [...ARTICLE_TYPES, 'WebPage', 'Product', 'FAQPage', 'AboutPage', 'CollectionPage'])) {
    add(`JSON-LD datePublished`, n.data.datePublished, false);
    add(`JSON-LD dateModified`, n.data.dateModified, true);
  }
  add('article:published_time', page.meta('article:published_time'), false);
  add('article:modified_time', page.meta('article:modified_time'), true);
  add('og:updated_time', page.meta('og:updated_time'), true);
  add('meta date', page.meta('date') ?? page.meta('dc.date'), false);
  page.$('time[datetime]').each((_, el) => {
    add('<time datetime>', page.$(el).attr('datetime'), false);
  });
  page.$('[itemprop="datePublished"], [itemprop="dateModified"]').each((_, el) => {
    const e = page.$(el);
    add(
      `itemprop ${e.attr('itemprop')}`,
      e.attr('content') ?? e.attr('datetime'),
      e.attr('itemprop') === 'dateModified',
    );
  });
  return out;
}

function dates(input: AuditInput): Signal {
  const { page } = input;
  if (page.kind === 'home') return na('dates', 'A home page is not expected to carry dates.');
  const found = pageDates(page);
  if (found.length) {
    const labels = [...new Set(found.map((f) => `${f.label} ${isoDay(f.date)}`))].slice(0, 3).join(', ');
    return pass('dates', `Machine-readable dates: ${labels}.`);
  }
  const visible = page.mainText.match(
    new RegExp(
      [
        '\\b(?:published|updated|last (?:updated|modified)|posted)\\b[^\\n]{0,40}?',
        '\\b(?:\\d{4}|\\d{1,2}\\s+\\w+\\s+\\d{4}|\\w+\\s+\\d{1,2},?\\s+\\d{4})',
      ].join(''),
      'i',
    ),
  )?.[0];
  if (visible) return warn('dates', 0.5, `Only a visible date (${quote(visible, 60)}), no machine-readable one.`);
  const header = input.fetch.headers['last-modified'];
  if (header) return warn('dates', 0.3, `Only an HTTP Last-Modified header (${header}); no date on the page.`);
  return fail('dates', 'No publication or update date on the page or in its metadata.');
}

function freshness(input: AuditInput): Signal {
  const { page, now } = input;
  if (page.kind === 'home') return na('freshness', 'A home page is not expected to carry dates.');
  const found = pageDates(page).filter((f) => f.date.getTime() <= now.getTime() + 2 * DAY_MS);
  if (!found.length) {
    const future = pageDates(page).length > 0;
    return future
      ? warn('freshness', 0.5, 'Every date on the page lies in the future.')
      : na('freshness', 'No machine-readable date to judge freshness by.');
  }
  const newest = found.reduce((a, b) => (a.date > b.date ? a : b));
  const ageDays = Math.max(0, Math.floor((now.getTime() - newest.date.getTime()) / DAY_MS));
  const seen = `Newest date ${isoDay(newest.date)} (${newest.label}), ${plural(ageDays, 'day')} old.`;
  return ageDays <= 365
    ? pass('freshness', seen)
    : ageDays <= 730
      ? warn('freshness', 0.5, seen)
      : fail('freshness', seen);
}

function aboutLink(input: AuditInput): Signal {
  const hit = input.page.links.find((l) =>
    /\babout\b|who we are|our story|our team|über uns|qui sommes|sobre nosotros|chi siamo/i.test(
      `${l.text} ${l.url?.pathname ?? ''}`,
    ),
  );
  return hit
    ? pass('about_link', `Links to an about page: ${quote(hit.text || hit.raw, 40)} -> ${hit.raw}.`)
    : fail('about_link', `No link to an about page among the page's ${plural(input.page.links.length, 'link')}.`);
}

function organizationSchema(input: AuditInput): Signal {
  const orgs = nodesOf(input.page, ORGANIZATION_TYPES);
  if (!orgs.length)
    return fail('organization_schema', 'No Organization in the structured data (neither on its own nor as publisher).');
  const best = orgs
    .map((n) => ({ n, have: ['name', 'url', 'logo'].filter((p) => n.data[p]) }))
    .sort((a, b) => b.have.length - a.have.length)[0];
  const name = best.n.data.name ? quote(String(best.n.data.name), 40) : '(no name)';
  const seen = `${best.n.types[0]} ${name} with ${best.have.length ? best.have.join(', ') : 'no name, url or logo'}.`;
  return graded('organization_schema', best.have.includes('name') ? best.have.length / 3 : 0.2, seen);
}

export function eeatSignals(input: AuditInput): Signal[] {
  return [
    authorByline(input),
    authorSchema(input),
    dates(input),
    freshness(input),
    aboutLink(input),
    organizationSchema(input),
  ];
}
