// The brand's tracked prompts (prompts, add-prompts, update-prompt): add several at once (one per
// line, with platforms, regions and a topic), change a prompt's topic, platforms or regions, and
// deactivate or activate it. A text never changes (it names the prompt's history). A text the
// brand has already (409) or going past the plan's active prompt limit (402) adds nothing; the
// message is shown beside the prompts field, as the API words it.
import { useState } from 'preact/hooks';
import { change } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { Field, Select, TextArea } from '../../components/field.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { Panel, Problem } from '../../components/page.tsx';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import { listOf, PlatformChoice, textOf } from './shared.tsx';
import { platformName } from '../../../tenancy/tracked.ts';
import type { Topic } from './topics.tsx';
import {
  actionsColumn,
  FormButtons,
  FormFoot,
  FormProblem,
  RowButton,
  stateColumn,
  SubForm,
  ToggleButton,
  useActiveToggle,
} from './rows.tsx';

export type TrackedPrompt = Result<'prompts'>[number];

const topicOptions = (topics: Topic[]) => [
  { value: '', label: 'No topic' },
  ...topics.map((t) => ({ value: t.id, label: t.is_active ? t.name : `${t.name} (inactive)` })),
];

const notInPlanNote = (list: string[]) =>
  list.length ? ` Kept but not asked on your plan: ${list.map(platformName).join(', ')}.` : '';

/** Where a prompt is asked and how it is grouped: its topic, regions and platforms, each with its error. */
function Where(p: {
  prefix: string;
  topics: Topic[];
  error: FormError | undefined;
  topic: [string, (v: string) => void];
  regions: [string, (v: string) => void];
  platforms: [string[], (v: string[]) => void];
}) {
  return (
    <>
      <div class="inline-form">
        <Select
          id={`${p.prefix}-topic`}
          label="Topic"
          value={p.topic[0]}
          options={topicOptions(p.topics)}
          onChange={p.topic[1]}
          error={errorAt(p.error, 'topic')}
        />
        <Field
          id={`${p.prefix}-regions`}
          label="Regions"
          value={p.regions[0]}
          onInput={p.regions[1]}
          error={errorAt(p.error, 'regions')}
          hint="Codes separated by commas; none: the brand's region."
        />
      </div>
      <PlatformChoice
        id={`${p.prefix}-platforms`}
        value={p.platforms[0]}
        onChange={p.platforms[1]}
        error={errorAt(p.error, 'platforms')}
      />
    </>
  );
}

function AddPrompts(p: { brandId: string; topics: Topic[]; onDone: () => void }) {
  const [texts, setTexts] = useState('');
  const [topic, setTopic] = useState('');
  const [platforms, setPlatforms] = useState<string[]>([]);
  const [regions, setRegions] = useState('');
  const [error, setError] = useState<FormError>();
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setNote(undefined);
    const lines = texts
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    setBusy(true);
    try {
      const added = await change('add-prompts', {
        brand_id: p.brandId,
        topic_id: topic || undefined,
        prompts: lines.map((text) => ({ text, platforms, regions: listOf(regions) })),
      });
      setTexts('');
      setNote(
        `${added.prompts.length} prompt${added.prompts.length === 1 ? '' : 's'} ` +
          `added.${notInPlanNote(added.platforms_not_in_plan)}`,
      );
      p.onDone();
    } catch (err) {
      // 402 (the plan's limit) and 409 (a text already tracked) are about the prompts given.
      const placed = formError(err, ['prompts', 'topic_id', 'platforms', 'regions'], {
        402: 'prompts',
        409: 'prompts',
      });
      setError(placed.field === 'topic_id' ? { ...placed, field: 'topic' } : placed);
    }
    setBusy(false);
  };
  return (
    <form class="stack wide" onSubmit={submit} aria-label="Add prompts">
      <TextArea
        id="prompts-new"
        label="Prompts"
        value={texts}
        onInput={setTexts}
        rows={4}
        hint="One per line, as a person would ask it (1 to 100 at once)."
        error={errorAt(error, 'prompts')}
        required
      />
      <Where
        prefix="prompts-new"
        topics={p.topics}
        error={error}
        topic={[topic, setTopic]}
        regions={[regions, setRegions]}
        platforms={[platforms, setPlatforms]}
      />
      <FormFoot label="Add prompts" busy={busy} note={note} />
      <FormProblem error={error} />
    </form>
  );
}

function EditPrompt(p: { prompt: TrackedPrompt; topics: Topic[]; onDone: () => void; onCancel: () => void }) {
  const q = p.prompt;
  const [topic, setTopic] = useState(q.topic_id ?? '');
  const [platforms, setPlatforms] = useState<string[]>(q.platforms);
  const [regions, setRegions] = useState(textOf(q.regions));
  const [error, setError] = useState<FormError>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      await change('update-prompt', { id: q.id, topic_id: topic || null, platforms, regions: listOf(regions) });
      p.onDone();
    } catch (err) {
      const placed = formError(err, ['topic_id', 'platforms', 'regions']);
      setError(placed.field === 'topic_id' ? { ...placed, field: 'topic' } : placed);
    }
    setBusy(false);
  };
  return (
    <form class="stack wide" onSubmit={submit} aria-label={`Change prompt: ${q.text}`}>
      <Where
        prefix={`prompt-${q.id}`}
        topics={p.topics}
        error={error}
        topic={[topic, setTopic]}
        regions={[regions, setRegions]}
        platforms={[platforms, setPlatforms]}
      />
      <FormButtons label="Save prompt" busy={busy} onCancel={p.onCancel} />
      <FormProblem error={error} />
    </form>
  );
}

export function Prompts(p: {
  brandId: string;
  prompts: TrackedPrompt[] | undefined;
  topics: Topic[];
  onChanged: () => void;
}) {
  const [editing, setEditing] = useState<string>();
  const { problem, toggle } = useActiveToggle<TrackedPrompt>('update-prompt', (q) => `“${q.text}”`, p.onChanged);
  const done = () => {
    setEditing(undefined);
    p.onChanged();
  };
  return (
    <Panel title="Prompts" id="prompts-heading">
      {p.prompts && (
        <DataTable
          caption="Tracked prompts"
          rows={p.prompts}
          rowKey={(q) => q.id}
          empty="No prompts yet: add the questions people ask AI assistants about your market."
          columns={[
            { key: 'text', label: 'Prompt' },
            { key: 'topic_name', label: 'Topic', render: (q) => q.topic_name ?? '—' },
            {
              key: 'platforms',
              label: 'Platforms',
              render: (q) => (q.platforms.length ? q.platforms.map(platformName).join(', ') : 'All in plan'),
            },
            { key: 'regions', label: 'Regions', render: (q) => textOf(q.regions) || "Brand's" },
            stateColumn<TrackedPrompt>(),
            actionsColumn<TrackedPrompt>((q) => (
              <div class="actions row-actions">
                <RowButton label="Change" name={q.text} onClick={() => setEditing(q.id)} />
                <ToggleButton active={q.is_active} name={q.text} onClick={() => toggle(q)} />
              </div>
            )),
          ]}
        />
      )}
      {problem && <Problem message={problem} />}
      {p.prompts
        ?.filter((q) => q.id === editing)
        .map((q) => (
          <SubForm key={q.id} title={`Change “${q.text}”`}>
            <EditPrompt prompt={q} topics={p.topics} onDone={done} onCancel={() => setEditing(undefined)} />
          </SubForm>
        ))}
      <SubForm title="Add prompts">
        <AddPrompts brandId={p.brandId} topics={p.topics} onDone={done} />
      </SubForm>
    </Panel>
  );
}
