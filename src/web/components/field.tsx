// A labelled input with its hint and its problem beside it, tied by aria-describedby, so a screen
// reader reads the message with the field and the field is marked invalid.
interface FieldProps {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'url';
  error?: string;
  hint?: string;
  autoComplete?: string;
  required?: boolean;
  inputMode?: 'decimal' | 'numeric';
}

/** The ids of a field's hint and error, for aria-describedby; undefined when it has neither. */
const describedBy = (p: { id: string; hint?: string; error?: string }) =>
  [p.hint ? `${p.id}-hint` : '', p.error ? `${p.id}-error` : ''].filter(Boolean).join(' ') || undefined;

/** A field's hint and error, with the ids `describedBy` names. */
export function Notes(p: { id: string; hint?: string; error?: string }) {
  return (
    <>
      {p.hint && (
        <p class="hint" id={`${p.id}-hint`}>
          {p.hint}
        </p>
      )}
      {p.error && (
        <p class="field-error" id={`${p.id}-error`}>
          {p.error}
        </p>
      )}
    </>
  );
}

export function Field(p: FieldProps) {
  return (
    <div class="field">
      <label for={p.id}>{p.label}</label>
      <input
        id={p.id}
        name={p.id}
        // Preact's types narrow attributes per input type; one field component serves four types.
        type={(p.type ?? 'text') as 'text'}
        value={p.value}
        onInput={(e) => p.onInput(e.currentTarget.value)}
        autoComplete={p.autoComplete ?? 'off'}
        required={p.required}
        inputMode={p.inputMode}
        aria-invalid={p.error ? 'true' : undefined}
        aria-describedby={describedBy(p)}
      />
      <Notes id={p.id} hint={p.hint} error={p.error} />
    </div>
  );
}

/** A multi-line field (a list typed one per line), with the same hint and error as `Field`. */
export function TextArea(p: {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: string;
  error?: string;
  rows?: number;
  required?: boolean;
}) {
  return (
    <div class="field">
      <label for={p.id}>{p.label}</label>
      <textarea
        id={p.id}
        name={p.id}
        rows={p.rows ?? 4}
        value={p.value}
        required={p.required}
        onInput={(e) => p.onInput(e.currentTarget.value)}
        aria-invalid={p.error ? 'true' : undefined}
        aria-describedby={describedBy(p)}
      />
      <Notes id={p.id} hint={p.hint} error={p.error} />
    </div>
  );
}

interface SelectProps {
  id: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
  error?: string;
}

export function Select(p: SelectProps) {
  return (
    <div class="field">
      <label for={p.id}>{p.label}</label>
      <select
        id={p.id}
        name={p.id}
        value={p.value}
        onChange={(e) => p.onChange(e.currentTarget.value)}
        aria-invalid={p.error ? 'true' : undefined}
        aria-describedby={describedBy(p)}
      >
        {p.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Notes id={p.id} error={p.error} />
    </div>
  );
}
