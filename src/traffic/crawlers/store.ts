// Writes kept crawler hits to ClickHouse (ai_crawler_hits; its materialised view fills the daily
// rollup). Rows travel as JSONCompactEachRow lines in the table's column order, built here from
// the hit itself: the import writes tens of thousands per insert and skips the generic encoder.
import type { ClickHouse } from '../../stores/index.ts';
import { HIT_COLUMNS, type Hit } from './entry.ts';

export const HITS_TABLE = 'ai_crawler_hits';

/** One line of a hit, in HIT_COLUMNS order. */
export const hitLine = (h: Hit) =>
  `${JSON.stringify([
    h.brand_id,
    h.ts,
    h.day,
    h.bot_name,
    h.provider,
    h.bot_type,
    h.verification,
    h.method,
    h.host,
    h.path,
    h.status_code,
    h.status_class,
    h.referer,
    h.bytes_sent,
    h.duration_ms,
  ])}\n`;

/** Inserts lines made by hitLine, in one block. */
export function writeHitLines(ch: Pick<ClickHouse, 'insertLines'>, lines: string): Promise<void> {
  return ch.insertLines(HITS_TABLE, HIT_COLUMNS, lines);
}

export function writeHits(ch: Pick<ClickHouse, 'insertLines'>, hits: readonly Hit[]): Promise<void> {
  let body = '';
  for (const h of hits) body += hitLine(h);
  return writeHitLines(ch, body);
}
