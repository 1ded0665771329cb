// prompt-performance: per prompt with at least one answer in range, the brand's figures and the
// competitors' mean score, sorted and limited as asked. The brand's AI visibility score and mention
// rate are computed here, for every prompt, so a sort by them orders by the very values shown.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { entitySource } from './entity-source.ts';
import { sumsSql, toSums } from './entity-sums.ts';
import { meanScore, roundOrNull } from './formulas.ts';
import { promptSums } from './prompt-source.ts';
import { select } from '../stores/scoped-query.ts';
import { humanOrder } from '../text-order.ts';
import { trendValue } from './entity-trend.ts';

/** `visibility` is the seed's avg_visibility; the app sorts by the figures it shows (ai_visibility_score...). */
export const PROMPT_SORTS = [
  'visibility',
  'mentions',
  'citations',
  'appearances',
  'ai_visibility_score',
  'mention_rate',
] as const;
export type PromptSort = (typeof PROMPT_SORTS)[number];

export interface PromptFigures {
  prompt_id: string;
  result_count: number;
  /** The seed's figure: the mean of per-answer scores. */
  avg_visibility: number | null;
  total_mentions: number;
  total_citations: number;
  avg_competitor_score: number | null;
  /** The brand's AI visibility score over the prompt's answers, as the summary computes it. */
  ai_visibility_score: number | null;
  /** The share of the prompt's answers naming the brand, %. */
  mention_rate: number | null;
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
      ai_visibility_score: trendValue('ai_visibility_score', brand, brand.rows),
      mention_rate: trendValue('mention_rate', brand, brand.rows),
    };
  });
}

const SORT_KEY: Record<PromptSort, (p: PromptFigures) => number> = {
  visibility: (p) => p.avg_visibility ?? -1,
  ai_visibility_score: (p) => p.ai_visibility_score ?? -1,
  mention_rate: (p) => p.mention_rate ?? -1,
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

/**
 * A prompt's best competitor, on the basis of the brand's own figures (promptFigures): the AI
 * visibility score and mention rate over the prompt's answers.
 */
export interface PromptBasis {
  best_competitor: {
    competitor_id: string;
    name: string;
    ai_visibility_score: number | null;
    mention_rate: number | null;
  } | null;
}

/**
 * For the listed prompts: the score and mention rate of the competitor with the highest score (ties
 * by name), over the prompt's answers as the brand's (docs/api.md section 24), as entity-trend and
 * the summary compute them. Reads answer_entities: no rollup keeps prompt and entity.
 * A prompt whose answers name or cite no tracked competitor has none.
 */
export async function promptBasis(
  ch: ClickHouse,
  f: Filters,
  promptIds: string[],
  competitors: { id: string; name: string }[],
): Promise<Map<string, PromptBasis>> {
  const out = new Map<string, PromptBasis>();
  if (!promptIds.length) return out;
  const src = entitySource(
    { ...f, promptIds: f.promptIds ? f.promptIds.filter((id) => promptIds.includes(id)) : promptIds },
    ['prompt_id', 'entity_id', 'is_brand'],
    { raw: true },
  );
  // Aliases never reuse a column name: the scope's prompt condition would read the alias.
  const rows = await ch.rows<Record<string, unknown> & { pid: string; eid: string; is_brand: number }>(
    select(src, {
      select: `toString(prompt_id) AS pid, toString(entity_id) AS eid, is_brand, ${sumsSql(src)}`,
      groupBy: 'pid, eid, is_brand',
    }),
  );
  const names = new Map(competitors.map((c) => [c.id, c.name]));
  for (const id of promptIds) {
    const mine = rows.filter((r) => r.pid === id);
    const brand = toSums(mine.find((r) => Number(r.is_brand) === 1));
    const n = brand.rows;
    const best = mine
      .filter((r) => Number(r.is_brand) === 0 && names.has(r.eid) && toSums(r).rows > 0)
      .map((r) => ({
        competitor_id: r.eid,
        name: names.get(r.eid)!,
        ai_visibility_score: trendValue('ai_visibility_score', toSums(r), n),
        mention_rate: trendValue('mention_rate', toSums(r), n),
      }))
      .sort((a, b) => (b.ai_visibility_score ?? -1) - (a.ai_visibility_score ?? -1) || humanOrder(a.name, b.name))[0];
    out.set(id, { best_competitor: best ?? null });
  }
  return out;
}
