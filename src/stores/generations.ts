// Deleting a brand's analysis generations other than one (clickhouse/011_analysis_generation.sql):
// the rows a finished re-analysis has replaced, or the partial generation a crashed one left. A
// read never sees either (it binds the brand's live generation), so this only frees space; it is
// a mutation, the one kind of statement besides inserts that touches tenant rows, kept here.
import type { ClickHouse } from './clickhouse.ts';
import { ANALYSIS_TABLES } from './scoped-query.ts';

/**
 * The generation of the analysis rows of answers imported from another tracker (`answerscope
 * import-tracker`), which no brand ever reaches (a brand's generation counts its re-analyses): a
 * figure binds the brand's live generation, so those answers are counted only by a read that asks
 * for their source and binds this generation (operations/analytics-filters.ts). A re-analysis
 * leaves them as their import analysed them; importing the file again re-derives them.
 */
export const IMPORTED_GENERATION = 4_294_967_295;

/**
 * Deletes the brand's rows of every generation but `keep` (and IMPORTED_GENERATION's). `wait`:
 * return only once the rows are gone (before a generation number is written again); otherwise
 * ClickHouse deletes in the background. Either way rows inserted after this call are not touched: a mutation applies to
 * the parts that exist when it is issued.
 */
export async function dropOtherGenerations(
  ch: ClickHouse,
  brandId: string,
  keep: number,
  opts: { wait: boolean },
): Promise<void> {
  const onCluster = ch.cluster ? ` ON CLUSTER \`${ch.cluster}\`` : '';
  for (const table of ANALYSIS_TABLES) {
    // In the statement, not in clickhouse_settings: chDB's adapter makes those SETs that stay on
    // its one session.
    await ch.command({
      query:
        `ALTER TABLE ${table}${onCluster} DELETE WHERE brand_id = {brand:UUID} ` +
        `AND generation NOT IN ({keep:UInt32}, {imported:UInt32}) SETTINGS mutations_sync = ${opts.wait ? 2 : 0}`,
      query_params: { brand: brandId, keep, imported: IMPORTED_GENERATION },
    });
  }
}
