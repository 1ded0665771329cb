// The gates an evaluation must pass before a rule may fire or clear (docs/api.md section 15): most
// alerting tools fire on noise, so a window with too few answers, or whose capture mostly failed,
// decides nothing.
import type { Postgres } from '../stores/postgres.ts';
import { captureCompleteness } from '../tracking/capture/runs.ts';
import type { Window } from './firings.ts';
import type { WindowValue } from './metric-values.ts';

/** Answers (the visibility summary's n) each window must hold. */
export const MIN_ANSWERS = 20;
/** Share of planned capture slots, in percent, that must have succeeded in a window that has capture runs. */
export const MIN_COMPLETENESS = 80;

export type GateVerdict =
  | { pass: true }
  | { pass: false; reason: 'too_few_answers' | 'incomplete_capture' | 'no_value' };

export type WindowCompleteness = (w: Window) => Promise<number | null>;

/**
 * Succeeded capture slots / planned slots of the brand in a window, in percent (tracking's count,
 * the one visibility-confidence reports); null when the window has no capture runs (all its answers
 * were imported), which the gate does not judge. Each window is counted once per evaluation run: a
 * brand's rules on the same window_days share their windows.
 */
export function completenessOf(pg: Postgres, brandId: string): WindowCompleteness {
  const counted = new Map<string, Promise<number | null>>();
  return (w) => {
    const key = `${w.from}/${w.to}`;
    let percent = counted.get(key);
    if (!percent) {
      percent = captureCompleteness(pg, brandId, { fromDay: w.from, toDay: w.to }).then(({ planned, succeeded }) =>
        planned ? (100 * succeeded) / planned : null,
      );
      counted.set(key, percent);
    }
    return percent;
  };
}

export async function gate(
  completeness: WindowCompleteness,
  windows: { window: Window; value: WindowValue }[],
): Promise<GateVerdict> {
  if (windows.some((w) => w.value.n < MIN_ANSWERS)) return { pass: false, reason: 'too_few_answers' };
  if (windows.some((w) => w.value.value === null)) return { pass: false, reason: 'no_value' };
  for (const w of windows) {
    const percent = await completeness(w.window);
    if (percent !== null && percent < MIN_COMPLETENESS) return { pass: false, reason: 'incomplete_capture' };
  }
  return { pass: true };
}
