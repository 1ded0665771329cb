// Per (prompt, entity) sums over the answers in range: the brand's and each competitor's figures
// for every prompt. No rollup keeps both the prompt and the entity, so answer_entities answers.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { entitySource } from './entity-source.ts';
import { sumsSql, toSums } from './entity-sums.ts';
import type { EntitySums } from './formulas.ts';
import { select } from '../stores/scoped-query.ts';

export interface PromptEntitySums {
  prompt_id: string;
  entity_id: string;
  is_brand: boolean;
  /** Answers for the brand, (answer, competitor) pairs for a competitor. */
  sums: EntitySums & { rows: number };
}

/** Only entities with rows left after cancels. */
export async function promptEntitySums(ch: ClickHouse, f: Filters): Promise<PromptEntitySums[]> {
  const src = entitySource(f, ['prompt_id', 'entity_id', 'is_brand']);
  const rows = await ch.rows<Record<string, unknown> & { prompt_id: string; entity_id: string; is_brand: number }>(
    select(src, {
      select: `prompt_id, entity_id, is_brand, ${sumsSql(src)}`,
      groupBy: 'prompt_id, entity_id, is_brand',
    }),
  );
  return rows
    .map((r) => ({
      prompt_id: r.prompt_id,
      entity_id: r.entity_id,
      is_brand: Number(r.is_brand) === 1,
      sums: toSums(r),
    }))
    .filter((r) => r.sums.rows > 0);
}
