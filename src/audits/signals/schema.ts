// biome-ignore-all lint/suspicious/noExplicitAny: JSON-LD as found on pages, read field by field and checked where used
// Structure, part 2: schema.org structured data in JSON-LD (presence, validity, a type that fits
// the page), FAQ markup and breadcrumbs.
import { ARTICLE_TYPES, nodesOf, type JsonLdNode, type Page } from '../page.ts';
import { fail, graded, na, pass, plural, warn, type AuditInput, type Signal } from './types.ts';

export const ORGANIZATION_TYPES = [
  'Organization',
  'Corporation',
  'LocalBusiness',
  'OnlineStore',
  'OnlineBusiness',
  'NGO',
  'EducationalOrganization',
  'GovernmentOrganization',
  'NewsMediaOrganization',
  'MedicalOrganization',
  'ProfessionalService',
  'Store',
];

const typesOf = (nodes: JsonLdNode[]) => [...new Set(nodes.flatMap((n) => n.types))];
const has = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

function present(page: Page): Signal {
  const { blocks, nodes } = page.jsonLd;
  if (blocks.length) {
    const types = typesOf(nodes);
    return pass(
      'json_ld_present',
      `${plural(blocks.length, 'JSON-LD block')}${types.length ? `: ${types.slice(0, 8).join(', ')}` : ''}.`,
    );
  }
  const microdata = page.$('[itemscope][itemtype]').length;
  if (microdata)
    return warn(
      'json_ld_present',
      0.5,
      `No JSON-LD; ${plural(microdata, 'microdata item')} (itemscope) instead, which fewer consumers read.`,
    );
  return fail('json_ld_present', 'No structured data (no application/ld+json script, no microdata).');
}

function valid(page: Page): Signal {
  const { blocks } = page.jsonLd;
  if (!blocks.length) return na('json_ld_valid', 'No JSON-LD to validate.');
  const problems: string[] = [];
  let good = 0;
  blocks.forEach((b, i) => {
    if (!b.ok) {
      problems.push(`block ${i + 1} is not valid JSON (${b.error})`);
      return;
    }
    const top = Array.isArray(b.value) ? b.value : [b.value];
    const items = top.flatMap((v: any) =>
      v && typeof v === 'object' && Array.isArray(v['@graph'])
        ? v['@graph'].map((g: any) => ({ ...g, '@context': g['@context'] ?? v['@context'] }))
        : [v],
    );
    let ok = true;
    for (const item of items) {
      if (!item || typeof item !== 'object') {
        ok = false;
        problems.push(`block ${i + 1} holds a non-object`);
        continue;
      }
      if (
        !JSON.stringify(item['@context'] ?? '')
          .toLowerCase()
          .includes('schema.org')
      ) {
        ok = false;
        problems.push(`block ${i + 1} has no schema.org @context`);
      }
      if (item['@type'] === undefined) {
        ok = false;
        problems.push(`block ${i + 1} has a node without @type`);
      }
    }
    if (ok) good++;
  });
  const seen = problems.length
    ? `${good} of ${plural(blocks.length, 'block')} valid: ${[...new Set(problems)].slice(0, 3).join('; ')}.`
    : `All ${plural(blocks.length, 'JSON-LD block')} parse, with schema.org @context and @type.`;
  return graded('json_ld_valid', good / blocks.length, seen);
}

/** Which key properties each expected type should carry. */
const EXPECTED: Record<string, { types: string[]; props: string[][]; label: string }> = {
  article: {
    types: ARTICLE_TYPES,
    props: [['headline', 'name'], ['author'], ['datePublished'], ['image']],
    label: 'Article',
  },
  product: {
    types: ['Product', 'ProductGroup'],
    props: [['name'], ['offers', 'aggregateRating', 'review'], ['image'], ['description']],
    label: 'Product',
  },
  home: {
    types: [...ORGANIZATION_TYPES, 'WebSite'],
    props: [['name'], ['url'], ['logo', 'potentialAction']],
    label: 'Organization or WebSite',
  },
};

