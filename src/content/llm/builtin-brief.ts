// The built-in brief: deterministic, written only from the tracking facts (facts.ts). The outline
// comes from plan(), which the built-in draft reads again to write each section.
import { andList, capitalize } from '../keywords.ts';
import type { Brief } from '../schemas.ts';
import type { GenerationInput } from './generator-types.ts';
import { clip, factsOf, topicTitle, type Facts } from './facts.ts';
import { humanOrder } from '../../text-order.ts';

export interface Section {
  key: string;
  heading: string;
  covers: string;
}

/** An outline line is "Heading — what the section covers". */
export const OUTLINE_SEPARATOR = ' — ';

const optionNames = (f: Facts) => [f.brand, ...f.rivals.slice(0, 4).map((r) => r.name)];

/** The sections of the piece, in order. */
export function plan(f: Facts): Section[] {
  const names = optionNames(f);
  const sections: Section[] = [
    {
      key: 'answer',
      heading: 'The short answer',
      covers: `Answer "${f.prompt}" in two or three sentences, naming ${f.brand} and the situations it fits best, before any detail.`,
    },
    {
      key: 'criteria',
      heading: 'What to look for',
      covers: `The criteria that decide the choice for ${f.subject}: fit for the use case, total cost, time to set up, integrations, support and independent evidence.`,
    },
  ];
  if (f.contentType === 'how_to') {
    sections.push({
      key: 'steps',
      heading: 'Step by step',
      covers: `The steps to ${f.subject}, each with what to do and where ${f.brand} helps.`,
    });
  }
  if (f.contentType !== 'faq') {
    sections.push({
      key: `option:${f.brand}`,
      heading: `${f.brand}`,
      covers: `What ${f.brand} offers for ${f.subject}, with concrete, sourced facts: pricing model, standout capabilities, limits and who it suits.`,
    });
  }
  if (f.contentType === 'listicle' || f.contentType === 'comparison' || f.contentType === 'review') {
    for (const r of f.rivals.slice(0, 4)) {
      sections.push({
        key: `option:${r.name}`,
        heading: r.name,
        covers: `${r.name} is named in ${r.named} of ${f.answers} tracked answers to this question; describe it fairly: strengths, limits and who it suits.`,
      });
    }
    if (names.length > 1) {
      sections.push({
        key: 'table',
        heading: 'Side-by-side comparison',
        covers: `${andList(names)} in one table, on the criteria above.`,
      });
    }
  }
  if (f.pages.length || f.sources.length) {
    const where = andList(f.sources.slice(0, 3).map((s) => s.domain));
    sections.push({
      key: 'sources',
      heading: 'What independent sources say',
      covers: `Summarise and link the third-party pages engines cite for this question${where ? ` (${where})` : ''}.`,
    });
  }
  sections.push(
    {
      key: 'faq',
      heading: 'Frequently asked questions',
      covers: 'Short answers to the questions readers ask next, marked up as FAQPage.',
    },
    { key: 'next', heading: 'Next step', covers: callToAction(f) },
  );
  return sections;
}

export function suggestedTitle(f: Facts): string {
  const names = optionNames(f);
  const topic = topicTitle(f);
  switch (f.contentType) {
    case 'listicle':
      return clip(names.length > 1 ? `${topic}: ${andList(names)} compared` : `${topic}: the options compared`, 200);
    case 'comparison':
      return clip(`${names.slice(0, 3).join(' vs ')}: ${f.core}`, 200);
    case 'how_to':
      return clip(`${capitalize(f.prompt.replace(/[?!.]+$/, ''))}: a step-by-step guide`, 200);
    case 'review':
      return clip(`${topic}: an honest review of ${andList(names)}`, 200);
    case 'faq':
      return clip(`${topic}: answers to the common questions`, 200);
    default:
      return clip(`${topic}: what to know before you choose`, 200);
  }
}

export function callToAction(f: Facts): string {
  const site = f.domain ? ` on ${f.domain}` : '';
  if (f.type === 'earned') {
    const editors = f.sources.length
      ? `the editors of ${andList(f.sources.slice(0, 3).map((s) => s.domain))}`
      : 'the publications that cover this question';
    const rivals = f.rivals.length ? ` alongside ${andList(f.rivals.slice(0, 3).map((r) => r.name))}` : '';
    return `Offer this piece, or the facts behind it, to ${editors} and ask for ${f.brand} to be included${rivals}, with a link to ${f.domain ?? `${f.brand}'s site`}.`;
  }
  return `Invite readers who need ${f.subject} to try ${f.brand} for themselves${site}: a free trial, demo or pricing page, linked from the comparison and from the closing paragraph.`;
}

const ARTICLE_LABEL: Record<string, string> = {
  listicle: 'list articles',
  comparison: 'comparisons',
  review: 'reviews',
  how_to: 'how-to guides',
  news: 'news articles',
  product: 'product pages',
  homepage: 'home pages',
  discussion: 'discussions',
  documentation: 'documentation',
  other: 'other pages',
};

export function competitorInsights(f: Facts): string {
  const parts: string[] = [];
  parts.push(
    `Over the last 30 days, ${f.answers} AI answers were tracked for "${f.prompt}"; ${f.gapAnswers} of them name or cite a competitor and not ${f.brand}.`,
  );
  if (f.rivals.length) {
    parts.push(
      `${f.rivals.map((r) => `${r.name} is named in ${r.named} and cited in ${r.cited} (visibility score ${r.visibility_score})`).join('; ')}.`,
    );
  }
  parts.push(`${f.brand} is named in ${f.brandNamed} and cited in ${f.brandCited} (visibility score ${f.brandScore}).`);
  if (f.sources.length) {
    parts.push(
      `The third-party sources engines cite most are ${andList(f.sources.slice(0, 4).map((s) => `${s.domain} (${s.category}, ${s.answers} answers)`))}.`,
    );
  }
  if (f.competitorPages.length) {
    parts.push(
      `Competitors' own pages cited: ${andList(f.competitorPages.slice(0, 3).map((p) => (p.title ? `"${p.title}" (${p.domain})` : p.url)))}.`,
    );
  }
  const types = new Map<string, number>();
  for (const p of [...f.pages, ...f.competitorPages])
    types.set(p.article_type, (types.get(p.article_type) ?? 0) + p.answers);
  const top = [...types]
    .sort((a, b) => b[1] - a[1] || humanOrder(a[0], b[0]))
    .slice(0, 2)
    .map(([t]) => ARTICLE_LABEL[t] ?? t);
  if (top.length)
    parts.push(
      `The cited pages are mostly ${andList(top)}, so a ${f.contentType.replace('_', '-')} piece matches what engines already use.`,
    );
  return parts.join(' ');
}

const WORDS: Record<Brief['contentType'], number> = {
  listicle: 1400,
  comparison: 1400,
  how_to: 1300,
  review: 1200,
  guide: 1400,
  faq: 1000,
};

export function builtinBrief(input: GenerationInput): Brief {
  const f = factsOf(input);
  const sections = plan(f);
  const options = sections.filter((s) => s.key.startsWith('option:')).length;
  return {
    suggestedTitle: suggestedTitle(f),
    contentType: f.contentType,
    // About 150 words per option beyond the first two.
    targetWordCount: WORDS[f.contentType] + 150 * Math.max(0, options - 2),
    outline: sections.map((s) => clip(`${s.heading}${OUTLINE_SEPARATOR}${s.covers}`, 300)),
    targetKeywords: f.keywords.length ? f.keywords : [clip(f.subject, 80)],
    competitorInsights: clip(competitorInsights(f), 4000),
    callToAction: clip(callToAction(f), 1000),
  };
}
