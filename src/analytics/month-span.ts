// The whole calendar months (and quarters) of a date range, and the days around them: the monthly
// and quarterly rollups answer the first, the daily or raw rows the second
// (citation-source.ts, prompt-source.ts). Dates are UTC days, as every rollup keeps them.
import type { Filters } from './filters.ts';
import { DAY_MS, isoDay } from '../instant.ts';

export interface MonthSpan {
  /** First day of the first whole month in range, or undefined when the range has no lower bound. */
  from?: string;
  /** First day of the last whole month in range, or undefined when it has no upper bound. */
  to?: string;
  /** Last day of that month (the raw part reads everything outside [from, end]). */
  end?: string;
}

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
    from = isoDay(start.getTime());
  }
  if (f.to) {
    // The last whole day (to reaches 23:59:59.999 of it), then the last month ending on or before it.
    const t = f.to.getTime() + 1;
    const lastDay = t % DAY_MS === 0 ? t - DAY_MS : t - (t % DAY_MS) - DAY_MS;
    const d = new Date(lastDay);
    const next = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
    const month = next.getUTCDate() === 1 ? d : new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 0));
    to = isoDay(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1));
    end = isoDay(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0));
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
    from = isoDay(monthStart(months.from, (3 - (m % 3)) % 3).getTime());
  }
  if (months.to) {
    // The last month of the span ends a quarter when it is the third of one; else the quarter before.
    const m = monthStart(months.to, 0).getUTCMonth();
    const last = monthStart(months.to, m % 3 === 2 ? 0 : -(m % 3) - 1);
    to = isoDay(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - 2, 1));
    lastMonth = isoDay(last.getTime());
    end = isoDay(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() + 1, 0));
  }
  if (from && to && from > to) return undefined;
  return { from, to, lastMonth, end };
}

/** A span of whole days as the scope of a rollup read: from its first day's start to its last day's end. */
export function spanScope(span: { from?: string; end?: string }): { from?: Date; to?: Date } {
  return {
    from: span.from ? new Date(`${span.from}T00:00:00.000Z`) : undefined,
    to: span.end ? new Date(`${span.end}T23:59:59.999Z`) : undefined,
  };
}

/**
 * The condition on `day` that keeps a range's days outside its whole months (a bound inside a day
 * always leaves one), for the daily or raw part of a read; undefined when the range is exactly
 * those months.
 */
export function edgeDays(
  f: { from?: Date; to?: Date },
  months: MonthSpan,
): { where: string; params: Record<string, unknown> } | undefined {
  const edges = (!!f.from && isoDay(f.from) !== months.from) || (!!f.to && isoDay(f.to) !== months.end);
  if (!edges) return undefined;
  const outside: string[] = [];
  const params: Record<string, unknown> = {};
  if (months.from) {
    outside.push('day < {monthFrom:Date}');
    params.monthFrom = months.from;
  }
  if (months.to) {
    outside.push('day > {monthEnd:Date}');
    params.monthEnd = months.end;
  }
  return { where: `(${outside.join(' OR ')})`, params };
}
