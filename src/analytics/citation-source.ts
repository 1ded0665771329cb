// Where citation figures are read from. The whole calendar months of a range come from the monthly
// rollups (clickhouse/004_citation_monthly.sql), every other day of it (the edges, or all of it)
// from answer_citations; both hold the same sign-weighted sums, so the figures are identical
// whichever part answers. A rollup answers only if it keeps the columns the filters name: a topic
// filter reads answer_citations alone (no rollup has the prompt), a model or region filter the
// rollup that keeps model and region, or answer_citations for URL figures; a source filter reads
// answer_citations (no rollup keeps the source).
import type { Filters } from './filters.ts';
import { edgeDays, spanScope, wholeMonths, wholeQuarters } from './month-span.ts';
import { select, unionAll, type ScopedQuery } from '../stores/scoped-query.ts';

export interface CitationPart {
  /** Columns every part gives, in the same order: name -> [rollup expression, raw expression]. */
  columns: Record<string, [string, string]>;
  /** Extra condition on both parts (columns both tables have: domain, category, url_hash). */
  condition?: string;
}

export type CitationRollup = 'citation_domains_monthly' | 'citation_domain_models_monthly' | 'citation_urls_monthly';

/** The filter columns each rollup keeps (besides brand and month). */
const KEEPS: Record<CitationRollup, ('model' | 'region')[]> = {
  citation_domains_monthly: [],
  citation_domain_models_monthly: ['model', 'region'],
  citation_urls_monthly: [],
};

/**
 * `rollups`: the monthly tables that may answer, smallest first; the first that keeps the filters'
 * columns does (the URL rollup's whole quarters are read from its quarterly fold). `raw` forces
 * answer_citations, for tests comparing both paths. The result is a subquery (UNION ALL of the
 * parts that have rows) with the requested columns.
 */
export function citationSource(
  f: Filters,
  rollups: CitationRollup[],
  part: CitationPart,
  opts: { raw?: boolean } = {},
): ScopedQuery {
  const needed = [...(f.models?.length ? ['model'] : []), ...(f.region ? ['region'] : [])] as ('model' | 'region')[];
  const rollup = rollups.find((r) => needed.every((c) => KEEPS[r].includes(c)));
  const months = opts.raw || f.promptIds || f.source || !rollup ? undefined : wholeMonths(f);
  const columns = (i: 0 | 1) =>
    Object.entries(part.columns)
      .map(([name, exprs]) => `${exprs[i]} AS ${name}`)
      .join(', ');
  const raw = (outside?: string, params?: Record<string, unknown>) =>
    select(
      { table: 'answer_citations', scope: f },
      {
        select: columns(1),
        where: [outside, part.condition].filter(Boolean).join(' AND ') || undefined,
        params,
      },
    );
  if (!months || !rollup) return raw();

  const quarters = rollup === 'citation_urls_monthly' ? wholeQuarters(months) : undefined;
  const parts: ScopedQuery[] = [];
  const monthly = (where?: string, params?: Record<string, unknown>) =>
    select(
      {
        table: rollup,
        scope: {
          brandId: f.brandId,
          generation: f.generation,
          models: f.models,
          region: f.region,
          ...spanScope(months),
        },
      },
      { select: columns(0), where: [where, part.condition].filter(Boolean).join(' AND ') || undefined, params },
    );
  if (!quarters) parts.push(monthly());
  else {
    parts.push(
      select(
        {
          table: 'citation_urls_quarterly',
          scope: { brandId: f.brandId, generation: f.generation, ...spanScope(quarters) },
        },
        { select: columns(0), where: part.condition },
      ),
    );
    // The whole months before the first whole quarter and after the last.
    const outsideQuarters: string[] = [];
    const params: Record<string, unknown> = {};
    if (quarters.from && months.from && months.from < quarters.from) {
      outsideQuarters.push('month < {quarterFrom:Date}');
      params.quarterFrom = quarters.from;
    }
    if (quarters.to && quarters.lastMonth && months.to && months.to > quarters.lastMonth) {
      outsideQuarters.push('month > {quarterLastMonth:Date}');
      params.quarterLastMonth = quarters.lastMonth;
    }
    if (outsideQuarters.length) parts.push(monthly(`(${outsideQuarters.join(' OR ')})`, params));
  }
  const edges = edgeDays(f, months);
  if (edges) parts.push(raw(edges.where, edges.params));
  return unionAll(parts);
}
