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
const ARTICLE_TYPES = ['listicle', 'comparison', 'review', 'how_to', 'news', 'product', 'homepage', 'discussion', 'documentation', 'other'];

const usage = (part: number, n: number) => (n > 0 ? round((100 * part) / n, 1) : 0);
/** Byte order, as ClickHouse sorts strings. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function citations(ch: ClickHouse, f: Filters, opts: { limit: number; source: SourceFilter }) {
  const w = where(f);
  const scope = `${w.sql} AND ${SOURCE_SQL[opts.source]}`;
  const params = { ...w.params, limit: opts.limit };
  // The answer's first citation overall, or its first of the filtered source group.
  const answersFirst = opts.source === 'all' ? 'answer_first' : 'group_first';
  const answers = entitySource(f, ['is_brand']);

  // Round 1, one scan per key: every domain of the range (a brand cites thousands, not millions:
  // totals, the category breakdown and the top list all follow from them), and the top URLs.
  // URLs group by their stored 64-bit hash; two of a brand's URLs sharing one is negligible.
  const [[n], allDomains, urls] = await Promise.all([
    ch.rows<{ n: number }>(`SELECT ${answers.m('rows', 'is_brand = 1')} AS n FROM ${answers.table} WHERE ${answers.sql}`, answers.params),
    // Aliases never reuse a column name (the WHERE clause would read the alias).
    ch.rows<{ domain: string; latest_category: Category; total: number; answer_count: number; first_count: number }>(
      `SELECT domain, argMaxIf(category, collected_at, sign > 0) AS latest_category, sum(sign) AS total,
         sum(sign * domain_first) AS answer_count, sum(sign * ${answersFirst}) AS first_count
       FROM answer_citations WHERE ${scope} GROUP BY domain`, params),
    // A URL is cited at most once per answer, so its citations are the answers citing it. The
    // window counts the URLs left after HAVING; ties at the cut-off are settled by URL below.
    ch.rows<{ hash: string; total: number; url_count: number }>(
      `SELECT toString(url_hash) AS hash, sum(sign) AS total, count() OVER () AS url_count
       FROM answer_citations WHERE ${scope}
       GROUP BY url_hash HAVING total > 0 ORDER BY total DESC
       LIMIT {limit:UInt32} WITH TIES`, params),
  ]);
  const domainRows = allDomains
    .map((d) => ({ ...d, total: Number(d.total), answer_count: Number(d.answer_count), first_count: Number(d.first_count) }))
    .filter((d) => d.total > 0);
  const domains = [...domainRows].sort((a, b) => b.total - a.total || byText(a.domain, b.domain)).slice(0, opts.limit);

  // Round 2: details of the listed domains and URLs only.
  const typeParts = ARTICLE_TYPES.map((t) => `sumIf(sign, article_type = '${t}') AS part_${t}`).join(', ');
  const typeSums = ARTICLE_TYPES.map((t) => `sum(part_${t}) AS type_${t}`).join(', ');
  const [domainDetails, urlDetails] = await Promise.all([
    domains.length
      ? ch.rows<Record<string, any> & { domain: string; model_counts: [string, number][] }>(
        `SELECT domain, arrayFilter(x -> x.2 > 0, groupArray((model, model_net))) AS model_counts, ${typeSums}
         FROM (
           SELECT domain, model, sum(sign) AS model_net, ${typeParts}
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
  ]);

  const answerCount = Number(n?.n ?? 0);
  const citationCount = domainRows.reduce((acc, d) => acc + d.total, 0);
  const categoryCounts = new Map<Category, number>();
  for (const d of domainRows) categoryCounts.set(d.latest_category, (categoryCounts.get(d.latest_category) ?? 0) + 1);
  const domainInfo = new Map(domainDetails.map((d) => [d.domain, d]));
  const urlInfo = new Map(urlDetails.map((u) => [u.hash, u]));
  return {
    totals: {
      domains: domainRows.length,
      urls: Number(urls[0]?.url_count ?? 0),
      citations: citationCount,
      results_with_citations: domainRows.reduce((acc, d) => acc + d.first_count, 0),
      avg_citations_per_result: roundOrNull(answerCount > 0 ? citationCount / answerCount : null, 2),
    },
    source_type_breakdown: [...categoryCounts.entries()]
      .map(([category, count]) => ({ category, count, pct: usage(count, domainRows.length) }))
      .sort((a, b) => b.count - a.count || CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category)),
    top_domains: domains.map((d) => {
      const info = domainInfo.get(d.domain)!;
      return {
        domain: d.domain,
        category: d.latest_category,
        total_citations: d.total,
        results_citing: d.answer_count,
        usage_pct: usage(d.answer_count, answerCount),
        models: info.model_counts.map(([model]) => model).sort(byText),
        article_types: ARTICLE_TYPES
          .map((type) => ({ type, count: Number(info[`type_${type}`]) }))
          .filter((t) => t.count > 0)
          .sort((a, b) => b.count - a.count || byText(a.type, b.type))
          .slice(0, 3),
      };
    }),
    top_urls: urls
      .map((u) => ({ total: Number(u.total), info: urlInfo.get(u.hash)! }))
      .sort((a, b) => b.total - a.total || byText(a.info.url, b.info.url))
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
