// The brand's topics (topics, create-topic, update-topic): create, rename, deactivate (its prompts
// are no longer asked) or activate again (its prompts count against the plan's limit: a 402).
import { useState } from 'preact/hooks';
import { change } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { Field } from '../../components/field.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { Panel, Problem } from '../../components/page.tsx';
import {
  actionsColumn,
  FormButtons,
  FormProblem,
  RowButton,
  stateColumn,
  SubForm,
  ToggleButton,
  useActiveToggle,
} from './rows.tsx';
import { errorAt, type FormError, formError } from '../../form-error.ts';

export type Topic = Result<'topics'>[number];

function TopicForm(p: { brandId: string; topic?: Topic; onDone: () => void; onCancel?: () => void }) {
  const t = p.topic;
  const id = t ? `topic-${t.id}-name` : 'topic-new-name';
  const [name, setName] = useState(t?.name ?? '');
  const [error, setError] = useState<FormError>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      if (t) await change('update-topic', { id: t.id, name });
      else await change('create-topic', { brand_id: p.brandId, name });
      if (!t) setName('');
      p.onDone();
    } catch (err) {
      setError(formError(err, ['name'], { 409: 'name' }));
    }
    setBusy(false);
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label={t ? `Rename ${t.name}` : 'Create a topic'}>
      <Field
        id={id}
        label={t ? 'New name' : 'Topic name'}
        value={name}
        onInput={setName}
        error={errorAt(error, 'name')}
        required
      />
      <FormButtons label={t ? 'Rename topic' : 'Create topic'} busy={busy} onCancel={p.onCancel} />
      <FormProblem error={error} />
    </form>
  );
}

export function Topics(p: { brandId: string; topics: Topic[] | undefined; onChanged: () => void }) {
  const [renaming, setRenaming] = useState<string>();
  const { problem, toggle } = useActiveToggle<Topic>('update-topic', (t) => t.name, p.onChanged);
  const done = () => {
    setRenaming(undefined);
    p.onChanged();
  };
  return (
    <Panel title="Topics" id="topics-heading">
      {p.topics && (
        <DataTable
          caption="Topics"
          rows={p.topics}
          rowKey={(t) => t.id}
          empty="No topics yet: topics group prompts, and filter every figure."
          columns={[
            { key: 'name', label: 'Topic' },
            { key: 'prompt_count', label: 'Prompts', align: 'right' },
            stateColumn<Topic>(),
            actionsColumn<Topic>((t) => (
              <div class="actions row-actions">
                <RowButton label="Rename" name={t.name} onClick={() => setRenaming(t.id)} />
                <ToggleButton active={t.is_active} name={t.name} onClick={() => toggle(t)} />
              </div>
            )),
          ]}
        />
      )}
      {problem && <Problem message={problem} />}
      {p.topics
        ?.filter((t) => t.id === renaming)
        .map((t) => (
          <SubForm key={t.id} title={`Rename ${t.name}`}>
            <TopicForm brandId={p.brandId} topic={t} onDone={done} onCancel={() => setRenaming(undefined)} />
          </SubForm>
        ))}
      <SubForm title="Create a topic">
        <TopicForm brandId={p.brandId} onDone={done} />
      </SubForm>
    </Panel>
  );
}
