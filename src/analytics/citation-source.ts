// Where citation figures are read from. The whole calendar months of a range come from the monthly
// rollups (clickhouse/004_citation_monthly.sql), every other day of it (the edges, or all of it)
// from answer_citations; both hold the same sign-weighted sums, so the figures are identical
// whichever part answers. A rollup answers only if it keeps the columns the filters name: a topic
// filter reads answer_citations alone (no rollup has the prompt), a model or region filter the
// rollup that keeps model and region, or answer_citations for URL figures.
import type { Filters } from './filters.ts';
import { select, unionAll, type ScopedQuery } from '../stores/scoped-query.ts';

export interface MonthSpan {
  /** First day of the first whole month in range, or undefined when the range has no lower bound. */
  from?: string;
  /** First day of the last whole month in range, or undefined when it has no upper bound. */
  to?: string;
  /** Last day of that month (the raw part reads everything outside [from, end]). */
  end?: string;
}

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The whole months inside the range: those whose every day is wholly in range. Undefined when
 * there are none (a bounded range shorter than a month, or one that splits its only months).
 */
export function wholeMonths(f: Filters): MonthSpan | undefined {
  let from: string | undefined;
  let to: string | undefined;
  let end: string | undefined;
  if (f.from) {
    // The first whole day, then the first month starting on or after it.
    const t = f.from.getTime();
    const firstDay = t % DAY_MS === 0 ? t : t - (t % DAY_MS) + DAY_MS;
    const d = new Date(firstDay);
    const start = d.getUTCDate() === 1 ? d : new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
    from = iso(start.getTime());
  }
  if (f.to) {
    // The last whole day (to reaches 23:59:59.999 of it), then the last month ending on or before it.
    const t = f.to.getTime() + 1;
    const lastDay = t % DAY_MS === 0 ? t - DAY_MS : t - (t % DAY_MS) - DAY_MS;
    const d = new Date(lastDay);
    const next = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
    const month = next.getUTCDate() === 1 ? d : new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 0));
    to = iso(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1));
    end = iso(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0));
  }
  if (from && to && from > to) return undefined;
  return { from, to, end };
}

export interface QuarterSpan {
  /** First day of the first whole quarter, or undefined when the months have no lower bound. */
  from?: string;
  /** First day of the last whole quarter, its last month's first day and its last day. */
  to?: string;
  lastMonth?: string;
  end?: string;
}

const monthStart = (iso: string, plusMonths: number) => {
  const d = new Date(`${iso}T00:00:00.000Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + plusMonths, 1));
};

/**
 * The whole calendar quarters inside a span of whole months: those whose three months all lie in
 * it. Undefined when there are none.
 */
export function wholeQuarters(months: MonthSpan): QuarterSpan | undefined {
  let from: string | undefined;
  let to: string | undefined;
  let lastMonth: string | undefined;
  let end: string | undefined;
  if (months.from) {
    const m = monthStart(months.from, 0).getUTCMonth();
    from = iso(monthStart(months.from, (3 - (m % 3)) % 3).getTime());
  }
  if (months.to) {
    // The last month of the span ends a quarter when it is the third of one; else the quarter before.
    const m = monthStart(months.to, 0).getUTCMonth();
    const last = monthStart(months.to, m % 3 === 2 ? 0 : -(m % 3) - 1);
    to = iso(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - 2, 1));
    lastMonth = iso(last.getTime());
    end = iso(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() + 1, 0));
  }
  if (from && to && from > to) return undefined;
  return { from, to, lastMonth, end };
}

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
  const months = opts.raw || f.promptIds || !rollup ? undefined : wholeMonths(f);
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
          from: months.from ? new Date(`${months.from}T00:00:00.000Z`) : undefined,
          to: months.end ? new Date(`${months.end}T23:59:59.999Z`) : undefined,
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
          scope: {
            brandId: f.brandId,
            generation: f.generation,
            from: quarters.from ? new Date(`${quarters.from}T00:00:00.000Z`) : undefined,
            to: quarters.end ? new Date(`${quarters.end}T23:59:59.999Z`) : undefined,
          },
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
  // The edges: days in range outside the whole months (a bound inside a day always leaves one).
  // None when the range is exactly those months.
  const outside: string[] = [];
  if (months.from) outside.push('day < {monthFrom:Date}');
  if (months.to) outside.push('day > {monthEnd:Date}');
  const edges = (!!f.from && dayOf(f.from) !== months.from) || (!!f.to && dayOf(f.to) !== months.end);
  if (edges) {
    const bounds = {
      ...(months.from ? { monthFrom: months.from } : {}),
      ...(months.to ? { monthEnd: months.end } : {}),
    };
    parts.push(raw(`(${outside.join(' OR ')})`, bounds));
  }
  return unionAll(parts);
}
