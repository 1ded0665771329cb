// Structure: the page's outline and head (title, headings, description, Open Graph), its
// extractable blocks (lists, tables, image descriptions) and how it links into the site.
import { fail, graded, na, pass, plural, quote, warn, type AuditInput, type Signal } from './types.ts';

function title(input: AuditInput): Signal {
  const t = input.page.title;
  if (!t) return fail('title', 'No <title>.');
  const n = t.length;
  const seen = `Title ${quote(t)} (${n} characters).`;
  if (n >= 10 && n <= 65) return pass('title', seen);
  if (n < 10) return warn('title', 0.5, `${seen} Too short to describe the page.`);
  return warn('title', n <= 90 ? 0.6 : 0.3, `${seen} Longer than 65 characters: it will be cut.`);
}

function singleH1(input: AuditInput): Signal {
  const h1s = input.page.headings.filter((h) => h.level === 1 && h.text);
  if (h1s.length === 1) return pass('single_h1', `One H1: ${quote(h1s[0].text)}.`);
  if (h1s.length === 0) return fail('single_h1', 'No H1 heading with text.');
  return warn(
    'single_h1',
    0.5,
    `${h1s.length} H1 headings: ${h1s
      .slice(0, 3)
      .map((h) => quote(h.text, 40))
      .join(', ')}.`,
  );
}

function headingHierarchy(input: AuditInput): Signal {
  const hs = input.page.headings.filter((h) => h.text);
  if (hs.length === 0) return fail('heading_hierarchy', 'No headings: the content has no outline.');
  const skips: string[] = [];
  for (let i = 1; i < hs.length; i++) {
    if (hs[i].level > hs[i - 1].level + 1)
      skips.push(`H${hs[i - 1].level} -> H${hs[i].level} at ${quote(hs[i].text, 40)}`);
  }
  const count = (l: number) => hs.filter((h) => h.level === l).length;
  const outline = [1, 2, 3, 4]
    .map((l) => (count(l) ? `${count(l)} H${l}` : ''))
    .filter(Boolean)
    .join(', ');
  const long = input.page.mainWords >= 300;
  if (skips.length >= 2)
    return fail('heading_hierarchy', `${outline}; ${skips.length} skipped levels: ${skips.slice(0, 3).join('; ')}.`);
  if (skips.length === 1) return warn('heading_hierarchy', 0.5, `${outline}; one skipped level: ${skips[0]}.`);
  if (long && count(2) < 2)
    return warn('heading_hierarchy', 0.5, `${outline}: fewer than two H2 sections for ${input.page.mainWords} words.`);
  return pass('heading_hierarchy', `${outline}, no skipped levels.`);
}

function metaDescription(input: AuditInput): Signal {
  const d = input.page.meta('description');
  if (!d) return fail('meta_description', 'No meta description.');
  const n = d.length;
  const seen = `Meta description of ${n} characters: ${quote(d, 60)}.`;
  if (n >= 70 && n <= 160) return pass('meta_description', seen);
  if (n < 70) return warn('meta_description', 0.5, `${seen} Shorter than 70 characters.`);
  return warn('meta_description', n <= 300 ? 0.6 : 0.3, `${seen} Longer than 160 characters: it will be cut.`);
}

function openGraph(input: AuditInput): Signal {
  const keys = ['og:title', 'og:description', 'og:image', 'og:url'];
  const present = keys.filter((k) => input.page.meta(k));
  const missing = keys.filter((k) => !present.includes(k));
  const seen = present.length
    ? `Present: ${present.join(', ')}.${missing.length ? ` Missing: ${missing.join(', ')}.` : ''}`
    : 'No Open Graph tags.';
  return graded('open_graph', present.length / keys.length, seen);
}

function listsTables(input: AuditInput): Signal {
  const $ = input.page.$;
  const outsideChrome = (el: Parameters<typeof $>[0]) =>
    $(el).closest('nav,header,footer,[role="navigation"]').length === 0;
  const lists = $('ul,ol')
    .filter((_, el) => outsideChrome(el) && $(el).children('li').length >= 2)
    .toArray();
  const items = lists.reduce((n, el) => n + $(el).children('li').length, 0);
  const tables = $('table')
    .filter((_, el) => outsideChrome(el))
    .toArray();
  const headed = tables.filter((t) => $(t).find('th').length > 0).length;
  const defs = $('dl').filter((_, el) => outsideChrome(el) && $(el).children('dt').length >= 2).length;
  const parts = [
    lists.length ? `${plural(lists.length, 'list')} (${plural(items, 'item')})` : '',
    tables.length ? `${plural(tables.length, 'table')} (${headed} with header cells)` : '',
    defs ? plural(defs, 'definition list') : '',
  ].filter(Boolean);
  if (lists.length || headed || defs) return pass('lists_tables', `${parts.join(', ')} in the content.`);
  if (tables.length)
    return warn('lists_tables', 0.5, `${parts.join(', ')}: tables without <th> header cells are hard to read as data.`);
  return fail('lists_tables', 'No lists or tables in the content (outside navigation and footer).');
}

function altText(input: AuditInput): Signal {
  const imgs = input.page.images.filter((i) => !i.decorative);
  const described = imgs.filter((i) => i.alt !== null && i.alt.trim() !== '');
  const emptyAlt = imgs.filter((i) => i.alt !== null && i.alt.trim() === '').length;
  const missing = imgs.filter((i) => i.alt === null);
  const judged = described.length + missing.length;
  if (judged === 0) {
    return na(
      'alt_text',
      imgs.length ? `${plural(imgs.length, 'image')}, all marked decorative (alt="").` : 'No images.',
    );
  }
  const ratio = described.length / judged;
  const seen = `${described.length} of ${plural(judged, 'image')} have alt text${
    emptyAlt ? ` (${emptyAlt} more marked decorative)` : ''
  }${
    missing.length
      ? `; missing on ${missing
          .slice(0, 3)
          .map((i) => i.src || '(no src)')
          .join(', ')}`
      : ''
  }.`;
  return ratio >= 0.9 ? pass('alt_text', seen) : graded('alt_text', ratio, seen);
}

function semanticHtml(input: AuditInput): Signal {
  const $ = input.page.$;
  const landmarks = ['main', 'header', 'nav', 'footer'].filter((t) => $(t).length > 0);
  if ($('article, section').length) landmarks.push('article/section');
  const seen = landmarks.length
    ? `Landmarks used: ${landmarks.map((l) => `<${l}>`).join(', ')}.`
    : 'No semantic landmarks (main, header, nav, footer, article, section).';
  return landmarks.length >= 4
    ? pass('semantic_html', seen)
    : landmarks.length <= 1
      ? fail('semantic_html', seen)
      : warn('semantic_html', landmarks.length / 5, seen);
}

function internalLinks(input: AuditInput): Signal {
  const targets = new Set(input.page.links.filter((l) => l.internal).map((l) => `${l.url!.pathname}${l.url!.search}`));
  const n = targets.size;
  const seen = `${plural(n, 'distinct internal link target')}${
    n ? ` (e.g. ${[...targets].slice(0, 3).join(', ')})` : ''
  }.`;
  return n >= 3
    ? pass('internal_links', seen)
    : n === 0
      ? fail('internal_links', seen)
      : warn('internal_links', n / 3, seen);
}

export function structureSignals(input: AuditInput): Signal[] {
  return [
    title(input),
    singleH1(input),
    headingHierarchy(input),
    metaDescription(input),
    openGraph(input),
    listsTables(input),
    altText(input),
    semanticHtml(input),
    internalLinks(input),
  ];
}
