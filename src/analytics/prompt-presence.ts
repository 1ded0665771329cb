// Per prompt with answers in range: how many answers, how many name or cite a competitor, and how
// many of those neither name nor cite the brand (the gaps content opportunities start from).
// Each answer is one brand row in answer_entities plus one row per competitor; sums of `sign` keep
// a re-imported answer counted once.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { select } from '../stores/scoped-query.ts';

export interface PromptPresence {
  prompt_id: string;
  answers: number;
  competitor_answers: number;
  gap_answers: number;
}

export async function promptPresence(ch: ClickHouse, f: Filters): Promise<PromptPresence[]> {
  const perAnswer = select(
    { table: 'answer_entities', scope: f },
    {
      select: `prompt_id, answer_id,
           sumIf(sign, is_brand = 1) AS brand_rows,
           sumIf(sign, is_brand = 1 AND (mentions > 0 OR citations > 0)) AS seen,
           sumIf(sign, is_brand = 0 AND (mentions > 0 OR citations > 0)) AS rivals`,
      groupBy: 'prompt_id, answer_id',
      having: 'brand_rows > 0',
    },
  );
  const rows = await ch.rows<PromptPresence>(
    select(perAnswer, {
      select: `prompt_id, count() AS answers, countIf(rivals > 0) AS competitor_answers,
         countIf(rivals > 0 AND seen = 0) AS gap_answers`,
      groupBy: 'prompt_id',
    }),
  );
  return rows.map((r) => ({
    prompt_id: r.prompt_id,
    answers: Number(r.answers),
    competitor_answers: Number(r.competitor_answers),
    gap_answers: Number(r.gap_answers),
  }));
}
