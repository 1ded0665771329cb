// A new brand's set-up, on one page (/app/brands/:brandId/setup): competitors, topics and prompts
// suggested by the server (setup-suggestions: templates per kind of business, imported volumes, the
// model) and added with one click through the workspace operations; the platforms, regions and
// samples a day the prompts are asked with (kept as the brand's fixed sampling, update-brand); and
// what that costs before it is spent (capture-estimate, every price with its source, fixed and
// adaptive sampling side by side). Every figure is an operation's.
import { useState } from 'preact/hooks';
import { change, changeAsTyped, messageOf, read } from '../api.ts';
import { useApp } from '../context.ts';
import { useLoad } from '../load.ts';
import { Field, Select } from '../components/field.tsx';
import { Empty, PageHead, Panel, Pending, Problem } from '../components/page.tsx';
import type { PageProps } from '../page-props.ts';
import { listOf } from './workspace/shared.tsx';
import { platformName } from '../../tenancy/tracked.ts';
import { CostPreview } from './cost-preview.tsx';
import './workspace/workspace.css';
import './first-run.css';

const KINDS = [
  { value: 'software', label: 'Software' },
  { value: 'online_store', label: 'Online store' },
  { value: 'local_service', label: 'Local service' },
  { value: 'professional_service', label: 'Professional service' },
  { value: 'consumer_brand', label: 'Consumer brand' },
];

const SOURCE: Record<string, string> = {
  template: 'template',
  volumes: 'keyword volumes',
  model: 'the model',
  answers: 'your answers',
};

