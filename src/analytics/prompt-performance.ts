// prompt-performance: per prompt with at least one answer in range, the brand's figures and the
// competitors' mean score, sorted and limited as asked.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { entitySource } from './entity-source.ts';
import { sumsSql, toSums } from './entity-sums.ts';
import { meanScore, roundOrNull } from './formulas.ts';
import { promptSums } from './prompt-source.ts';
import { select } from '../stores/scoped-query.ts';
import { humanOrder } from '../text-order.ts';

export type PromptSort = 'visibility' | 'mentions' | 'citations' | 'appearances';

export interface PromptFigures {
  prompt_id: string;
  result_count: number;
  avg_visibility: number | null;
  total_mentions: number;
  total_citations: number;
  avg_competitor_score: number | null;
}

/** `raw` reads answer_entities alone, never the rollups (tests compare both). */
export async function promptFigures(
  ch: ClickHouse,
  f: Filters,
  opts: { raw?: boolean } = {},
): Promise<PromptFigures[]> {
  const src = entitySource(f, ['prompt_id', 'is_brand'], opts);
  const rows = await ch.rows<Record<string, unknown> & { prompt_id: string }>(
    select(promptSums(f, src), {
      select: `prompt_id, ${sumsSql(src, 'b_', 'is_brand = 1')}, ${sumsSql(src, 'c_', 'is_brand = 0')}`,
      groupBy: 'prompt_id',
      having: 'b_rows > 0',
    }),
  );
  return rows.map((r) => {
    const brand = toSums(r, 'b_');
    const comp = toSums(r, 'c_');
    return {
      prompt_id: r.prompt_id,
      result_count: brand.rows,
      avg_visibility: roundOrNull(meanScore(brand, brand.rows), 1),
      total_mentions: brand.mentions,
      total_citations: brand.citations,
      avg_competitor_score: roundOrNull(meanScore(comp, comp.rows), 1),
    };
  });
}

const SORT_KEY: Record<PromptSort, (p: PromptFigures) => number> = {
  visibility: (p) => p.avg_visibility ?? -1,
  mentions: (p) => p.total_mentions,
  citations: (p) => p.total_citations,
  appearances: (p) => p.result_count,
};

/** Sorts by the chosen figure; ties by prompt text, then id, so pages are stable. */
export function sortPrompts<T extends PromptFigures & { prompt_text: string }>(
  rows: T[],
  by: PromptSort,
  order: 'asc' | 'desc',
): T[] {
  const key = SORT_KEY[by];
  const dir = order === 'asc' ? 1 : -1;
  return [...rows].sort(
    (a, b) =>
      dir * (key(a) - key(b)) || humanOrder(a.prompt_text, b.prompt_text) || humanOrder(a.prompt_id, b.prompt_id),
  );
}
