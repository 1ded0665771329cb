// citation-gap: the sources the engines cite when they name a competitor and never when they name
// the brand (docs/api.md section 21; docs/metrics.md "Citation gap"). "Answers citing a domain" is
// the sum of the first-of-its-domain flags ingestion sets per answer (as in citations.ts), taken
// over the answers that name a competitor and over those that name the brand, each set a scoped
// read of answer_entities the citation rows are matched against (`IN`); every sum is by `sign`,
// so a re-imported answer counts once. Round 1 gives every domain's two counts, and so the gap;
// round 2 the listed domains' competitors (the answers' named competitors joined to their cited
// domains), their URLs and the answers citing any gap domain; round 3 the URLs' text and title.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { select, type ScopedQuery } from '../stores/scoped-query.ts';
import { readTogether } from './read-together.ts';
import { latestUrlDetails } from './citation-urls.ts';
import { byteOrder, humanOrder } from '../text-order.ts';
import type { Category } from '../tracking/types.ts';

/** URLs listed per gap domain. */
export const TOP_URLS = 3;
/** URL candidates read per domain: ties at the third place are settled by URL text, read after. */
const URL_CANDIDATES = 20;

/** Citations counted: every domain but the brand's own. */
const NOT_OWN = "category != 'you'";

/** Which entities a read of named entities keeps: the brand, or the competitors (`competitorId`: that one). */
type Who = { brand: true } | { competitorId?: string };

const whose = (who: Who) => {
  const one = 'competitorId' in who ? who.competitorId : undefined;
  // The brand's entity id is the brand's own: the bound brand, which the sort key then finds at once.
  const where =
    'brand' in who ? 'entity_id = {brand:UUID}' : `is_brand = 0${one ? ' AND entity_id = {competitor:UUID}' : ''}`;
  return { where: `mentions > 0 AND ${where}`, params: one ? { competitor: one } : undefined };
};

/**
 * The answers naming the entity or any of the entities: the net count by `sign` of an answer's
 * named rows is how many of them its live version names (a replaced version's rows cancel).
 */
function namingAnswers(f: Filters, who: Who): ScopedQuery {
  return select(
    { table: 'answer_entities', scope: f },
    { select: 'answer_id', ...whose(who), groupBy: 'answer_id', having: 'sum(sign) > 0' },
  );
}

/** (answer, competitor) pairs where the competitor is named. */
function namedPairs(f: Filters, competitorId?: string): ScopedQuery {
  return select(
    { table: 'answer_entities', scope: f },
    {
      select: 'answer_id, entity_id',
      ...whose({ competitorId }),
      groupBy: 'answer_id, entity_id',
      having: 'sum(sign) > 0',
    },
  );
}

/** Answers citing each domain (outside the brand's) among `answers`. */
const answersByDomain = (f: Filters, answers: ScopedQuery) =>
  select(
    { table: 'answer_citations', scope: f },
    {
      select: 'domain, any(category) AS domain_category, sum(sign * domain_first) AS answers',
      where: NOT_OWN,
      groupBy: 'domain',
      having: 'answers > 0',
      in: { column: 'answer_id', query: answers },
    },
  );

interface DomainRow {
  domain: string;
  domain_category: Category;
  answers: number;
}
/** A domain's URLs that may be among its top 3: those with at least the third most answers. */
function topCandidates(urls: { hash: string; answers: number }[]): { hash: string; answers: number }[] {
  const sorted = [...urls].sort((a, b) => b.answers - a.answers);
  const cut = sorted[Math.min(TOP_URLS, sorted.length) - 1]?.answers ?? 0;
  return sorted.filter((u) => u.answers >= cut);
}

