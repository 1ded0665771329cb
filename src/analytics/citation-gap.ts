// citation-gap: the sources the engines cite when they name a competitor and never when they name
// the brand (docs/api.md section 21; docs/metrics.md "Citation gap"). One ClickHouse query brings
// each answer's named entities (answer_entities) and cited URLs outside the brand's own domains
// (answer_citations) together by answer, each summed with `sign` so a re-imported answer counts
// once; then per domain: the answers citing it that name a competitor (that one, with
// competitor_id) and those that name the brand; the gap is the domains with the first above 0 and
// the second 0, with their totals. A second read fetches the listed URLs' text and title.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { select, unionAll } from '../stores/scoped-query.ts';
import { latestUrlDetails } from './citation-urls.ts';
import { byteOrder, humanOrder } from '../text-order.ts';
import type { Category } from '../tracking/types.ts';

/** URLs listed per gap domain. */
export const TOP_URLS = 3;

/** Citations counted: every domain but the brand's own. */
const NOT_OWN = "category != 'you'";

interface GapRow {
  domain: string;
  category: Category;
  competitor_answers: number;
  /** [competitor ids, answers] */
  by_competitor: [string[], number[]];
  /** [URL hashes as text, answers naming a competitor] */
  by_url: [string[], number[]];
  domain_count: number;
  answer_count: number;
}

function gapQuery(f: Filters, competitorId: string | undefined, limit: number) {
  // (answer, entity) pairs where the entity is named: the brand, and the competitors (or the one asked for).
  const named = select(
    { table: 'answer_entities', scope: f },
    {
      select:
        "answer_id, is_brand, toString(entity_id) AS entity, '' AS cited_domain, '' AS cited_url, '' AS cited_category",
      where: competitorId ? 'is_brand = 1 OR entity_id = {competitor:UUID}' : undefined,
      groupBy: 'answer_id, entity_id, is_brand',
      having: 'sum(sign * (mentions > 0)) > 0',
      params: competitorId ? { competitor: competitorId } : undefined,
    },
  );
  // (answer, URL) pairs still cited, outside the brand's domains; is_brand 2 marks them.
  const cited = select(
    { table: 'answer_citations', scope: f },
    {
      select: `answer_id, toUInt8(2) AS is_brand, '' AS entity, toString(domain) AS cited_domain,
        toString(url_hash) AS cited_url, toString(any(category)) AS cited_category`,
      where: NOT_OWN,
      groupBy: 'answer_id, domain, url_hash',
      having: 'sum(sign) > 0',
    },
  );
  const answers = select(unionAll([named, cited]), {
    select: `answer_id, max(is_brand = 1) AS brand_named, groupArrayIf(entity, is_brand = 0) AS competitors,
      groupArrayIf((cited_domain, cited_url, cited_category), is_brand = 2) AS cites`,
    groupBy: 'answer_id',
    having: 'notEmpty(cites)',
  });
  // One row per (answer, cited domain), with the answer's URLs of that domain.
  const answerDomains = select(answers, {
    select: `arrayJoin(arrayDistinct(arrayMap(c -> (c.1, c.3), cites))) AS dc, dc.1 AS domain, dc.2 AS category,
      answer_id, brand_named, competitors, arrayDistinct(arrayMap(c -> c.2, arrayFilter(c -> c.1 = dc.1, cites))) AS urls`,
  });
  const ones = (list: string) => `arrayMap(x -> toUInt64(1), ${list})`;
  const gap = select(answerDomains, {
    select: `domain, any(category) AS category, countIf(notEmpty(competitors)) AS competitor_answers,
      countIf(brand_named) AS brand_answers,
      sumMapIf(competitors, ${ones('competitors')}, notEmpty(competitors)) AS by_competitor,
      sumMapIf(urls, ${ones('urls')}, notEmpty(competitors)) AS by_url,
      groupArray(answer_id) AS answer_ids`,
    groupBy: 'domain',
    having: 'competitor_answers > 0 AND brand_answers = 0',
  });
  return select(gap, {
    select: `domain, category, competitor_answers, by_competitor, by_url,
      count() OVER () AS domain_count, uniqExactArray(answer_ids) OVER () AS answer_count`,
    orderBy: 'competitor_answers DESC, domain',
    limit: '{limit:UInt32}',
    params: { limit },
  });
}

/** The top URLs of a domain: most answers first, ties by URL; the candidates tied at the cut are all read. */
function candidates(byUrl: [string[], number[]]): { hash: string; answers: number }[] {
  const urls = byUrl[0].map((hash, i) => ({ hash, answers: Number(byUrl[1][i]) }));
  urls.sort((a, b) => b.answers - a.answers);
  const cut = urls[Math.min(TOP_URLS, urls.length) - 1]?.answers ?? 0;
  // Ties at the cut are settled by URL text, known only after the second read; a domain with a
  // long tail of URLs cited once reads at most 20 of them.
  return urls.filter((u) => u.answers >= cut).slice(0, 20);
}

export async function citationGap(
  ch: ClickHouse,
  f: Filters,
  competitors: { id: string; name: string }[],
  opts: { competitorId?: string; limit: number },
) {
  const rows = await ch.rows<GapRow>(gapQuery(f, opts.competitorId, opts.limit));
  const names = new Map(competitors.map((c) => [c.id, c.name]));
  const listed = rows.map((r) => ({ row: r, urls: candidates(r.by_url) }));
  const hashes = listed.flatMap((d) => d.urls);
  const details = await latestUrlDetails(
    ch,
    f,
    NOT_OWN,
    hashes.map((u) => ({ hash: u.hash, total: u.answers, url_count: 0, latest_day: '', titled_day: '' })),
    [],
  );
  return {
    totals: { domains: Number(rows[0]?.domain_count ?? 0), answers: Number(rows[0]?.answer_count ?? 0) },
    domains: listed.map(({ row, urls }) => ({
      domain: row.domain,
      category: row.category,
      competitor_answers: Number(row.competitor_answers),
      competitors: row.by_competitor[0]
        .map((id, i) => ({ competitor_id: id, name: names.get(id), answers: Number(row.by_competitor[1][i]) }))
        // A competitor removed since is gone from the rows once re-analysed; until then it is not listed.
        .filter((c): c is { competitor_id: string; name: string; answers: number } => c.name !== undefined)
        .sort((a, b) => b.answers - a.answers || humanOrder(a.name, b.name)),
      top_urls: urls
        .map((u) => ({ answers: u.answers, info: details.get(u.hash) }))
        .filter((u) => u.info !== undefined)
        .sort((a, b) => b.answers - a.answers || byteOrder(a.info!.url, b.info!.url))
        .slice(0, TOP_URLS)
        .map((u) => ({ url: u.info!.url, title: u.info!.latest_title, answers: u.answers })),
    })),
  };
}
