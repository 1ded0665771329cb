// prompt-performance: per prompt with at least one answer in range, the brand's figures and the
// competitors' mean score, sorted and limited as asked.
import type { ClickHouse } from '../stores/clickhouse.ts';
import { where, type Filters } from './filters.ts';
import { meanScore, roundOrNull } from './formulas.ts';

export type PromptSort = 'visibility' | 'mentions' | 'citations' | 'appearances';

export interface PromptFigures {
  prompt_id: string;
  result_count: number;
  avg_visibility: number | null;
  total_mentions: number;
  total_citations: number;
  avg_competitor_score: number | null;
}

export async function promptFigures(ch: ClickHouse, f: Filters): Promise<PromptFigures[]> {
  const w = where(f);
  const rows = await ch.rows<Record<string, number> & { prompt_id: string }>(
    `SELECT prompt_id,
       sumIf(sign, is_brand = 1) AS n,
       sumIf(sign, is_brand = 1 AND mentions > 0) AS named,
       sumIf(sign, is_brand = 1 AND citations > 0) AS cited,
       sumIf(mentions * sign, is_brand = 1) AS mention_sum,
       sumIf(citations * sign, is_brand = 1) AS citation_sum,
       sumIf(sign / position, is_brand = 1 AND position > 0) AS inv_position,
       sumIf(sign, is_brand = 0) AS c_pairs,
       sumIf(sign, is_brand = 0 AND mentions > 0) AS c_named,
       sumIf(sign, is_brand = 0 AND citations > 0) AS c_cited,
       sumIf(sign / position, is_brand = 0 AND position > 0) AS c_inv_position
     FROM answer_entities WHERE ${w.sql}
     GROUP BY prompt_id HAVING n > 0`,
    w.params,
  );
  return rows.map((r) => ({
    prompt_id: r.prompt_id,
    result_count: r.n,
    avg_visibility: roundOrNull(meanScore({ named: r.named, cited: r.cited, mentions: 0, citations: 0, invPosition: r.inv_position }, r.n), 1),
    total_mentions: r.mention_sum,
    total_citations: r.citation_sum,
    avg_competitor_score: roundOrNull(
      meanScore({ named: r.c_named, cited: r.c_cited, mentions: 0, citations: 0, invPosition: r.c_inv_position }, r.c_pairs), 1),
  }));
}

const SORT_KEY: Record<PromptSort, (p: PromptFigures) => number> = {
  visibility: (p) => p.avg_visibility ?? -1,
  mentions: (p) => p.total_mentions,
  citations: (p) => p.total_citations,
  appearances: (p) => p.result_count,
};

/** Sorts by the chosen figure; ties by prompt text, then id, so pages are stable. */
export function sortPrompts<T extends PromptFigures & { prompt_text: string }>(rows: T[], by: PromptSort, order: 'asc' | 'desc'): T[] {
  const key = SORT_KEY[by];
  const dir = order === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => dir * (key(a) - key(b)) || a.prompt_text.localeCompare(b.prompt_text) || a.prompt_id.localeCompare(b.prompt_id));
}
