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

export function Field(p: FieldProps) {
  const described = [p.hint ? `${p.id}-hint` : '', p.error ? `${p.id}-error` : ''].filter(Boolean).join(' ');
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
        aria-describedby={described || undefined}
      />
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
        aria-describedby={p.error ? `${p.id}-error` : undefined}
      >
        {p.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {p.error && (
        <p class="field-error" id={`${p.id}-error`}>
          {p.error}
        </p>
      )}
    </div>
  );
}
