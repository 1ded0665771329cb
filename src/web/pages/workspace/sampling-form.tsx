// How the daily capture samples the brand (update-brand `sampling`, docs/metrics.md "Adaptive
// sampling"): a fixed number of answers a day per prompt, platform and region, or adaptive: the
// most while a cell's 28-day mention-rate interval is wider than the target, else the fewest.
import { useState } from 'preact/hooks';
import { changeAsTyped } from '../../api.ts';
import type { AsTyped, Params } from '../../operation-types.ts';
import { Field, Select } from '../../components/field.tsx';
import { Panel } from '../../components/page.tsx';
import { FormFoot, FormProblem, useStoredForm } from './rows.tsx';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import type { BrandDetails } from './brand-form.tsx';

const FIELDS = ['samples', 'min_samples', 'max_samples', 'target_half_width', 'sampling'];

const MODES = [
  { value: 'fixed', label: 'Fixed: the same every day' },
  { value: 'adaptive', label: 'Adaptive: more where the figures are unsure' },
];

/** A typed number as sent: a number when it reads as one, else the text, which the server refuses by name. */
const numberOf = (text: string) => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

export function SamplingForm(p: { brand: BrandDetails; onSaved: () => void }) {
  const initial = () => {
    const s = p.brand.sampling;
    return s.mode === 'fixed'
      ? { mode: 'fixed', samples: String(s.samples), min_samples: '1', max_samples: '', target_half_width: '5' }
      : {
          mode: 'adaptive',
          samples: '',
          min_samples: String(s.min_samples),
          max_samples: String(s.max_samples),
          target_half_width: String(s.target_half_width),
        };
  };
  const [form, setForm] = useStoredForm(initial);
  const [error, setError] = useState<FormError>();
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const set = (key: keyof ReturnType<typeof initial>) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setNote(undefined);
    const sampling: AsTyped<Params<'update-brand'>['sampling']> =
      form.mode === 'fixed'
        ? { mode: 'fixed', samples: numberOf(form.samples) }
        : {
            mode: 'adaptive',
            min_samples: numberOf(form.min_samples),
            max_samples: numberOf(form.max_samples),
            target_half_width: numberOf(form.target_half_width),
          };
    setBusy(true);
    try {
      await changeAsTyped('update-brand', { id: p.brand.id, sampling });
      setNote('Saved: the next daily capture samples this way.');
      p.onSaved();
    } catch (err) {
      const found = formError(err, FIELDS);
      // The server names a sampling field as `sampling.max_samples: ...`.
      const field = FIELDS.find((f) => found.message.startsWith(`sampling.${f}`)) ?? found.field;
      setError({ ...found, field: field === 'sampling' ? undefined : field });
    }
    setBusy(false);
  };

  return (
    <Panel title="Sampling" id="sampling-heading">
      <form class="grid-form" onSubmit={submit} aria-labelledby="sampling-heading">
        <Select id="sampling-mode" label="Sampling" value={form.mode} options={MODES} onChange={set('mode')} />
        {form.mode === 'fixed' ? (
          <Field
            id="sampling-samples"
            label="Samples a day"
            value={form.samples}
            onInput={set('samples')}
            inputMode="numeric"
            error={errorAt(error, 'samples')}
            hint="Answers per prompt, platform and region each day, 1 to 20."
          />
        ) : (
          <>
            <Field
              id="sampling-min"
              label="Fewest a day"
              value={form.min_samples}
              onInput={set('min_samples')}
              inputMode="numeric"
              error={errorAt(error, 'min_samples')}
              hint="Where the brand's mention rate is already sure enough."
            />
            <Field
              id="sampling-max"
              label="Most a day"
              value={form.max_samples}
              onInput={set('max_samples')}
              inputMode="numeric"
              error={errorAt(error, 'max_samples')}
              hint="While the rate's 95% interval over the last 28 days is wider than the target."
            />
            <Field
              id="sampling-target"
              label="Target half-width (points)"
              value={form.target_half_width}
              onInput={set('target_half_width')}
              inputMode="decimal"
              error={errorAt(error, 'target_half_width')}
              hint="How sure each prompt's rate on each platform should be: ±5 points by default."
            />
          </>
        )}
        <FormFoot label="Save sampling" busy={busy} note={note} />
        <FormProblem error={error} />
      </form>
    </Panel>
  );
}