export async function citationGap(
  ch: ClickHouse,
  f: Filters,
  competitors: { id: string; name: string }[],
  opts: { competitorId?: string; limit: number },
) {
  const competitorNaming = namingAnswers(f, { competitorId: opts.competitorId });
  const columns = ['domain', 'domain_category', 'answers'];
  const round1 = await readTogether(ch, {
    competitor: { query: answersByDomain(f, competitorNaming), columns },
    brand: { query: answersByDomain(f, namingAnswers(f, { brand: true })), columns },
  });
  const withBrand = new Set((round1.brand as unknown as DomainRow[]).map((d) => d.domain));
  const gap = (round1.competitor as unknown as DomainRow[])
    .filter((d) => !withBrand.has(d.domain))
    .map((d) => ({ ...d, answers: Number(d.answers) }))
    .sort((a, b) => b.answers - a.answers || byteOrder(a.domain, b.domain));
  const listed = gap.slice(0, opts.limit);
  const domains = { listed: listed.map((d) => d.domain) };

  const citing = (where: string, params: Record<string, unknown>) =>
    select(
      { table: 'answer_citations', scope: f },
      {
        select: 'answer_id, domain',
        where,
        groupBy: 'answer_id, domain',
        having: 'sum(sign * domain_first) > 0',
        params,
      },
    );
  const round2 = await readTogether(ch, {
    total: gap.length
      ? {
          query: select(citing(`${NOT_OWN} AND domain IN {gap:Array(String)}`, { gap: gap.map((d) => d.domain) }), {
            select: 'uniqExact(answer_id) AS answers',
          }),
          columns: ['answers'],
        }
      : null,
    competitors: listed.length
      ? {
          query: select(citing('domain IN {listed:Array(String)}', domains), {
            select: 'domain, toString(entity_id) AS competitor, count() AS answers',
            join: { query: namedPairs(f, opts.competitorId), using: ['answer_id'] },
            groupBy: 'domain, entity_id',
          }),
          columns: ['domain', 'competitor', 'answers'],
        }
      : null,
    urls: listed.length
      ? {
          query: select(
            { table: 'answer_citations', scope: f },
            {
              select: 'domain, toString(url_hash) AS hash, sum(sign) AS answers',
              where: 'domain IN {listed:Array(String)}',
              groupBy: 'domain, url_hash',
              having: 'answers > 0',
              orderBy: 'domain, answers DESC',
              limit: `${URL_CANDIDATES} BY domain`,
              in: { column: 'answer_id', query: competitorNaming },
              params: domains,
            },
          ),
          columns: ['domain', 'hash', 'answers'],
        }
      : null,
  });
  const names = new Map(competitors.map((c) => [c.id, c.name]));
  const byDomain = <T>(rows: Record<string, unknown>[], map: (r: Record<string, unknown>) => T) => {
    const out = new Map<string, T[]>();
    for (const r of rows) out.set(String(r.domain), [...(out.get(String(r.domain)) ?? []), map(r)]);
    return out;
  };
  const competitorsOf = byDomain(round2.competitors, (r) => ({
    competitor_id: String(r.competitor),
    name: names.get(String(r.competitor)),
    answers: Number(r.answers),
  }));
  const urlsOf = byDomain(round2.urls, (r) => ({ hash: String(r.hash), answers: Number(r.answers) }));
  const candidates = listed.flatMap((d) => topCandidates(urlsOf.get(d.domain) ?? []));
  const details = await latestUrlDetails(
    ch,
    f,
    NOT_OWN,
    candidates.map((u) => ({ hash: u.hash, total: u.answers, url_count: 0, latest_day: '', titled_day: '' })),
    [],
  );
  return {
    totals: { domains: gap.length, answers: Number(round2.total[0]?.answers ?? 0) },
    domains: listed.map((d) => ({
      domain: d.domain,
      category: d.domain_category,
      competitor_answers: d.answers,
      competitors: (competitorsOf.get(d.domain) ?? [])
        // A competitor removed since is gone from the rows once re-analysed; until then it is not listed.
        .filter((c): c is { competitor_id: string; name: string; answers: number } => c.name !== undefined)
        .sort((a, b) => b.answers - a.answers || humanOrder(a.name, b.name)),
      top_urls: topCandidates(urlsOf.get(d.domain) ?? [])
        .map((u) => ({ answers: u.answers, info: details.get(u.hash) }))
        .filter((u) => u.info !== undefined)
        .sort((a, b) => b.answers - a.answers || byteOrder(a.info!.url, b.info!.url))
        .slice(0, TOP_URLS)
        .map((u) => ({ url: u.info!.url, title: u.info!.latest_title, answers: u.answers })),
    })),
  };
}
