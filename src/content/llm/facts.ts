// The facts a brief or draft may rest on, read from a GenerationInput: what the prompt asks, who the
// engines name instead of the brand, which sources they cite, and the keywords. The built-in
// generator writes only from these; the LLM provider hands the same facts to the model.
import {
  acronyms,
  capitalize,
  corePhrase,
  isContentWord,
  isStopword,
  promptKeywords,
  withAcronyms,
  words,
} from '../keywords.ts';
import type { ContentType } from '../schemas.ts';
import type { GenerationInput } from './generator-types.ts';
import { humanOrder } from '../../text-order.ts';

export interface Rival {
  name: string;
  named: number;
  cited: number;
  visibility_score: number;
}
export interface Source {
  domain: string;
  category: string;
  answers: number;
}
export interface Page {
  url: string;
  domain: string;
  category: string;
  title: string;
  article_type: string;
  answers: number;
}

export interface Facts {
  prompt: string;
  /** "best crm for startups" from "What is the best CRM for startups?" */
  core: string;
  /** The core without leading qualifiers, for prose: "CRM for startups". */
  subject: string;
  brand: string;
  domain: string | null;
  type: 'owned' | 'earned';
  answers: number;
  gapAnswers: number;
  brandNamed: number;
  brandCited: number;
  brandScore: number;
  rivals: Rival[];
  /** Third-party domains (not the brand's, not a competitor's), most cited first. */
  sources: Source[];
  /** Third-party pages, most cited first. */
  pages: Page[];
  competitorPages: Page[];
  keywords: string[];
  contentType: ContentType;
}

const TYPE_BY_ARTICLE: Record<string, ContentType> = {
  listicle: 'listicle',
  comparison: 'comparison',
  how_to: 'how_to',
  review: 'review',
};

/** From the prompt's words first, then from what the engines cite most. */
export function contentTypeOf(prompt: string, pages: Page[]): ContentType {
  const ws = words(prompt);
  const has = (...xs: string[]) => ws.some((w) => xs.includes(w));
  if (has('vs', 'versus', 'compare', 'comparison', 'alternative', 'alternatives', 'difference')) return 'comparison';
  if (ws[0] === 'how' || has('steps', 'tutorial', 'setup')) return 'how_to';
  if (has('best', 'top', 'which', 'recommend', 'options')) return 'listicle';
  if (has('review', 'reviews', 'worth')) return 'review';
  const counts = new Map<ContentType, number>();
  for (const p of pages) {
    const t = TYPE_BY_ARTICLE[p.article_type];
    if (t) counts.set(t, (counts.get(t) ?? 0) + p.answers);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1] || humanOrder(a[0], b[0]))[0];
  return top ? top[0] : ws[0] === 'what' || ws[0] === 'why' ? 'faq' : 'guide';
}

/** Drops leading words that only qualify ("best", "top", "cheapest"), keeping at least one word. */
export function subjectOf(core: string): string {
  const ws = core.split(' ');
  let i = 0;
  while (i < ws.length - 1 && !isContentWord(ws[i].toLowerCase()) && !isStopword(ws[i].toLowerCase())) i++;
  return ws.slice(i).join(' ');
}

export function factsOf(input: GenerationInput): Facts {
  const sd = input.opportunity.source_data ?? {};
  const prompt = input.opportunity.prompt_text.trim();
  const allPages: Page[] = (sd.citations?.top_urls ?? []) as Page[];
  const pages = allPages.filter((p) => p.category !== 'you' && p.category !== 'competitor');
  // Clipped: the core is quoted in titles and sentences, and a prompt may be 2000 characters long.
  const core = clip(
    withAcronyms(corePhrase(prompt) || prompt.toLowerCase(), acronyms([prompt, ...allPages.map((p) => p.title)])),
    100,
  );
  const volumeKeywords = [
    ...(input.volumes?.google_volumes ?? []).map((g) => g.keyword),
    ...(input.volumes?.keywords ?? []),
  ];
  return {
    prompt,
    core,
    subject: subjectOf(core),
    brand: input.brand.name,
    domain: input.brand.domains[0] ?? null,
    type: input.opportunity.type,
    answers: Number(sd.answers ?? 0),
    gapAnswers: Number(sd.gap_answers ?? 0),
    brandNamed: Number(sd.brand?.named ?? 0),
    brandCited: Number(sd.brand?.cited ?? 0),
    brandScore: Number(sd.brand?.visibility_score ?? 0),
    rivals: ((sd.competitors ?? []) as Rival[]).slice(0, 5),
    sources: ((sd.citations?.top_domains ?? []) as Source[]).filter(
      (d) => d.category !== 'you' && d.category !== 'competitor',
    ),
    pages,
    competitorPages: allPages.filter((p) => p.category === 'competitor'),
    // Longer than a search box takes is not a keyword.
    keywords: [...new Set([...volumeKeywords, ...promptKeywords(prompt)])].filter((k) => k.length <= 80).slice(0, 8),
    contentType: contentTypeOf(prompt, allPages),
  };
}

export const topicTitle = (f: Facts) => capitalize(f.core);

/** Cuts at a word boundary to at most `max` characters. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max + 1);
  const at = cut.lastIndexOf(' ');
  return (at > max * 0.6 ? cut.slice(0, at) : s.slice(0, max)).replace(/[\s,;:.-]+$/, '');
}
