// What the engines cite for each prompt with answers in range: how many answers cite third-party,
// competitor and own pages, and the most cited domains and URLs. All three read the live citation
// rows (net sign > 0, so a replaced answer's dropped citations are gone), one row per cited URL
// of an answer, as the citations figure counts them.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import type { Category } from '../tracking/types.ts';
import { select, type ScopedQuery } from '../stores/scoped-query.ts';

export interface CitedDomain {
  domain: string;
  category: Category;
  answers: number;
}
export interface CitedUrl {
  url: string;
  domain: string;
  category: Category;
  title: string;
  article_type: string;
  answers: number;
}

/** Answers citing a third-party page (any category but `you` and `competitor`), a competitor's, the brand's. */
export interface PromptCitedPages {
  prompt_id: string;
  third_party: number;
  competitor_pages: number;
  own_pages: number;
}

const liveCitations = (f: Filters): ScopedQuery =>
  select(
    { table: 'answer_citations', scope: f },
    {
      select: 'answer_id, prompt_id, url, domain, category, article_type, title',
      groupBy: 'answer_id, prompt_id, url, domain, category, article_type, title',
      having: 'sum(sign) > 0',
    },
  );

export async function promptCitedPages(ch: ClickHouse, f: Filters): Promise<PromptCitedPages[]> {
  const rows = await ch.rows<{ prompt_id: string; third: number; rival_pages: number; own_pages: number }>(
    select(liveCitations(f), {
      select: `prompt_id,
         uniqExactIf(answer_id, category NOT IN ('you', 'competitor')) AS third,
         uniqExactIf(answer_id, category = 'competitor') AS rival_pages,
         uniqExactIf(answer_id, category = 'you') AS own_pages`,
      groupBy: 'prompt_id',
    }),
  );
  return rows.map((r) => ({
    prompt_id: r.prompt_id,
    third_party: Number(r.third),
    competitor_pages: Number(r.rival_pages),
    own_pages: Number(r.own_pages),
  }));
}

/** Per prompt, its `top` most cited domains: most citing answers first, then by domain. */
export async function promptTopDomains(
  ch: ClickHouse,
  f: Filters,
  top: number,
): Promise<({ prompt_id: string } & CitedDomain)[]> {
  const rows = await ch.rows<{ prompt_id: string } & CitedDomain>(
    select(liveCitations(f), {
      select: 'prompt_id, domain, any(category) AS category, uniqExact(answer_id) AS answers',
      groupBy: 'prompt_id, domain',
      orderBy: 'prompt_id, answers DESC, domain',
      limit: '{topDomains:UInt32} BY prompt_id',
      params: { topDomains: top },
    }),
  );
  return rows.map((r) => ({
    prompt_id: r.prompt_id,
    domain: r.domain,
    category: r.category,
    answers: Number(r.answers),
  }));
}

/** Per prompt, its `top` most cited URLs: most citing answers first, then by URL; a titled citation names it. */
export async function promptTopUrls(
  ch: ClickHouse,
  f: Filters,
  top: number,
): Promise<({ prompt_id: string } & CitedUrl)[]> {
  const rows = await ch.rows<{ prompt_id: string } & CitedUrl>(
    select(liveCitations(f), {
      select: `prompt_id, url, any(domain) AS domain, any(category) AS category,
         argMax(title, title != '') AS title, any(article_type) AS article_type, uniqExact(answer_id) AS answers`,
      groupBy: 'prompt_id, url',
      orderBy: 'prompt_id, answers DESC, url',
      limit: '{topUrls:UInt32} BY prompt_id',
      params: { topUrls: top },
    }),
  );
  return rows.map((r) => ({
    prompt_id: r.prompt_id,
    url: r.url,
    domain: r.domain,
    category: r.category,
    title: r.title,
    article_type: r.article_type,
    answers: Number(r.answers),
  }));
}
