// The tracking figures behind opportunities and topic suggestions, per prompt, read from ClickHouse
// over a window of days. Every query starts from analytics' where() (brand-scoped, bound
// parameters) and sums with `sign`, so a re-imported answer counts once.
import type { ClickHouse } from '../stores/clickhouse.ts';
import { where, type Filters } from '../analytics/filters.ts';
import { SUMS_SQL, toSums, type SumsRow } from '../analytics/entity-sums.ts';
import type { EntitySums } from '../analytics/formulas.ts';
import type { Category } from '../tracking/types.ts';

/** Days of tracking data the content jobs look at, ending on the job's date. */
export const WINDOW_DAYS = 30;

export function windowFilters(brandId: string, date: string, days = WINDOW_DAYS): Filters {
  const to = new Date(`${date}T23:59:59.999Z`);
  const from = new Date(Date.parse(`${date}T00:00:00.000Z`) - (days - 1) * 86_400_000);
  return { brandId, from, to };
}

export interface CitedUrl { url: string; domain: string; category: Category; title: string; article_type: string; answers: number }
export interface CitedDomain { domain: string; category: Category; answers: number }

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
  prompt_id, answers: 0, competitor_answers: 0, gap_answers: 0,
  brand: toSums(undefined), competitors: new Map(),
  third_party_answers: 0, competitor_page_answers: 0, own_page_answers: 0, domains: [], urls: [],
});

/** Per prompt with answers in the window: presence, entity sums and what the engines cite. */
export async function promptSignals(ch: ClickHouse, f: Filters, opts: { topDomains?: number; topUrls?: number } = {}): Promise<Map<string, PromptSignals>> {
  const w = where(f);
  const params = { ...w.params, topDomains: opts.topDomains ?? 8, topUrls: opts.topUrls ?? 6 };
  // One row per cited URL of a live answer (net sign > 0), as the citations figure reads them.
  const live = `SELECT answer_id, prompt_id, url, domain, category, article_type, title
    FROM answer_citations WHERE ${w.sql}
    GROUP BY answer_id, prompt_id, url, domain, category, article_type, title HAVING sum(sign) > 0`;
  const [presence, sums, cited, domains, urls] = await Promise.all([
    ch.rows<{ prompt_id: string; answers: number; competitor_answers: number; gap_answers: number }>(
      `SELECT prompt_id, count() AS answers, countIf(rivals > 0) AS competitor_answers,
         countIf(rivals > 0 AND seen = 0) AS gap_answers
       FROM (
         SELECT prompt_id, answer_id,
           sumIf(sign, is_brand = 1) AS brand_rows,
           sumIf(sign, is_brand = 1 AND (mentions > 0 OR citations > 0)) AS seen,
           sumIf(sign, is_brand = 0 AND (mentions > 0 OR citations > 0)) AS rivals
         FROM answer_entities WHERE ${w.sql}
         GROUP BY prompt_id, answer_id HAVING brand_rows > 0)
       GROUP BY prompt_id`, w.params),
    ch.rows<SumsRow & { prompt_id: string; entity_id: string; is_brand: number }>(
      `SELECT prompt_id, entity_id, is_brand, ${SUMS_SQL} FROM answer_entities WHERE ${w.sql}
       GROUP BY prompt_id, entity_id, is_brand`, w.params),
    ch.rows<{ prompt_id: string; third: number; rival_pages: number; own_pages: number }>(
      `SELECT prompt_id,
         uniqExactIf(answer_id, category NOT IN ('you', 'competitor')) AS third,
         uniqExactIf(answer_id, category = 'competitor') AS rival_pages,
         uniqExactIf(answer_id, category = 'you') AS own_pages
       FROM (${live}) GROUP BY prompt_id`, params),
    ch.rows<{ prompt_id: string } & CitedDomain>(
      `SELECT prompt_id, domain, any(category) AS category, uniqExact(answer_id) AS answers
       FROM (${live}) GROUP BY prompt_id, domain
       ORDER BY prompt_id, answers DESC, domain LIMIT {topDomains:UInt32} BY prompt_id`, params),
    ch.rows<{ prompt_id: string } & CitedUrl>(
      `SELECT prompt_id, url, any(domain) AS domain, any(category) AS category,
         argMax(title, title != '') AS title, any(article_type) AS article_type, uniqExact(answer_id) AS answers
       FROM (${live}) GROUP BY prompt_id, url
       ORDER BY prompt_id, answers DESC, url LIMIT {topUrls:UInt32} BY prompt_id`, params),
  ]);

  const out = new Map<string, PromptSignals>();
  for (const p of presence) {
    if (Number(p.answers) <= 0) continue;
    out.set(p.prompt_id, { ...emptySignals(p.prompt_id), answers: Number(p.answers),
      competitor_answers: Number(p.competitor_answers), gap_answers: Number(p.gap_answers) });
  }
  for (const s of sums) {
    const sig = out.get(s.prompt_id);
    if (!sig || Number(s.rows) <= 0) continue;
    if (s.is_brand === 1) sig.brand = toSums(s);
    else sig.competitors.set(s.entity_id, toSums(s));
  }
  for (const c of cited) {
    const sig = out.get(c.prompt_id);
    if (!sig) continue;
    sig.third_party_answers = Number(c.third);
    sig.competitor_page_answers = Number(c.rival_pages);
    sig.own_page_answers = Number(c.own_pages);
  }
  for (const d of domains) out.get(d.prompt_id)?.domains.push({ domain: d.domain, category: d.category, answers: Number(d.answers) });
  for (const u of urls) {
    out.get(u.prompt_id)?.urls.push({ url: u.url, domain: u.domain, category: u.category, title: u.title, article_type: u.article_type, answers: Number(u.answers) });
  }
  return out;
}
