// The prompts (prompt-performance), by the brand's mean visibility: ten on screen, and every prompt
// the operation lists (up to its limit of 100) in the CSV. A prompt opens its answers.
import { read } from '../../api.ts';
import { useLoad } from '../../load.ts';
import { Panel, Pending } from '../../components/page.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { type PartProps, useReport } from './part.ts';

export interface PromptRow {
  prompt_id: string;
  prompt_text: string;
  topic_name: string | null;
  result_count: number;
  avg_visibility: number | null;
  total_mentions: number;
  total_citations: number;
  avg_competitor_score: number | null;
}

const SHOWN = 10;

export function PromptsPanel(p: PartProps) {
  const prompts = useLoad(
    () => read<{ prompts: PromptRow[] }>('prompt-performance', { ...p.params, limit: '100' }),
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
            { key: 'result_count', label: 'Answers', align: 'right' },
            { key: 'avg_visibility', label: 'Visibility', align: 'right' },
            { key: 'total_mentions', label: 'Mentions', align: 'right' },
            { key: 'total_citations', label: 'Citations', align: 'right' },
            { key: 'avg_competitor_score', label: 'Competitor score', align: 'right' },
          ]}
        />
      )}
      {rows.length > SHOWN && <p class="hint">The ten most visible of {rows.length}; the CSV holds them all.</p>}
    </Panel>
  );
}
