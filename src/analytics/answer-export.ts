// Every answer of a range, page by page, for `answerscope export answers` (docs/api.md section 11):
// the answers explorer's own pages, so an exported line is exactly what the API shows. Memory stays
// flat whatever the brand's size: one page is held at a time.
//
// The range is cut into windows of whole days holding about WINDOW answers (from a count per day
// read once), walked newest first, each paged by its keyset. A page reads only its window, so
// the key read of each page costs a window's answers, not the whole remaining history. The
// windows tile the range without gaps, so an answer of a day that held none when counted is still
// read; what is ingested into a window already passed is not (it is newer than the export).
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Queryable } from '../stores/postgres.ts';
import { decodeCursor, type PageCursor } from '../cursor.ts';
import { answerDays, answerPage, type Answer, type AnswerContext, type AnswerFilters } from './answers.ts';

/** Answers per page: about 2 MB of text at a typical 2 KB an answer. */
export const EXPORT_PAGE = 1_000;
/** Answers per window: a page's key read sorts at most this many (a larger day is one window). */
export const EXPORT_WINDOW = 5_000;

export interface Window {
  from?: Date;
  to?: Date;
}

/**
 * Consecutive windows over [from, to], newest first: whole days adding up to at most `size` answers
 * (a day holding more is a window alone); the first ends at `to`, the last starts at `from`.
 */
export function planWindows(days: { day: string; answers: number }[], size: number, from?: Date, to?: Date): Window[] {
  const windows: Window[] = [];
  let upper = to;
  let held = 0;
  let oldest: string | undefined;
  for (const { day, answers } of days) {
    if (oldest !== undefined && held + Number(answers) > size) {
      const start = new Date(`${oldest}T00:00:00.000Z`);
      windows.push({ from: start, to: upper });
      upper = new Date(start.getTime() - 1);
      held = 0;
    }
    held += Number(answers);
    oldest = day;
  }
  windows.push({ from, to: upper });
  return windows;
}

/** The pages of every answer of the filters, newest first. */
export async function* exportAnswers(
  ch: ClickHouse,
  pg: Queryable,
  f: AnswerFilters,
  ctx: AnswerContext,
  opts: { page?: number; window?: number } = {},
): AsyncGenerator<Answer[]> {
  const days = await answerDays(ch, f);
  for (const w of planWindows(days, opts.window ?? EXPORT_WINDOW, f.from, f.to)) {
    let cursor: PageCursor | undefined;
    do {
      const page = await answerPage(ch, pg, { ...f, ...w }, ctx, { limit: opts.page ?? EXPORT_PAGE, cursor });
      if (page.answers.length) yield page.answers;
      cursor = page.next_cursor ? (decodeCursor(page.next_cursor) ?? undefined) : undefined;
    } while (cursor);
  }
}
