// What the workspace settings' forms share: list fields typed as text (comma or line separated),
// the platforms a prompt may name, and where a failure goes.
import { Failure, fieldOf, messageOf } from '../../api.ts';
import { Notes } from '../../components/field.tsx';
import { PLATFORMS as ALL_PLATFORMS, type Platform } from '../../../tenancy/tracked.ts';

/** "a, b\nc" → ["a", "b", "c"]: the API stores lists; people type them. */
export const listOf = (text: string) =>
  text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

export const textOf = (list: readonly string[]) => list.join(', ');

/** The names people know the API's platform slugs by (docs/workspace.md). */
const PLATFORM_NAMES: Record<Platform, string> = {
  chatgpt: 'ChatGPT',
  perplexity: 'Perplexity',
  gemini: 'Gemini',
  google_ai_overviews: 'Google AI Overviews',
  google_ai_mode: 'Google AI Mode',
  claude: 'Claude',
  copilot: 'Copilot',
  grok: 'Grok',
};

/** The platforms in the API's order, with their names. */
export const PLATFORMS = ALL_PLATFORMS.map((value) => ({ value, label: PLATFORM_NAMES[value] }));

export const platformLabel = (slug: string) => PLATFORMS.find((p) => p.value === slug)?.label ?? slug;

export interface FormError {
  field?: string;
  message: string;
}

/**
 * A failure placed beside its field: the API's messages name their parameter first (`name is
 * required`, `domains.1: ...`); a 409 (`Competitor "X" already exists`) and a 402 (the prompt
 * limit) are about the field that names the thing, `byStatus`. Anything else is the form's.
 */
export function formError(err: unknown, fields: string[], byStatus: Partial<Record<number, string>> = {}): FormError {
  const message = messageOf(err);
  if (!(err instanceof Failure)) return { message };
  // fieldOf knows `name ...` and `name: ...`; a list's item is `domains.1: ...`.
  const named = fieldOf(err, fields) ?? fields.find((n) => message.startsWith(`${n}.`));
  return { field: named ?? byStatus[err.status], message };
}

/** The error of one field, or nothing. */
export const errorAt = (error: FormError | undefined, field: string) =>
  error?.field === field ? error.message : undefined;

/** Platform checkboxes; none ticked means every platform of the plan. */
export function PlatformChoice(p: {
  id: string;
  value: string[];
  onChange: (value: string[]) => void;
  error?: string;
}) {
  const toggle = (slug: string, on: boolean) => p.onChange(on ? [...p.value, slug] : p.value.filter((s) => s !== slug));
  return (
    <fieldset class="platforms" aria-describedby={`${p.id}-hint${p.error ? ` ${p.id}-error` : ''}`}>
      <legend>Platforms</legend>
      <div class="check-grid">
        {PLATFORMS.map((pl) => (
          <label class="check" key={pl.value}>
            <input
              type="checkbox"
              checked={p.value.includes(pl.value)}
              onChange={(e) => toggle(pl.value, e.currentTarget.checked)}
            />
            {pl.label}
          </label>
        ))}
      </div>
      <Notes id={p.id} hint="None ticked: every platform of your plan." error={p.error} />
    </fieldset>
  );
}
