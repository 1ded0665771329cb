// citations: what the engines cite for the brand's prompts — totals, source types, top domains and
// URLs. Every figure is read from the live citation rows (net sign > 0) of the range.
import type { ClickHouse } from '../stores/clickhouse.ts';
import { where, type Filters } from './filters.ts';
import { round, roundOrNull } from './formulas.ts';
import type { Category } from '../tracking/types.ts';

export type SourceFilter = 'all' | 'owned' | 'competitor' | 'external';

const SOURCE_SQL: Record<SourceFilter, string> = {
  all: '1',
  owned: "category = 'you'",
  competitor: "category = 'competitor'",
  external: "category NOT IN ('you', 'competitor')",
};

const CATEGORY_ORDER = ['you', 'competitor', 'editorial', 'forum', 'social', 'review', 'institutional', 'other'];

const usage = (part: number, n: number) => (n > 0 ? round((100 * part) / n, 1) : 0);

/** Up to three article types of a domain, most cited first. */
function topTypes([types, counts]: [string[], number[]]) {
  return types
    .map((type, i) => ({ type, count: Number(counts[i]) }))
    .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type))
    .slice(0, 3);
}

export async function citations(ch: ClickHouse, f: Filters, opts: { limit: number; source: SourceFilter }) {
  const w = where(f);
  const params = { ...w.params, limit: opts.limit };
  // One row per cited URL of an answer in range, as stored by its latest import.
  const live = `SELECT answer_id, url, domain, category, article_type, title, model, collected_at
    FROM answer_citations WHERE ${w.sql} AND ${SOURCE_SQL[opts.source]}
    GROUP BY answer_id, url, domain, category, article_type, title, model, collected_at HAVING sum(sign) > 0`;

  const [[answers], [totals], categories, domains, urls] = await Promise.all([
    ch.rows<{ n: number }>(`SELECT sum(sign) AS n FROM answer_entities WHERE ${w.sql} AND entity_id = {brand:UUID}`, w.params),
    ch.rows<{ citations: number; domains: number; urls: number; answers: number }>(
      `SELECT count() AS citations, uniqExact(domain) AS domains, uniqExact(url) AS urls, uniqExact(answer_id) AS answers
       FROM (${live})`, params),
    // A domain counts once, in the category of its latest citation.
    ch.rows<{ category: Category; domains: number }>(
      `SELECT category, count() AS domains
       FROM (SELECT domain, argMax(category, collected_at) AS category FROM (${live}) GROUP BY domain)
       GROUP BY category`, params),
    ch.rows<{ domain: string; category: Category; total_citations: number; results_citing: number; models: string[]; types: [string[], number[]] }>(
      `SELECT domain, argMax(category, collected_at) AS category, count() AS total_citations,
         uniqExact(answer_id) AS results_citing, arraySort(groupUniqArray(model)) AS models,
         sumMap([article_type], [toUInt64(1)]) AS types
       FROM (${live}) GROUP BY domain
       ORDER BY total_citations DESC, domain ASC LIMIT {limit:UInt32}`, params),
    ch.rows<{ url: string; domain: string; category: Category; title: string; total_citations: number; results_citing: number; article_type: string }>(
      `SELECT url, any(domain) AS domain, argMax(category, collected_at) AS category,
         argMax(title, (title != '', collected_at)) AS title, count() AS total_citations,
         uniqExact(answer_id) AS results_citing, argMax(article_type, collected_at) AS article_type
       FROM (${live}) GROUP BY url
       ORDER BY total_citations DESC, url ASC LIMIT {limit:UInt32}`, params),
  ]);

  const n = Number(answers?.n ?? 0);
  const distinctDomains = Number(totals?.domains ?? 0);
  return {
    totals: {
      domains: distinctDomains,
      urls: Number(totals?.urls ?? 0),
      citations: Number(totals?.citations ?? 0),
      results_with_citations: Number(totals?.answers ?? 0),
      avg_citations_per_result: roundOrNull(n > 0 ? Number(totals?.citations ?? 0) / n : null, 2),
    },
    source_type_breakdown: categories
      .map((c) => ({ category: c.category, count: Number(c.domains), pct: usage(Number(c.domains), distinctDomains) }))
      .sort((a, b) => b.count - a.count || CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category)),
    top_domains: domains.map((d) => ({
      domain: d.domain,
      category: d.category,
      total_citations: Number(d.total_citations),
      results_citing: Number(d.results_citing),
      usage_pct: usage(Number(d.results_citing), n),
      models: d.models,
      article_types: topTypes(d.types),
    })),
    top_urls: urls.map((u) => ({
      url: u.url,
      domain: u.domain,
      category: u.category,
      title: u.title,
      total_citations: Number(u.total_citations),
      results_citing: Number(u.results_citing),
      usage_pct: usage(Number(u.results_citing), n),
      article_type: u.article_type,
    })),
  };
}