function typeFit(page: Page): Signal {
  const { nodes } = page.jsonLd;
  if (!nodes.length) return na('json_ld_type_fit', 'No JSON-LD nodes to check.');
  const found = typesOf(nodes);
  const expected = EXPECTED[page.kind];
  if (!expected) {
    return pass('json_ld_type_fit', `Generic page; JSON-LD describes it as ${found.slice(0, 5).join(', ')}.`);
  }
  const matches = nodesOf(page, expected.types);
  if (!matches.length) {
    return fail(
      'json_ld_type_fit',
      `This looks like a ${page.kind} page, but the JSON-LD has no ${expected.label} (found: ` +
        `${found.slice(0, 5).join(', ')}).`,
    );
  }
  // The best-filled node of the expected type counts.
  const scored = matches
    .map((n) => {
      const missing = expected.props
        .filter((alts) => !alts.some((p) => has(n.data[p])))
        .map((alts) => alts.join(' or '));
      return { n, missing };
    })
    .sort((a, b) => a.missing.length - b.missing.length)[0];
  const score = 0.5 + (0.5 * (expected.props.length - scored.missing.length)) / expected.props.length;
  const label = scored.n.types.join('/');
  const seen = scored.missing.length
    ? `${label} fits this ${page.kind} page but lacks ${scored.missing.join(', ')}.`
    : `${label} fits this ${page.kind} page, with ${expected.props.map((p) => p[0]).join(', ')}.`;
  return graded('json_ld_type_fit', score, seen);
}

/** Visible question-and-answer pairs: question headings, <summary> or <dt> ending in "?". */
export function visibleQuestions(page: Page): string[] {
  const $ = page.$;
  return $('h2,h3,h4,summary,dt')
    .toArray()
    .map((el) => $(el).text().replace(/\s+/g, ' ').trim())
    .filter((t) => t.endsWith('?'));
}

function faqMarkup(page: Page): Signal {
  const questions = visibleQuestions(page);
  const faqNodes = nodesOf(page, ['FAQPage', 'QAPage']);
  const marked = faqNodes
    .flatMap((n) => [n.data.mainEntity].flat())
    .filter((q: any) => q && has(q.name) && has(q.acceptedAnswer ?? q.suggestedAnswer));
  if (questions.length < 2 && !faqNodes.length)
    return na(
      'faq_markup',
      questions.length ? 'One question on the page; no FAQ section.' : 'No question-and-answer content on the page.',
    );
  if (faqNodes.length && questions.length === 0) {
    return warn(
      'faq_markup',
      0.5,
      `FAQPage markup with ${plural(marked.length, 'question')}, but no visible questions on the page: markup ` +
        `must match visible content.`,
    );
  }
  if (marked.length >= 2)
    return pass(
      'faq_markup',
      `${plural(questions.length, 'visible question')}; FAQPage JSON-LD marks up ` +
        `${plural(marked.length, 'question')} with answers.`,
    );
  if (faqNodes.length)
    return warn(
      'faq_markup',
      0.5,
      `${plural(questions.length, 'visible question')}; FAQPage JSON-LD present but only ` +
        `${plural(marked.length, 'complete question')} (name and acceptedAnswer).`,
    );
  const native = page.$('details > summary, dl > dt').length;
  if (native >= 2)
    return warn(
      'faq_markup',
      0.4,
      `${plural(questions.length, 'visible question')} in <details>/<dl> markup but no FAQPage JSON-LD.`,
    );
  return fail(
    'faq_markup',
    `${plural(questions.length, 'question')} on the page (e.g. "${questions[0]}") without FAQ markup.`,
  );
}

function breadcrumbs(page: Page): Signal {
  if (page.kind === 'home') return na('breadcrumbs', 'The home page needs no breadcrumb trail.');
  const lists = nodesOf(page, ['BreadcrumbList']);
  const items = Math.max(0, ...lists.map((n) => [n.data.itemListElement].flat().filter(Boolean).length));
  if (lists.length && items >= 2) return pass('breadcrumbs', `BreadcrumbList JSON-LD with ${items} items.`);
  const visible = page.$(
    'nav[aria-label*="breadcrumb" i], [class*="breadcrumb" i], [itemtype*="BreadcrumbList" i]',
  ).length;
  if (lists.length) return warn('breadcrumbs', 0.5, `BreadcrumbList JSON-LD with only ${plural(items, 'item')}.`);
  if (visible) return warn('breadcrumbs', 0.5, 'A visible breadcrumb trail, but no BreadcrumbList JSON-LD.');
  return fail('breadcrumbs', 'No breadcrumb trail (neither visible nor BreadcrumbList JSON-LD).');
}

export function schemaSignals(input: AuditInput): Signal[] {
  const { page } = input;
  return [present(page), valid(page), typeFit(page), faqMarkup(page), breadcrumbs(page)];
}