export function BrandSetupPage(p: PageProps) {
  const brandId = p.params.brandId;
  const { brand } = useApp();
  const details = useLoad(() => read('brands').then((list) => list.find((b) => b.id === brandId)), [brandId]);
  const [kind, setKind] = useState('software');
  const [category, setCategory] = useState<string>();
  const [asked, setAsked] = useState<{ kind: string; category?: string }>({ kind: 'software' });
  const suggestions = useLoad(
    () => read('setup-suggestions', { brand_id: brandId, kind: asked.kind, category: asked.category }),
    [brandId, asked.kind, asked.category],
  );
  const competitors = useLoad(() => read('competitors', { brand_id: brandId }), [brandId]);
  const topics = useLoad(() => read('topics', { brand_id: brandId }), [brandId]);
  const prompts = useLoad(() => read('prompts', { brand_id: brandId, limit: '500' }), [brandId]);
  const platforms = useLoad(() => read('platforms'), []);
  const onPlan = (platforms.data ?? []).filter((x) => x.on_plan);
  const [chosen, setChosen] = useState<string[]>();
  const picked = chosen ?? onPlan.map((x) => x.platform);
  const [regions, setRegions] = useState<string>();
  const regionText = regions ?? (details.data?.region || 'US');
  const [samples, setSamples] = useState('');
  const [samplesNote, setSamplesNote] = useState<string>();
  const [samplesError, setSamplesError] = useState<string>();
  const [own, setOwn] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const activePrompts = (prompts.data ?? []).filter((x) => x.is_active);
  const estimate = useLoad(
    () =>
      picked.length
        ? read('capture-estimate', {
            brand_id: brandId,
            platforms: picked.join(','),
            regions: listOf(regionText).join(','),
            samples: samples || undefined,
          })
        : Promise.resolve(null),
    [brandId, picked.join(','), regionText, samples, activePrompts.length],
  );

  const run = async (label: string, work: () => Promise<unknown>, after: () => void) => {
    setProblem(undefined);
    setBusy(label);
    try {
      await work();
      after();
    } catch (err) {
      setProblem(`${label}: ${messageOf(err)}`);
    }
    setBusy(undefined);
  };
  const addCompetitor = (name: string, domains: string[]) =>
    run(`Add ${name}`, () => change('add-competitor', { brand_id: brandId, name, domains }), competitors.reload);
  const topicId = async (name: string): Promise<string> => {
    const found = (topics.data ?? []).find((t) => t.name.toLowerCase() === name.toLowerCase());
    if (found) return found.id;
    return (await change('create-topic', { brand_id: brandId, name })).id;
  };
  const addPrompts = (topic: string | null, texts: string[]) =>
    run(
      texts.length === 1 ? `Add "${texts[0]}"` : `Add ${texts.length} prompts`,
      async () =>
        change('add-prompts', {
          brand_id: brandId,
          ...(topic ? { topic_id: await topicId(topic) } : {}),
          prompts: texts.map((text) => ({ text, platforms: picked, regions: listOf(regionText) })),
        }),
      () => {
        topics.reload();
        prompts.reload();
      },
    );
  const stored = details.data?.sampling;
  const saveSamples = async (e: Event) => {
    e.preventDefault();
    setSamplesNote(undefined);
    setSamplesError(undefined);
    const typed = samples || String(estimate.data?.samples ?? '');
    const value = typed.trim() !== '' && Number.isFinite(Number(typed)) ? Number(typed) : typed;
    setBusy('Save samples');
    try {
      await changeAsTyped('update-brand', { id: brandId, sampling: { mode: 'fixed', samples: value } });
      setSamplesNote(`Saved: the daily capture asks each prompt ${value} ${value === 1 ? 'time' : 'times'} a day.`);
      details.reload();
    } catch (err) {
      // The server names the field: `sampling.samples: samples must be a whole number from 1 to 20`.
      setSamplesError(messageOf(err).replace(/^sampling\.samples: /, ''));
    }
    setBusy(undefined);
  };
  const tracked = new Set((prompts.data ?? []).map((x) => x.text.toLowerCase()));
  const trackedCompetitors = new Set((competitors.data ?? []).map((c) => c.name.toLowerCase()));
  const s = suggestions.data;

  return (
    <>
      <PageHead
        title={`Set up ${brand?.name ?? 'the brand'}`}
        intro={
          'Add the competitors, topics and prompts to track, choose where they are asked, and see what that ' +
          'costs before anything is captured. Each suggestion is added with one click.'
        }
      >
        <a class="button primary" href={`/app/brands/${brandId}`}>
          Go to the overview
        </a>
      </PageHead>
      {problem && <Problem message={problem} />}
      <Panel title="Your market" id="market-heading">
        <form
          class="grid-form"
          aria-labelledby="market-heading"
          onSubmit={(e) => {
            e.preventDefault();
            setAsked({ kind, category });
          }}
        >
          <Select id="setup-kind" label="Kind of business" value={kind} options={KINDS} onChange={setKind} />
          <Field
            id="setup-category"
            label="Category"
            value={category ?? s?.category ?? ''}
            onInput={setCategory}
            hint="What the brand sells, e.g. trail running shoes: it fills in the prompt templates."
          />
          <div class="form-foot">
            <button type="submit">Suggest</button>
          </div>
        </form>
      </Panel>

      <Panel title="Competitors" id="competitors-heading">
        <Pending load={competitors} />
        {competitors.data &&
          (competitors.data.length ? (
            <p>
              Tracked: <strong>{competitors.data.map((c) => c.name).join(', ')}</strong>
            </p>
          ) : (
            <Empty>No competitor tracked yet: add the brands you lose deals to.</Empty>
          ))}
        <Pending load={suggestions} />
        {s && s.competitors.length > 0 && (
          <ul class="suggestions" aria-label="Suggested competitors">
            {s.competitors
              .filter((c) => !trackedCompetitors.has(c.name.toLowerCase()))
              .map((c) => (
                <li key={c.name}>
                  <span>
                    {c.name} {c.domains[0] && <span class="muted">{c.domains[0]}</span>}{' '}
                    <span class="source">from {SOURCE[c.source] ?? c.source}</span>
                  </span>
                  <button type="button" disabled={Boolean(busy)} onClick={() => addCompetitor(c.name, c.domains)}>
                    Add <span class="sr-only">{c.name}</span>
                  </button>
                </li>
              ))}
          </ul>
        )}
        {s && s.competitors.length === 0 && (
          <p class="muted">
            {s.model.configured
              ? (s.model.error ?? 'The model suggested no competitor.')
              : 'No competitor to suggest: no model is configured (LLM_BASE_URL), and the brand has no answers ' +
                'yet to find competitors in.'}
          </p>
        )}
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const name = own.trim();
            if (name) addCompetitor(name, []).then(() => setOwn(''));
          }}
        >
          <Field id="own-competitor" label="Competitor" value={own} onInput={setOwn} />
          <button type="submit" disabled={Boolean(busy)}>
            Add competitor
          </button>
        </form>
      </Panel>

      <Panel title="Platforms, regions and samples" id="where-heading">
        <Pending load={platforms} />
        <fieldset class="platform-choice">
          <legend>Platforms</legend>
          {onPlan.map((x) => (
            <label key={x.platform} class="check">
              <input
                type="checkbox"
                checked={picked.includes(x.platform)}
                onChange={(e) =>
                  setChosen(e.currentTarget.checked ? [...picked, x.platform] : picked.filter((y) => y !== x.platform))
                }
              />{' '}
              {platformName(x.platform)} {!x.configured && <span class="badge bad">set {x.key_variable}</span>}
            </label>
          ))}
        </fieldset>
        <div class="grid-form">
          <Field
            id="setup-regions"
            label="Regions"
            value={regionText}
            onInput={setRegions}
            hint="Region codes separated by commas, e.g. US, GB: each prompt is asked in each."
          />
        </div>
        <form class="grid-form" onSubmit={saveSamples}>
          <Field
            id="setup-samples"
            label="Samples a day"
            value={samples || String(estimate.data?.samples ?? '')}
            onInput={(v) => {
              setSamples(v);
              setSamplesNote(undefined);
            }}
            inputMode="numeric"
            error={samplesError}
            hint={
              stored?.mode === 'adaptive'
                ? 'Answers per prompt, platform and region each day. The brand samples adaptively now: saving a ' +
                  'number here makes it fixed.'
                : 'Answers per prompt, platform and region each day, 1 to 20: the cost below follows it, and ' +
                  'saving keeps it for the daily capture.'
            }
          />
          <div class="form-foot">
            <button type="submit" disabled={Boolean(busy)}>
              Save samples a day
            </button>
            <span class="muted" role="status">
              {samplesNote}
            </span>
          </div>
        </form>
        <p class="muted">New prompts are asked on the platforms and in the regions chosen here.</p>
      </Panel>

      <Panel title="Topics and prompts" id="prompts-heading">
        <p>
          {activePrompts.length === 1 ? '1 active prompt.' : `${activePrompts.length} active prompts.`}{' '}
          {activePrompts.length === 0 && 'Add the questions your buyers ask AI assistants.'}
        </p>
        {s && !s.category && <Empty>Enter the category above: the templates need to know what the brand sells.</Empty>}
        {s?.topics.map((t) => {
          const fresh = t.prompts.filter((x) => !tracked.has(x.text.toLowerCase()));
          return (
            <div class="suggestion-group" key={`${t.source}-${t.name}`}>
              <h3>
                {t.name} <span class="source">from {SOURCE[t.source] ?? t.source}</span>
              </h3>
              <ul class="suggestions">
                {t.prompts.map((x) => (
                  <li key={x.text}>
                    <span>{x.text}</span>
                    {tracked.has(x.text.toLowerCase()) ? (
                      <span class="badge ok">Added</span>
                    ) : (
                      <button type="button" disabled={Boolean(busy)} onClick={() => addPrompts(t.name, [x.text])}>
                        Add <span class="sr-only">{x.text}</span>
                      </button>
                    )}
                  </li>
                ))}
              </ul>
              {fresh.length > 1 && (
                <button
                  type="button"
                  class="link"
                  disabled={Boolean(busy)}
                  onClick={() =>
                    addPrompts(
                      t.name,
                      fresh.map((x) => x.text),
                    )
                  }
                >
                  Add all {fresh.length} <span class="sr-only">of {t.name}</span>
                </button>
              )}
            </div>
          );
        })}
        {s && s.volumes.length > 0 && (
          <div class="suggestion-group">
            <h3>
              Most searched <span class="source">from keyword volumes</span>
            </h3>
            <ul class="suggestions">
              {s.volumes.map((x) => (
                <li key={x.text}>
                  <span>
                    {x.text} <span class="muted">{x.volume?.toLocaleString()} searches a month</span>
                  </span>
                  {tracked.has(x.text.toLowerCase()) ? (
                    <span class="badge ok">Added</span>
                  ) : (
                    <button type="button" disabled={Boolean(busy)} onClick={() => addPrompts(null, [x.text])}>
                      Add <span class="sr-only">{x.text}</span>
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </div>
        )}
        {s?.category && s.volumes.length === 0 && (
          <p class="muted">
            No imported keyword names “{s.category}”: import volumes with <code>answerscope volumes import</code> to see
            what people search.
          </p>
        )}
        {s?.model.configured === false && (
          <p class="muted">Set LLM_BASE_URL for the model's own suggestions of topics and prompts.</p>
        )}
        {s?.model.error && <p class="muted">{s.model.error}</p>}
      </Panel>

      <CostPreview estimate={estimate} noPlatforms={!picked.length} />
    </>
  );
}
