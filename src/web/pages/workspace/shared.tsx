// What the workspace settings' forms share: list fields typed as text (comma or line separated),
// and the platforms a prompt may name.
import { Notes } from '../../components/field.tsx';
import { PLATFORMS as ALL_PLATFORMS, PLATFORM_NAMES } from '../../../tenancy/tracked.ts';

/** "a, b\nc" → ["a", "b", "c"]: the API stores lists; people type them. */
export const listOf = (text: string) =>
  text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

export const textOf = (list: readonly string[]) => list.join(', ');

/** The platforms in the API's order, with their names. */
export const PLATFORMS = ALL_PLATFORMS.map((value) => ({ value, label: PLATFORM_NAMES[value] }));

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
