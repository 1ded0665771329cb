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

const ARTICLE_TYPES = ['listicle', 'comparison', 'review', 'how_to', 'news', 'product', 'homepage', 'discussion', 'documentation', 'other'];

export async function citations(ch: ClickHouse, f: Filters, opts: { limit: number; source: SourceFilter }) {
  const w = where(f);
  const scope = `${w.sql} AND ${SOURCE_SQL[opts.source]}`;
  const params = { ...w.params, limit: opts.limit };
  const answersFirst = opts.source === 'all' ? 'answer_first' : 'group_first';
  const answers = entitySource(f, ['is_brand']);

  // Round 1: counts and the top lists. URLs group by their 64-bit hash (a string key costs several
  // times more); the chance of two of a brand's URLs sharing a hash is negligible.
  const [[n], [totals], categories, domains, urls] = await Promise.all([
    ch.rows<{ n: number }>(`SELECT ${answers.m('rows', 'is_brand = 1')} AS n FROM ${answers.table} WHERE ${answers.sql}`, answers.params),
    ch.rows<{ citation_count: number; answer_count: number; cancels: number; url_count: number }>(
      `SELECT sum(sign) AS citation_count, sum(sign * ${answersFirst}) AS answer_count, countIf(sign < 0) AS cancels,
         uniqExact(url_hash) AS url_count
       FROM answer_citations WHERE ${scope}`, params),
    // A domain counts once, in the category of its latest citation.
    ch.rows<{ category: Category; domain_count: number }>(
      `SELECT latest_category AS category, count() AS domain_count FROM (
         SELECT domain, argMaxIf(category, collected_at, sign > 0) AS latest_category
         FROM answer_citations WHERE ${scope} GROUP BY domain HAVING sum(sign) > 0)
       GROUP BY latest_category`, params),
    ch.rows<{ domain: string; total: number; answer_count: number }>(
      `SELECT domain, sum(sign) AS total, sum(sign * domain_first) AS answer_count
       FROM answer_citations WHERE ${scope}
       GROUP BY domain HAVING total > 0 ORDER BY total DESC, domain ASC LIMIT {limit:UInt32}`, params),
    // A URL is cited at most once per answer, so its citations are the answers citing it.
    // Ties at the cut-off are broken by URL text in JS below, so the hash order never decides.
    ch.rows<{ hash: string; total: number }>(
      `SELECT toString(url_hash) AS hash, sum(sign) AS total
       FROM answer_citations WHERE ${scope}
       GROUP BY url_hash HAVING total > 0 ORDER BY total DESC
       LIMIT {limit:UInt32} WITH TIES`, params),
  ]);

  // Round 2: details of the listed domains and URLs only. Aliases never reuse a column name (the
  // WHERE clause would read the alias).
  const typeParts = ARTICLE_TYPES.map((t) => `sumIf(sign, article_type = '${t}') AS part_${t}`).join(', ');
  const typeSums = ARTICLE_TYPES.map((t) => `sum(part_${t}) AS type_${t}`).join(', ');
  const [domainDetails, urlDetails, distinct] = await Promise.all([
    domains.length
      ? ch.rows<Record<string, any> & { domain: string; domain_category: Category; model_counts: [string, number][] }>(
        `SELECT domain, argMax(latest_category, last_at) AS domain_category,
           arrayFilter(x -> x.2 > 0, groupArray((model, model_net))) AS model_counts, ${typeSums}
         FROM (
           SELECT domain, model, sum(sign) AS model_net, argMaxIf(category, collected_at, sign > 0) AS latest_category,
             maxIf(collected_at, sign > 0) AS last_at, ${typeParts}
           FROM answer_citations WHERE ${scope} AND domain IN {domains:Array(String)} GROUP BY domain, model)
         GROUP BY domain`,
        { ...params, domains: domains.map((d) => d.domain) })
      : [],
    urls.length
      ? ch.rows<{ hash: string; url: string; url_domain: string; latest_category: Category; latest_title: string; latest_type: string }>(
        `SELECT toString(url_hash) AS hash, url, any(domain) AS url_domain, argMaxIf(category, collected_at, sign > 0) AS latest_category,
           argMaxIf(title, collected_at, sign > 0 AND title != '') AS latest_title,
           argMaxIf(article_type, collected_at, sign > 0) AS latest_type
         FROM answer_citations WHERE ${scope} AND url_hash IN {hashes:Array(UInt64)} GROUP BY url_hash, url`,
        // As BigInt: the client writes them as bare integers, and they exceed 2^53.
        { ...params, hashes: urls.map((u) => BigInt(u.hash)) })
      : [],
    // A URL whose every citation was replaced away would still count in uniqExact: count exactly
    // only when the range holds replaced rows at all (rare).
    Number(totals?.cancels ?? 0) > 0
      ? ch.rows<{ url_count: number }>(
        `SELECT count() AS url_count FROM (SELECT url_hash FROM answer_citations WHERE ${scope} GROUP BY url_hash HAVING sum(sign) > 0)`, params)
      : Promise.resolve([{ url_count: Number(totals?.url_count ?? 0) }]),
  ]);

  const answerCount = Number(n?.n ?? 0);
  const distinctDomains = categories.reduce((acc, c) => acc + Number(c.domain_count), 0);
  const citationCount = Number(totals?.citation_count ?? 0);
  const domainInfo = new Map(domainDetails.map((d) => [d.domain, d]));
  const urlInfo = new Map(urlDetails.map((u) => [u.hash, u]));
  return {
    totals: {
      domains: distinctDomains,
      urls: Number(distinct[0]?.url_count ?? 0),
      citations: citationCount,
      results_with_citations: Number(totals?.answer_count ?? 0),
      avg_citations_per_result: roundOrNull(answerCount > 0 ? citationCount / answerCount : null, 2),
    },
    source_type_breakdown: categories
      .map((c) => ({ category: c.category, count: Number(c.domain_count), pct: usage(Number(c.domain_count), distinctDomains) }))
      .sort((a, b) => b.count - a.count || CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category)),
    top_domains: domains.map((d) => {
      const info = domainInfo.get(d.domain)!;
      return {
        domain: d.domain,
        category: info.domain_category,
        total_citations: Number(d.total),
        results_citing: Number(d.answer_count),
        usage_pct: usage(Number(d.answer_count), answerCount),
        models: info.model_counts.map(([model]) => model).sort(),
        article_types: ARTICLE_TYPES
          .map((type) => ({ type, count: Number(info[`type_${type}`]) }))
          .filter((t) => t.count > 0)
          .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type))
          .slice(0, 3),
      };
    }),
    // The ties the cut-off let through (WITH TIES) are settled by URL, ascending.
    top_urls: urls
      .map((u) => ({ total: Number(u.total), info: urlInfo.get(u.hash)! }))
      .sort((a, b) => b.total - a.total || (a.info.url < b.info.url ? -1 : a.info.url > b.info.url ? 1 : 0))
      .slice(0, opts.limit)
      .map(({ total, info }) => ({
        url: info.url,
        domain: info.url_domain,
        category: info.latest_category,
        title: info.latest_title,
        total_citations: total,
        results_citing: total,
        usage_pct: usage(total, answerCount),
        article_type: info.latest_type,
      })),
  };
}
