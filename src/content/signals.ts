// The tracking figures behind opportunities and topic suggestions, per prompt, over a window of
// days. Analytics reads them (one function per figure, brand-scoped, summed with `sign` so a
// re-imported answer counts once); this file gathers them per prompt.
import type { BrandId } from '../stores/scoped-query.ts';
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from '../analytics/filters.ts';
import { toSums } from '../analytics/entity-sums.ts';
import type { EntitySums } from '../analytics/formulas.ts';
import { promptPresence } from '../analytics/prompt-presence.ts';
import { promptEntitySums } from '../analytics/prompt-entity-sums.ts';
import {
  promptCitedPages,
  promptTopDomains,
  promptTopUrls,
  type CitedDomain,
  type CitedUrl,
} from '../analytics/prompt-citations.ts';
import { DAY_MS } from '../instant.ts';

/** Days of tracking data the content jobs look at, ending on the job's date. */
export const WINDOW_DAYS = 30;

export function windowFilters(
  brand: { id: BrandId; analysis_generation: number },
  date: string,
  days = WINDOW_DAYS,
): Filters {
  const to = new Date(`${date}T23:59:59.999Z`);
  const from = new Date(Date.parse(`${date}T00:00:00.000Z`) - (days - 1) * DAY_MS);
  return { brandId: brand.id, generation: brand.analysis_generation, from, to };
}

export interface PromptSignals {
  prompt_id: string;
  /** Answers to the prompt in the window. */
  answers: number;
  /** Answers naming or citing at least one competitor. */
  competitor_answers: number;
  /** Answers naming or citing a competitor but neither naming nor citing the brand. */
  gap_answers: number;
  brand: EntitySums;
  /** Per competitor id: sums over the prompt's answers (only competitors that appeared). */
  competitors: Map<string, EntitySums>;
  /** Answers citing a third-party page (any category but `you` and `competitor`). */
  third_party_answers: number;
  /** Answers citing a competitor's own page. */
  competitor_page_answers: number;
  /** Answers citing the brand's own page. */
  own_page_answers: number;
  domains: CitedDomain[];
  urls: CitedUrl[];
}

const emptySignals = (prompt_id: string): PromptSignals => ({
  prompt_id,
  answers: 0,
  competitor_answers: 0,
  gap_answers: 0,
  brand: toSums(undefined),
  competitors: new Map(),
  third_party_answers: 0,
  competitor_page_answers: 0,
  own_page_answers: 0,
  domains: [],
  urls: [],
});

/** Per prompt with answers in the window: presence, entity sums and what the engines cite. */
export async function promptSignals(
  ch: ClickHouse,
  f: Filters,
  opts: { topDomains?: number; topUrls?: number } = {},
): Promise<Map<string, PromptSignals>> {
  const [presence, sums, cited, domains, urls] = await Promise.all([
    promptPresence(ch, f),
    promptEntitySums(ch, f),
    promptCitedPages(ch, f),
    promptTopDomains(ch, f, opts.topDomains ?? 8),
    promptTopUrls(ch, f, opts.topUrls ?? 6),
  ]);

  const out = new Map<string, PromptSignals>();
  for (const p of presence) {
    if (p.answers <= 0) continue;
    out.set(p.prompt_id, {
      ...emptySignals(p.prompt_id),
      answers: p.answers,
      competitor_answers: p.competitor_answers,
      gap_answers: p.gap_answers,
    });
  }
  for (const s of sums) {
    const sig = out.get(s.prompt_id);
    if (!sig) continue;
    if (s.is_brand) sig.brand = s.sums;
    else sig.competitors.set(s.entity_id, s.sums);
  }
  for (const c of cited) {
    const sig = out.get(c.prompt_id);
    if (!sig) continue;
    sig.third_party_answers = c.third_party;
    sig.competitor_page_answers = c.competitor_pages;
    sig.own_page_answers = c.own_pages;
  }
  for (const { prompt_id, ...d } of domains) out.get(prompt_id)?.domains.push(d);
  for (const { prompt_id, ...u } of urls) out.get(prompt_id)?.urls.push(u);
  return out;
}
