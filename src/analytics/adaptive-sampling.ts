// Adaptive sampling (docs/metrics.md "Adaptive sampling"): how many answers the daily capture takes
// for one (prompt, platform, region) cell. While the brand's mention rate over the cell's last 28
// days has a 95% Wilson interval wider than the target (half-width, in points), the cell gets
// `max_samples`; once it is narrower, `min_samples`. Fixed sampling takes the same number every
// day. Pure functions, no I/O: the daily capture, the capture preview and bench/sampling.ts (which
// simulates both) call the same ones.
import { round } from './formulas.ts';
import { wilson } from './intervals.ts';

/** Days of a cell's history its interval is read over. */
export const SAMPLING_WINDOW_DAYS = 28;

export interface SamplingSettings {
  /** Answers a day while the interval is narrower than the target (default 1). */
  min_samples: number;
  /** Answers a day while it is wider. */
  max_samples: number;
  /** Half-width of the 95% interval aimed at, in percentage points (default 5). */
  target_half_width: number;
}

export const SAMPLING_DEFAULTS = { min_samples: 1, target_half_width: 5 } as const;

/**
 * Why a capture was planned (capture_runs.reason): `fixed` the brand samples a fixed number a day;
 * `no_history` the cell has no answer in its window, so its interval is unknown; `wide` its
 * interval is wider than the target; `narrow` it is within it, so only min_samples; `limit` the
 * plan's daily capture limit cut the cell down to min_samples.
 */
export type SampleReason = 'fixed' | 'no_history' | 'wide' | 'narrow' | 'limit';

/** A cell's last SAMPLING_WINDOW_DAYS days: its answers and how many of them name the brand. */
export interface CellHistory {
  answers: number;
  named: number;
}

/**
 * The half-width of the 95% Wilson interval of named / answers (its bounds as figures show them), in
 * points, 2 decimals; null without answers.
 */
export function halfWidth(h: CellHistory): number | null {
  const { ci95 } = wilson(h.named, h.answers);
  return ci95 ? round((ci95[1] - ci95[0]) / 2, 2) : null;
}

/** One cell's answers for the day, adaptively, and why. */
export function cellSamples(h: CellHistory, s: SamplingSettings): { samples: number; reason: SampleReason } {
  const width = halfWidth(h);
  if (width === null) return { samples: s.max_samples, reason: 'no_history' };
  return width > s.target_half_width
    ? { samples: s.max_samples, reason: 'wide' }
    : { samples: s.min_samples, reason: 'narrow' };
}

/**
 * Every cell's answers for the day, within the plan's daily limit: when the cells want more than
 * `dailyLimit` captures in all, the widest cells keep their max_samples and the rest are cut to
 * min_samples (reason `limit`), narrowest first. Cells come back in the order given.
 */
export function planDay(
  cells: readonly CellHistory[],
  s: SamplingSettings,
  dailyLimit = Number.POSITIVE_INFINITY,
): { samples: number; reason: SampleReason }[] {
  const plan = cells.map((h) => cellSamples(h, s));
  let total = plan.reduce((sum, p) => sum + p.samples, 0);
  if (total <= dailyLimit) return plan;
  // Cut the cells whose interval is narrowest first: they gain least from another answer.
  const order = cells
    .map((h, i) => ({ i, width: halfWidth(h) ?? Number.POSITIVE_INFINITY }))
    .filter(({ i }) => plan[i].samples > s.min_samples)
    .sort((a, b) => a.width - b.width || a.i - b.i);
  for (const { i } of order) {
    if (total <= dailyLimit) break;
    total -= plan[i].samples - s.min_samples;
    plan[i] = { samples: s.min_samples, reason: 'limit' };
  }
  return plan;
}

/**
 * The captures a day costs both ways, for a side-by-side preview: fixed (every cell `fixedSamples`)
 * and adaptive (planDay over the cells' histories), with the adaptive captures counted by reason.
 */
export function plannedCaptures(
  cells: readonly CellHistory[],
  s: SamplingSettings,
  fixedSamples: number,
  dailyLimit?: number,
): { fixed: number; adaptive: number; by_reason: Partial<Record<SampleReason, number>> } {
  const plan = planDay(cells, s, dailyLimit);
  const by_reason: Partial<Record<SampleReason, number>> = {};
  for (const p of plan) by_reason[p.reason] = (by_reason[p.reason] ?? 0) + p.samples;
  return {
    fixed: Math.min(cells.length * fixedSamples, dailyLimit ?? Number.POSITIVE_INFINITY),
    adaptive: plan.reduce((sum, p) => sum + p.samples, 0),
    by_reason,
  };
}
