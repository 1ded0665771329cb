// The brand itself (update-brand): name, industry, region, domains and aliases. Only the fields
// that differ from what is stored are sent, so a change of industry queues no re-analysis.
import { useState } from 'preact/hooks';
import { change } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { Field } from '../../components/field.tsx';
import { Panel } from '../../components/page.tsx';
import { FormFoot, FormProblem, useStoredForm } from './rows.tsx';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import { listOf, textOf } from './shared.tsx';

export type BrandDetails = Result<'brands'>[number];

/** How the daily capture samples the brand (update-brand `sampling`). */
export type Sampling = BrandDetails['sampling'];

const FIELDS = ['name', 'industry', 'region', 'domains', 'aliases'];

export function BrandForm(p: { brand: BrandDetails; onSaved: (reanalysisQueued: boolean) => void }) {
  const initial = () => ({
    name: p.brand.name,
    industry: p.brand.industry,
    region: p.brand.region,
    domains: textOf(p.brand.domains),
    aliases: textOf(p.brand.aliases),
  });
  const [form, setForm] = useStoredForm(initial);
  const [error, setError] = useState<FormError>();
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setNote(undefined);
    const changes: Record<string, unknown> = {};
    if (form.name.trim() !== p.brand.name) changes.name = form.name;
    if (form.industry.trim() !== p.brand.industry) changes.industry = form.industry;
    if (form.region.trim() !== p.brand.region) changes.region = form.region;
    if (textOf(listOf(form.domains)) !== textOf(p.brand.domains)) changes.domains = listOf(form.domains);
    if (textOf(listOf(form.aliases)) !== textOf(p.brand.aliases)) changes.aliases = listOf(form.aliases);
    if (!Object.keys(changes).length) return setNote('Nothing to save: every field is as stored.');
    setBusy(true);
    try {
      const saved = await change('update-brand', { id: p.brand.id, ...changes });
      setNote(saved.reanalysis_queued ? 'Saved. A re-analysis of the stored answers is queued.' : 'Saved.');
      p.onSaved(saved.reanalysis_queued);
    } catch (err) {
      // A slug taken (409) can only come from the name's default; it is the name's problem here.
      setError(formError(err, FIELDS, { 409: 'name' }));
    }
    setBusy(false);
  };

  return (
    <Panel title="Brand" id="brand-heading">
      <form class="grid-form" onSubmit={submit} aria-labelledby="brand-heading">
        <Field
          id="brand-name"
          label="Name"
          value={form.name}
          onInput={set('name')}
          error={errorAt(error, 'name')}
          required
        />
        <Field
          id="brand-industry"
          label="Industry"
          value={form.industry}
          onInput={set('industry')}
          error={errorAt(error, 'industry')}
        />
        <Field
          id="brand-region"
          label="Region"
          value={form.region}
          onInput={set('region')}
          error={errorAt(error, 'region')}
          hint="A region code such as US: the region prompts are asked in unless they name their own."
        />
        <Field
          id="brand-domains"
          label="Domains"
          value={form.domains}
          onInput={set('domains')}
          error={errorAt(error, 'domains')}
          hint="Bare domains, separated by commas, e.g. acme.example (sub-domains count too)."
        />
        <Field
          id="brand-aliases"
          label="Aliases"
          value={form.aliases}
          onInput={set('aliases')}
          error={errorAt(error, 'aliases')}
          hint="Other names answers use for the brand, separated by commas."
        />
        <FormFoot label="Save brand" busy={busy} note={note} />
        <FormProblem error={error} />
      </form>
    </Panel>
  );
}
