// Writes kept crawler hits to ClickHouse (ai_crawler_hits; its materialised view fills the daily
// rollup). Rows travel as JSONCompactEachRow lines in the table's column order (HIT_COLUMNS, from
// its declaration in src/stores/fact-tables.ts), built here from the hit itself: the import writes
// tens of thousands per insert and skips the generic encoder.
import type { ClickHouse } from '../../stores/index.ts';
import { HIT_COLUMNS, type Hit } from './entry.ts';

export const HITS_TABLE = 'ai_crawler_hits';

/** One line of a hit, in HIT_COLUMNS order. */
export const hitLine = (h: Hit) => `${JSON.stringify(HIT_COLUMNS.map((c) => h[c]))}\n`;

// Inserts of hits per brand by this process: the ai-crawlers cache keys on it, so hits this process
// stored show in its next read at once (as ai-traffic's visits do).
const written = new Map<string, number>();

/** How many inserts of this brand's hits this process has made (a cache version). */
export function crawlerHitsVersion(brandId: string): number {
  return written.get(brandId) ?? 0;
}

/** Inserts lines made by hitLine, all of one brand, in one block. */
export async function writeHitLines(ch: Pick<ClickHouse, 'insertLines'>, brandId: string, lines: string) {
  await ch.insertLines(HITS_TABLE, HIT_COLUMNS, lines);
  written.set(brandId, crawlerHitsVersion(brandId) + 1);
}

/** Inserts hits of one brand in one block. */
export function writeHits(ch: Pick<ClickHouse, 'insertLines'>, brandId: string, hits: readonly Hit[]) {
  let body = '';
  for (const h of hits) body += hitLine(h);
  return writeHitLines(ch, brandId, body);
}
