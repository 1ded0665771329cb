// A prompt's brand beside its best competitor on one basis (prompt-performance, docs/api.md section
// 24): the AI visibility score and mention rate over the prompt's answers, the competitor with the
// highest score named. The prompts page and the overview's panel show these same columns, each
// figure leading to the answers it is computed over.
import type { Column } from '../components/data-table.tsx';
import type { Result } from '../operation-types.ts';
import { percent } from './figure-parts.tsx';

export type PromptBasisRow = Pick<
  Result<'prompt-performance'>['prompts'][number],
  'prompt_id' | 'prompt_text' | 'ai_visibility_score' | 'mention_rate' | 'best_competitor'
>;

/** `answers(prompt, mentioned)`: the explorer's address for the prompt's answers (naming one entity). */
export function basisColumns<R extends PromptBasisRow>(
  answers: (promptId: string, mentioned?: string) => string,
): Column<R>[] {
  return [
    { key: 'ai_visibility_score', label: 'Your score', align: 'right', render: (r) => r.ai_visibility_score ?? '—' },
    {
      key: 'mention_rate',
      label: 'Your mention rate',
      align: 'right',
      render: (r) => <a href={answers(r.prompt_id, 'brand')}>{percent(r.mention_rate)}</a>,
    },
    {
      key: 'best_competitor',
      label: 'Best competitor',
      render: (r) =>
        r.best_competitor ? (
          <a href={answers(r.prompt_id, r.best_competitor.competitor_id)}>{r.best_competitor.name}</a>
        ) : (
          <span class="muted">None named</span>
        ),
      csv: (r) => r.best_competitor?.name ?? '',
    },
    {
      key: 'best_score',
      label: 'Its score',
      align: 'right',
      render: (r) => r.best_competitor?.ai_visibility_score ?? '—',
      csv: (r) => r.best_competitor?.ai_visibility_score ?? null,
    },
    {
      key: 'best_mention_rate',
      label: 'Its mention rate',
      align: 'right',
      render: (r) => percent(r.best_competitor?.mention_rate),
      csv: (r) => r.best_competitor?.mention_rate ?? null,
    },
  ];
}
