// citations: what the engines cite for the brand's prompts — totals, source types, top domains and
// URLs. Everything is a sign-weighted sum over answer_citations (a replaced answer's cancel rows
// subtract it), read for whole months from its monthly rollups (citation-source.ts); "answers
// citing X" sums the first-of-its-kind flags ingestion sets per answer, and a domain or URL exists
// when its net count is positive.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { entitySource } from './entity-source.ts';
import { citationSource } from './citation-source.ts';
import { latestUrlDetails, urlDetailsRead, type TopUrl } from './citation-urls.ts';
import { readTogether } from './read-together.ts';
import { byteOrder } from '../text-order.ts';
import { round, roundOrNull } from './formulas.ts';
import { select } from '../stores/scoped-query.ts';
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

/** `raw` reads answer_citations alone, never the monthly rollups (tests compare both). */
export async function citations(
  ch: ClickHouse,
  f: Filters,
  opts: { limit: number; source: SourceFilter; raw?: boolean },
) {
  const scope = SOURCE_SQL[opts.source];
  // The answer's first citation overall, or its first of the filtered source group.
  const answersFirst = opts.source === 'all' ? 'answer_firsts' : 'group_firsts';
  const answersFirstRaw = opts.source === 'all' ? 'answer_first' : 'group_first';
  const answers = entitySource(f, ['is_brand']);
  const paths = { raw: opts.raw };

  // Two rounds, each one query (read-together.ts). Round 1: every domain of the range (a brand
  // cites thousands, not millions: totals, the category breakdown and the top list follow from
  // them), and the top URLs. URLs group by a 64-bit hash of
  // the URL; two of a brand's URLs sharing one is negligible.
  const domainSource = citationSource(
    f,
    ['citation_domains_monthly', 'citation_domain_models_monthly'],
    {
      columns: {
        domain: ['domain', 'domain'],
        category: ['category', 'category'],
        c: ['citation_sum', 'sign'],
        df: ['domain_firsts', 'sign * domain_first'],
        ff: [answersFirst, `sign * ${answersFirstRaw}`],
        at: ['latest_at', "if(sign > 0, collected_at, toDateTime64(0, 3, 'UTC'))"],
      },
      condition: scope,
    },
    paths,
  );
  const urlSource = citationSource(
    f,
    ['citation_urls_monthly'],
    {
      columns: {
        url_hash: ['url_hash', 'url_hash'],
        c: ['citation_sum', 'sign'],
        d: ['latest_day', 'if(sign > 0, day, toDate(0))'],
        td: ['titled_day', "if(sign > 0 AND title != '', day, toDate(0))"],
      },
      condition: scope,
    },
    paths,
  );
  // Per (domain, category) first: a domain's category is the one of its newest row among those
  // still live (a category whose rows were all replaced drops out).
  const domainCategories = select(domainSource, {
    select: 'domain, category, sum(c) AS net, sum(df) AS dnet, sum(ff) AS fnet, max(at) AS newest',
    groupBy: 'domain, category',
  });
  // The window counts the URLs left after HAVING; ties at the cut-off are settled by URL below.
  // Each URL also brings the newest day with a live (or replaced) and a titled citation, where
  // its details are read. Hashes become text after the cut (past 2^53 a JSON number loses digits).
  const topUrls = select(urlSource, {
    select: 'url_hash AS h, sum(c) AS total, max(d) AS latest_day, max(td) AS titled_day, count() OVER () AS url_count',
    groupBy: 'url_hash',
    having: 'total > 0',
    orderBy: 'total DESC',
    limit: '{limit:UInt32} WITH TIES',
    params: { limit: opts.limit },
  });
  const round1 = await readTogether(ch, {
    n: { query: select(answers, { select: `${answers.m('rows', 'is_brand = 1')} AS n` }), columns: ['n'] },
    domains: {
      query: select(domainCategories, {
        select: `domain, argMaxIf(category, newest, net > 0) AS latest_category, sum(net) AS total,
         sum(dnet) AS answer_count, sum(fnet) AS first_count`,
        groupBy: 'domain',
      }),
      columns: ['domain', 'latest_category', 'total', 'answer_count', 'first_count'],
    },
    urls: {
      query: select(topUrls, { select: 'toString(h) AS hash, total, latest_day, titled_day, url_count' }),
      columns: ['hash', 'total', 'latest_day', 'titled_day', 'url_count'],
    },
  });
  const n = round1.n[0] as { n: number } | undefined;
  const allDomains = round1.domains as {
    domain: string;
    latest_category: Category;
    total: number;
    answer_count: number;
    first_count: number;
  }[];
  const urls = round1.urls as unknown as TopUrl[];
  const domainRows = allDomains
    .map((d) => ({
      ...d,
      total: Number(d.total),
      answer_count: Number(d.answer_count),
      first_count: Number(d.first_count),
    }))
    .filter((d) => d.total > 0);
  const domains = [...domainRows]
    .sort((a, b) => b.total - a.total || byteOrder(a.domain, b.domain))
    .slice(0, opts.limit);

  // Round 2: models and article types of the listed domains (its models: those whose net count for
  // it is positive), and the latest details of the listed URLs.
  const listed = { domains: domains.map((d) => d.domain) };
  const modelSource = citationSource(
    f,
    ['citation_domain_models_monthly'],
    {
      columns: { domain: ['domain', 'domain'], model: ['model', 'model'], c: ['citation_sum', 'sign'] },
      condition: `${scope} AND domain IN {domains:Array(String)}`,
    },
    paths,
  );
  const typeSource = citationSource(
    f,
    ['citation_urls_monthly'],
    {
      columns: {
        domain: ['domain', 'domain'],
        article_type: ['article_type', 'article_type'],
        c: ['citation_sum', 'sign'],
      },
      condition: `${scope} AND domain IN {domains:Array(String)}`,
    },
    paths,
  );
  const round2 = await readTogether(ch, {
    models: domains.length
      ? {
          query: select(
            select(modelSource, { select: 'domain, model, sum(c) AS net', groupBy: 'domain, model', params: listed }),
            { select: 'domain, groupArrayIf(model, net > 0) AS models', groupBy: 'domain' },
          ),
          columns: ['domain', 'models'],
        }
      : null,
    types: domains.length
      ? {
          query: select(typeSource, {
            select: 'domain, article_type, sum(c) AS count',
            groupBy: 'domain, article_type',
            having: 'count > 0',
            params: listed,
          }),
          columns: ['domain', 'article_type', 'count'],
        }
      : null,
    details: urlDetailsRead(f, scope, urls),
  });
  const modelLists = round2.models as { domain: string; models: string[] }[];
  const typeCounts = round2.types as { domain: string; article_type: string; count: number }[];
  const urlInfo = await latestUrlDetails(ch, f, scope, urls, round2.details);

  const answerCount = Number(n?.n ?? 0);
  const citationCount = domainRows.reduce((acc, d) => acc + d.total, 0);
  const categoryCounts = new Map<Category, number>();
  for (const d of domainRows) categoryCounts.set(d.latest_category, (categoryCounts.get(d.latest_category) ?? 0) + 1);
  const modelsOf = new Map(modelLists.map((m) => [m.domain, m.models]));
  const typesOf = new Map<string, { type: string; count: number }[]>();
  for (const t of typeCounts) {
    const list = typesOf.get(t.domain) ?? [];
    list.push({ type: t.article_type, count: Number(t.count) });
    typesOf.set(t.domain, list);
  }
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
    top_domains: domains.map((d) => ({
      domain: d.domain,
      category: d.latest_category,
      total_citations: d.total,
      results_citing: d.answer_count,
      usage_pct: usage(d.answer_count, answerCount),
      models: [...(modelsOf.get(d.domain) ?? [])].sort(byteOrder),
      article_types: (typesOf.get(d.domain) ?? [])
        .sort((a, b) => b.count - a.count || byteOrder(a.type, b.type))
        .slice(0, 3),
    })),
    top_urls: urls
      .map((u) => ({ total: Number(u.total), info: urlInfo.get(u.hash)! }))
      .sort((a, b) => b.total - a.total || byteOrder(a.info.url, b.info.url))
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
