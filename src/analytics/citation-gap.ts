// citation-gap: the sources of the gap answers, those naming a competitor and not the brand (docs/api.md
// section 24, which replaced section 21's "never cited beside the brand": every large source is).
// "Answers citing a domain" is the sum of the first-of-its-domain flags ingestion sets per answer (as
// in citations.ts), taken over the citation rows of gap answers and over those of answers naming the brand:
// each citation row carries whom its answer names (`names_brand`, `named_competitors`, derived with
// the rest of the analysis: clickhouse/021), so every read is of answer_citations alone. Every sum
// is by `sign`, so a re-imported answer counts once (its cancelled rows carry what they carried).
// Round 1 gives every domain's two counts, and the answers in range and the gap answers (from
// answer_entities: who each answer names); round 2 the listed domains' competitors (each row's named
// competitors) and their URLs; round 3 the URLs' text and title.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { select } from '../stores/scoped-query.ts';
import { readTogether } from './read-together.ts';
import { latestUrlDetails } from './citation-urls.ts';
import { byteOrder, humanOrder } from '../text-order.ts';
import { round } from './formulas.ts';
import type { Category } from '../tracking/types.ts';

/** URLs listed per gap domain. */
export const TOP_URLS = 3;
/** URL candidates read per domain: ties at the third place are settled by URL text, read after. */
const URL_CANDIDATES = 20;

/** Citations counted: every domain but the brand's own. */
const NOT_OWN = "category != 'you'";

/** The citation rows of gap answers: naming a competitor (`competitorId`: that one) and not the brand. */
const gapRows = (competitorId?: string) =>
  competitorId
    ? {
        condition: 'names_brand = 0 AND has(named_competitors, {competitor:UUID})',
        params: { competitor: competitorId },
      }
    : { condition: 'names_brand = 0 AND notEmpty(named_competitors)', params: {} };

/** Per domain (outside the brand's): gap answers citing it and answers naming the brand citing it. */
const gapDomains = (f: Filters, gap: ReturnType<typeof gapRows>) =>
  select(
    { table: 'answer_citations', scope: f },
    {
      select: `domain, anyIf(category, ${gap.condition}) AS domain_category,
        sumIf(sign * domain_first, ${gap.condition}) AS answers,
        sumIf(sign * domain_first, names_brand = 1) AS brand_answers`,
      where: NOT_OWN,
      groupBy: 'domain',
      having: 'answers > 0',
      params: gap.params,
    },
  );

/** The answers in range and the gap answers among them, citing or not: who each answer names. */
const answerCounts = (f: Filters, competitorId?: string) => {
  const named = competitorId ? 'is_brand = 0 AND entity_id = {competitor:UUID}' : 'is_brand = 0';
  const perAnswer = select(
    { table: 'answer_entities', scope: f },
    {
      select: `answer_id, sumIf(sign * (mentions > 0), is_brand = 1) AS brand_named,
        sumIf(sign * (mentions > 0), ${named}) AS competitors_named, sumIf(sign, is_brand = 1) AS present`,
      groupBy: 'answer_id',
      having: 'present > 0',
      params: competitorId ? { competitor: competitorId } : {},
    },
  );
  return select(perAnswer, {
    select: 'count() AS answers, countIf(brand_named <= 0 AND competitors_named > 0) AS gap_answers',
  });
};

interface DomainRow {
  domain: string;
  domain_category: Category;
  answers: number;
  brand_answers: number;
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
  const competitor = gapRows(opts.competitorId);
  const round1 = await readTogether(ch, {
    domains: {
      query: gapDomains(f, competitor),
      columns: ['domain', 'domain_category', 'answers', 'brand_answers'],
    },
    counts: { query: answerCounts(f, opts.competitorId), columns: ['answers', 'gap_answers'] },
  });
  const gap = (round1.domains as unknown as DomainRow[])
    .map((d) => ({
      domain: d.domain,
      domain_category: d.domain_category,
      answers: Number(d.answers),
      brand_answers: Math.max(0, Number(d.brand_answers)),
    }))
    .sort((a, b) => b.answers - a.answers || byteOrder(a.domain, b.domain));
  const listed = gap.slice(0, opts.limit);
  const domains = { listed: listed.map((d) => d.domain) };

  const round2 = await readTogether(ch, {
    competitors: listed.length
      ? {
          query: select(
            { table: 'answer_citations', scope: f },
            {
              // One row per (citation, competitor its answer names): each answer citing the domain
              // counts once per competitor it names, by its first citation of the domain.
              select:
                'domain, toString(arrayJoin(named_competitors) AS named) AS competitor, sum(sign * ' +
                'domain_first) AS answers',
              where: `domain IN {listed:Array(String)} AND ${competitor.condition}`,
              groupBy: 'domain, named',
              having: `answers > 0${opts.competitorId ? ' AND named = {competitor:UUID}' : ''}`,
              params: { ...domains, ...competitor.params },
            },
          ),
          columns: ['domain', 'competitor', 'answers'],
        }
      : null,
    urls: listed.length
      ? {
          query: select(
            { table: 'answer_citations', scope: f },
            {
              select: 'domain, toString(url_hash) AS hash, sum(sign) AS answers',
              where: `domain IN {listed:Array(String)} AND ${competitor.condition}`,
              groupBy: 'domain, url_hash',
              having: 'answers > 0',
              orderBy: 'domain, answers DESC',
              limit: `${URL_CANDIDATES} BY domain`,
              params: { ...domains, ...competitor.params },
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
    totals: {
      answers: Number(round1.counts[0]?.answers ?? 0),
      gap_answers: Number(round1.counts[0]?.gap_answers ?? 0),
      domains: gap.length,
    },
    domains: listed.map((d) => ({
      domain: d.domain,
      category: d.domain_category,
      gap_answers: d.answers,
      brand_answers: d.brand_answers,
      gap_share: round((100 * d.answers) / (d.answers + d.brand_answers), 1),
      competitors: (competitorsOf.get(d.domain) ?? [])
        // A competitor removed since is gone from the rows once re-analysed; until then it is not listed.
        .filter((c): c is { competitor_id: string; name: string; answers: number } => c.name !== undefined)
        .sort((a, b) => b.answers - a.answers || humanOrder(a.name, b.name)),
      top_urls: topCandidates(urlsOf.get(d.domain) ?? [])
        .map((u) => ({ answers: u.answers, info: details.get(u.hash) }))
        .filter((u) => u.info !== undefined)
        .sort((a, b) => b.answers - a.answers || byteOrder(a.info!.url, b.info!.url))
        .slice(0, TOP_URLS)
        .map((u) => ({ url: u.info!.url, title: u.info!.latest_title, gap_answers: u.answers })),
    })),
  };
}
