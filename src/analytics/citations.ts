// citations: what the engines cite for the brand's prompts — totals, source types, top domains and
// URLs. Everything is a sign-weighted sum over answer_citations (a replaced answer's cancel rows
// subtract it); "answers citing X" sums the first-of-its-kind flags ingestion sets per answer, and
// a domain or URL exists when its net count is positive.
import type { ClickHouse } from '../stores/clickhouse.ts';
import { where, type Filters } from './filters.ts';
import { entitySource } from './entity-source.ts';
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

/** Keys of a sumMap whose net value is positive, with the values. */
const positive = ([keys, values]: [string[], number[]]) =>
  keys.map((key, i) => ({ key, value: Number(values[i]) })).filter((e) => e.value > 0);

export async function citations(ch: ClickHouse, f: Filters, opts: { limit: number; source: SourceFilter }) {
  const w = where(f);
  const scope = `${w.sql} AND ${SOURCE_SQL[opts.source]}`;
  const params = { ...w.params, limit: opts.limit };
  const answersFirst = opts.source === 'all' ? 'answer_first' : 'group_first';
  const answers = entitySource(f);

  const [[n], [totals], categories, domains, urls] = await Promise.all([
    ch.rows<{ n: number }>(`SELECT ${answers.m('rows', 'is_brand = 1')} AS n FROM ${answers.table} WHERE ${answers.sql}`, answers.params),
    ch.rows<{ citation_count: number; answer_count: number }>(
      `SELECT sum(sign) AS citation_count, sum(sign * ${answersFirst}) AS answer_count FROM answer_citations WHERE ${scope}`, params),
    // A domain counts once, in the category of its latest citation.
    ch.rows<{ category: Category; domain_count: number }>(
      `SELECT latest_category AS category, count() AS domain_count FROM (
         SELECT domain, argMaxIf(category, collected_at, sign > 0) AS latest_category
         FROM answer_citations WHERE ${scope} GROUP BY domain HAVING sum(sign) > 0)
       GROUP BY latest_category`, params),
    // Aliases never reuse a column name: the WHERE clause would read the alias.
    ch.rows<{ domain: string; latest_category: Category; total: number; answer_count: number; models: [string[], number[]]; types: [string[], number[]] }>(
      `SELECT domain, argMaxIf(category, collected_at, sign > 0) AS latest_category, sum(sign) AS total,
         sum(sign * domain_first) AS answer_count,
         sumMap([toString(model)], [toInt64(sign)]) AS models, sumMap([toString(article_type)], [toInt64(sign)]) AS types
       FROM answer_citations WHERE ${scope}
       GROUP BY domain HAVING total > 0 ORDER BY total DESC, domain ASC LIMIT {limit:UInt32}`, params),
    // A URL is cited at most once per answer, so its citations are the answers citing it.
    ch.rows<{ url: string; url_domain: string; latest_category: Category; latest_title: string; total: number; latest_type: string; url_count: number }>(
      `SELECT url, any(domain) AS url_domain, argMaxIf(category, collected_at, sign > 0) AS latest_category,
         argMaxIf(title, (title != '', collected_at), sign > 0) AS latest_title, sum(sign) AS total,
         argMaxIf(article_type, collected_at, sign > 0) AS latest_type, count() OVER () AS url_count
       FROM answer_citations WHERE ${scope}
       GROUP BY url HAVING total > 0 ORDER BY total DESC, url ASC LIMIT {limit:UInt32}`, params),
  ]);

  const answerCount = Number(n?.n ?? 0);
  const distinctDomains = categories.reduce((acc, c) => acc + Number(c.domain_count), 0);
  const citationCount = Number(totals?.citation_count ?? 0);
  return {
    totals: {
      domains: distinctDomains,
      urls: Number(urls[0]?.url_count ?? 0),
      citations: citationCount,
      results_with_citations: Number(totals?.answer_count ?? 0),
      avg_citations_per_result: roundOrNull(answerCount > 0 ? citationCount / answerCount : null, 2),
    },
    source_type_breakdown: categories
      .map((c) => ({ category: c.category, count: Number(c.domain_count), pct: usage(Number(c.domain_count), distinctDomains) }))
      .sort((a, b) => b.count - a.count || CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category)),
    top_domains: domains.map((d) => ({
      domain: d.domain,
      category: d.latest_category,
      total_citations: Number(d.total),
      results_citing: Number(d.answer_count),
      usage_pct: usage(Number(d.answer_count), answerCount),
      models: positive(d.models).map((m) => m.key).sort(),
      article_types: positive(d.types)
        .sort((a, b) => b.value - a.value || a.key.localeCompare(b.key))
        .slice(0, 3)
        .map((t) => ({ type: t.key, count: t.value })),
    })),
    top_urls: urls.map((u) => ({
      url: u.url,
      domain: u.url_domain,
      category: u.latest_category,
      title: u.latest_title,
      total_citations: Number(u.total),
      results_citing: Number(u.total),
      usage_pct: usage(Number(u.total), answerCount),
      article_type: u.latest_type,
    })),
  };
}
