// Authority: is the content backed by evidence (authoritative sources, references, figures,
// attributed quotations) and tied to a known entity (sameAs profiles)?
import { classifyExternal } from '../../tracking/analysis/classify.ts';
import { hostToDomain } from '../../tracking/analysis/urls.ts';
import { nodesOf } from '../page.ts';
import { ORGANIZATION_TYPES } from './schema.ts';
import { fail, graded, na, pass, plural, quote, warn, type AuditInput, type Signal } from './types.ts';

function authoritativeSources(input: AuditInput): Signal {
  const { page } = input;
  if (page.kind === 'home') return na('authoritative_sources', 'A home page is not expected to cite sources.');
  const external = page.links.filter((l) => l.external && l.inMain);
  const domains = new Map<string, string>();
  for (const l of external) {
    const d = hostToDomain(l.url!.hostname);
    const c = classifyExternal(d);
    if (c === 'institutional' || c === 'editorial') domains.set(d, c);
  }
  const list = [...domains.keys()];
  const seen =
    `${plural(list.length, 'authoritative source')} linked from the content` +
    `${list.length ? ` (${list.slice(0, 5).join(', ')})` : ''}, of ${plural(external.length, 'external link')}.`;
  return list.length >= 2
    ? pass('authoritative_sources', seen)
    : list.length === 1
      ? warn('authoritative_sources', 0.5, seen)
      : fail('authoritative_sources', seen);
}

function citationDensity(input: AuditInput): Signal {
  const { page } = input;
  if (page.kind === 'home') return na('citation_density', 'A home page is not expected to cite sources.');
  const $ = page.$;
  const refs = new Set(page.links.filter((l) => l.external && l.inMain).map((l) => l.url!.href));
  const cites = $('cite, blockquote[cite], q[cite]').length;
  const footnotes = $('sup a[href^="#"], a[role="doc-noteref"], a[href^="#fn"], a[href^="#cite"]').length;
  const total = refs.size + cites + footnotes;
  const target = Math.max(2, Math.round(page.mainWords / 300));
  const seen =
    `${plural(total, 'reference')} (${refs.size} external links, ${cites} <cite>/cite=, ` +
    `${plural(footnotes, 'footnote')}) for ${page.mainWords} words; target ${target}.`;
  return graded('citation_density', Math.min(1, total / target), seen);
}

// The units a measured figure can carry.
const UNITS = [
  'ms|seconds|minutes|hours|days|weeks|months|years',
  'kg|km|mb|gb|tb',
  'users|customers|people|respondents|companies|countries',
].join('|');

// Figures a reader can check: percentages, amounts, scaled and grouped numbers, decimals with units.
const FIGURES = [
  /\b\d+(?:[.,]\d+)?\s?(?:%|percent\b|per cent\b)/gi,
  /[$€£¥₹]\s?\d[\d,.]*(?:\s?(?:k|m|bn|million|billion|trillion)\b)?/gi,
  /\b\d+(?:[.,]\d+)?\s?(?:million|billion|trillion|thousand)\b/gi,
  /\b\d{1,3}(?:,\d{3})+(?:\.\d+)?\b/g,
  /\b\d+(?:\.\d+)?\s?(?:x|times)\b/gi,
  new RegExp(`\\b\\d+(?:\\.\\d+)?\\s?(?:${UNITS})\\b`, 'gi'),
];

/** Distinct figures in a text (overlapping matches of several patterns count once). */
export function figures(text: string): string[] {
  const spans: [number, number, string][] = [];
  for (const re of FIGURES) {
    for (const m of text.matchAll(re)) {
      const start = m.index!;
      const end = start + m[0].length;
      if (!spans.some(([s, e]) => start < e && end > s)) spans.push([start, end, m[0].trim()]);
    }
  }
  return spans.sort((a, b) => a[0] - b[0]).map((s) => s[2]);
}

function statistics(input: AuditInput): Signal {
  const { page } = input;
  const found = figures(page.mainText);
  const target = Math.max(2, Math.round(page.mainWords / 300));
  const seen = `${plural(found.length, 'figure')} in ${page.mainWords} words (target ${target})${
    found.length
      ? `, e.g. ${found
          .slice(0, 4)
          .map((f) => `"${f}"`)
          .join(', ')}`
      : ''
  }.`;
  return graded('statistics', Math.min(1, found.length / target), seen);
}

function quotations(input: AuditInput): Signal {
  const { page } = input;
  const $ = page.$;
  const quotes = $('blockquote, q')
    .filter((_, el) => $(el).parents('blockquote').length === 0)
    .toArray();
  if (!quotes.length) {
    return page.kind === 'home' || page.kind === 'product'
      ? na('quotations', `No quotations (optional on a ${page.kind} page).`)
      : warn('quotations', 0.25, 'No quotations (<blockquote> or <q>) from experts or sources.');
  }
  const attributed = quotes.filter((el) => {
    const q = $(el);
    return (
      Boolean(q.attr('cite')) ||
      q.find('cite, footer').length > 0 ||
      q.closest('figure').find('figcaption').length > 0 ||
      /(?:^|\s)[—–-]\s*[A-Z][\w.'’-]+/.test(q.text().trim().split('\n').pop() ?? '')
    );
  });
  const seen =
    `${attributed.length} of ${plural(quotes.length, 'quotation')} attributed` +
    `${quotes.length ? ` (e.g. ${quote($(quotes[0]).text(), 60)})` : ''}.`;
  return attributed.length ? pass('quotations', seen) : warn('quotations', 0.5, seen);
}

const hostOf = (u: string) => {
  try {
    return new URL(u).hostname;
  } catch {
    return u;
  }
};

function sameAs(input: AuditInput): Signal {
  const entities = nodesOf(input.page, [...ORGANIZATION_TYPES, 'Person', 'Brand']);
  if (!entities.length)
    return fail('same_as', 'No Organization or Person in the structured data to attach sameAs profiles to.');
  const profiles = new Set(
    entities
      .flatMap((n) => [n.data.sameAs].flat())
      .filter((u): u is string => typeof u === 'string' && /^https?:\/\//i.test(u)),
  );
  const seen =
    `${plural(profiles.size, 'sameAs profile')} on ${entities.map((n) => n.types[0]).join(', ')}` +
    `${profiles.size ? ` (${[...new Set([...profiles].map(hostOf))].slice(0, 3).join(', ')})` : ''}.`;
  return profiles.size >= 2
    ? pass('same_as', seen)
    : profiles.size === 1
      ? warn('same_as', 0.5, seen)
      : fail('same_as', seen);
}

export function authoritySignals(input: AuditInput): Signal[] {
  return [authoritativeSources(input), citationDensity(input), statistics(input), quotations(input), sameAs(input)];
}
