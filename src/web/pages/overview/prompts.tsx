// The prompts (prompt-performance), by the brand's AI visibility score as shown: ten on screen, and every prompt
// the operation lists (up to its limit of 100) in the CSV, the brand beside its best competitor on
// one basis (prompt-basis.tsx). A prompt, and each count, opens its answers.
import { read } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { useLoad } from '../../load.ts';
import { Panel, Pending } from '../../components/page.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { type PartProps, useReport } from './part.ts';
import { basisColumns } from '../prompt-basis.tsx';

export type PromptRow = Result<'prompt-performance'>['prompts'][number];

const SHOWN = 10;

export function PromptsPanel(p: PartProps) {
  const prompts = useLoad(
    // By the score the table shows (the API's default, `visibility`, is the seed's older average).
    () =>
      read('prompt-performance', {
        ...p.params,
        sort_by: 'ai_visibility_score',
        limit: '100',
      }),
    [p.paramsKey],
  );
  useReport(p.report, 'prompts', !prompts.loading);
  const rows = prompts.data?.prompts ?? [];
  return (
    <Panel title="Prompts" busy={prompts.loading}>
      <Pending load={prompts} />
      {prompts.data && (
        <DataTable<PromptRow>
          caption="Prompts by visibility"
          csvName="prompts"
          rows={rows.slice(0, SHOWN)}
          allRows={async () => rows}
          rowKey={(r) => r.prompt_id}
          empty="No answers to any prompt in this range."
          columns={[
            {
              key: 'prompt_text',
              label: 'Prompt',
              render: (r) => <a href={p.link({ prompt_id: r.prompt_id })}>{r.prompt_text}</a>,
            },
            { key: 'prompt_id', label: 'Prompt id', csvOnly: true },
            { key: 'topic_name', label: 'Topic', render: (r) => r.topic_name ?? '—' },
            {
              key: 'result_count',
              label: 'Answers',
              align: 'right',
              render: (r) => <a href={p.link({ prompt_id: r.prompt_id })}>{r.result_count}</a>,
            },
            ...basisColumns<PromptRow>((id, mentioned) => p.link({ prompt_id: id, mentioned })),
          ]}
        />
      )}
      {rows.length > SHOWN && <p class="hint">The ten most visible of {rows.length}; the CSV holds them all.</p>}
    </Panel>
  );
}
