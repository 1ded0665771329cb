// What the workspace lists share: a State column, the row buttons (change or rename, then
// deactivate/activate or remove) whose accessible names carry the row's name, an activate toggle
// that reports a failure under the row's name, the buttons under a form, the form's own problem, and a
// form's values kept while the row reloads.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { change } from '../../api.ts';
import type { Column } from '../../components/data-table.tsx';
import { Problem } from '../../components/page.tsx';
import type { FormError } from '../../form-error.ts';

export function stateColumn<Row extends { is_active: boolean }>(): Column<Row> {
  return {
    key: 'is_active',
    label: 'State',
    render: (r) => (r.is_active ? <span class="badge ok">Active</span> : <span class="badge">Inactive</span>),
  };
}

/** The actions column: `edit` opens the row's form; `extra` is the second button (toggle, remove). */
export function actionsColumn<Row>(render: (row: Row) => ComponentChildren): Column<Row> {
  return { key: 'actions', label: 'Actions', hideLabel: true, noCsv: true, render };
}

/** A link-styled button named "<label> <name>", the name for screen readers only. */
export function RowButton(p: { label: string; name: string; onClick: () => void }) {
  return (
    <button type="button" class="link" onClick={p.onClick}>
      {p.label} <span class="sr-only">{p.name}</span>
    </button>
  );
}

/** Deactivate or activate a row through `op` (update-topic, update-prompt); a failure is named. */
export function useActiveToggle<Row extends { id: string; is_active: boolean }>(
  op: 'update-topic' | 'update-prompt',
  nameOf: (row: Row) => string,
  onChanged: () => void,
) {
  const [problem, setProblem] = useState<string>();
  const toggle = async (row: Row) => {
    setProblem(undefined);
    try {
      await change(op, { id: row.id, is_active: !row.is_active });
      onChanged();
    } catch (err) {
      setProblem(`${nameOf(row)}: ${(err as Error).message}`);
    }
  };
  return { problem, toggle };
}

/** The toggle's button: "Deactivate <name>" or "Activate <name>". */
export const ToggleButton = (p: { active: boolean; name: string; onClick: () => void }) => (
  <RowButton label={p.active ? 'Deactivate' : 'Activate'} name={p.name} onClick={p.onClick} />
);

/** The submit button of a row's form, and Cancel when the form edits an existing row. */
export function FormButtons(p: { label: string; busy: boolean; onCancel?: () => void }) {
  return (
    <div class="actions">
      <button type="submit" class="primary" disabled={p.busy}>
        {p.label}
      </button>
      {p.onCancel && (
        <button type="button" onClick={p.onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}

/** The submit button of a form that stays open, with its outcome read out beside it. */
export function FormFoot(p: { label: string; busy: boolean; note: string | undefined }) {
  return (
    <div class="form-foot">
      <button type="submit" class="primary" disabled={p.busy}>
        {p.label}
      </button>
      <span class="muted" role="status">
        {p.note}
      </span>
    </div>
  );
}

/** A failure no field owns, under the form. */
export const FormProblem = (p: { error: FormError | undefined }) =>
  p.error && !p.error.field ? <Problem message={p.error.message} /> : null;

/** A sub-form under the list with its heading. */
export const SubForm = (p: { title: ComponentChildren; children: ComponentChildren }) => (
  <div class="subform">
    <h3>{p.title}</h3>
    {p.children}
  </div>
);

/**
 * A form's values: the stored ones (`stored()`), and back to them when they change (a save), not on
 * every reload of the row: a reload another form's save caused must not wipe what is being typed.
 */
export function useStoredForm<T>(stored: () => T) {
  const [form, setForm] = useState(stored);
  const key = JSON.stringify(stored());
  useEffect(() => setForm(stored()), [key]);
  return [form, setForm] as const;
}
