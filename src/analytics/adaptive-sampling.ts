// Adaptive sampling (docs/metrics.md "Adaptive sampling"): how many answers the daily capture takes
// for one (prompt, platform, region) cell. While the brand's mention rate over the cell's last 28
// days has a 95% Wilson interval wider than the target (half-width, in points), the cell gets
// `max_samples`; once it is narrower, `min_samples`. Fixed sampling takes the same number every
// day. Pure functions, no I/O: the daily capture, the capture preview and bench/sampling.ts (which
// simulates both) call the same ones.
import { round } from './formulas.ts';
import { wilson } from './intervals.ts';
import type { CellPlan } from '../tracking/capture/plan.ts';

export type { CellPlan, SampleReason } from '../tracking/capture/plan.ts';

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
export function cellSamples(h: CellHistory, s: SamplingSettings): CellPlan {
  const width = halfWidth(h);
  if (width === null) return { samples: s.max_samples, reason: 'no_history' };
  return width > s.target_half_width
    ? { samples: s.max_samples, reason: 'interval_wide' }
    : { samples: s.min_samples, reason: 'interval_narrow' };
}

/** What a cell wants before the limit: its plan, the fewest it keeps while others still can give, its width. */
export interface Wanted {
  plan: CellPlan;
  /** Cut to this first (adaptive: min_samples; fixed: 1); below it only when every cell is there. */
  floor: number;
  /** The cell's half-width (null: unknown, or a fixed brand's cell): the narrowest are cut first. */
  width: number | null;
}

/**
 * The cells' plans within `limit` captures: when they want more, cells are cut (reason `limit`)
 * narrowest first, the later of two alike first, each only as much as needed: first down to their
 * floor, then, if that is not enough, down to nothing (such a cell is not asked that day).
 */
export function fitToLimit(wanted: readonly Wanted[], limit: number): CellPlan[] {
  const plan = wanted.map((w) => ({ ...w.plan }));
  let over = plan.reduce((sum, p) => sum + p.samples, 0) - Math.max(0, limit);
  if (over <= 0) return plan;
  const order = wanted
    .map((w, i) => ({ i, width: w.width ?? Number.POSITIVE_INFINITY }))
    .sort((a, b) => a.width - b.width || b.i - a.i);
  for (const floorOf of [(i: number) => Math.min(wanted[i].floor, wanted[i].plan.samples), () => 0]) {
    for (const { i } of order) {
      if (over <= 0) return plan;
      const cut = Math.min(plan[i].samples - floorOf(i), over);
      if (cut <= 0) continue;
      plan[i] = { samples: plan[i].samples - cut, reason: 'limit' };
      over -= cut;
    }
  }
  return plan;
}

/** One brand's cells adaptively within a daily limit (bench/sampling.ts, and the rule's tests). */
export function planDay(
  cells: readonly CellHistory[],
  s: SamplingSettings,
  dailyLimit = Number.POSITIVE_INFINITY,
): CellPlan[] {
  return fitToLimit(
    cells.map((h) => ({ plan: cellSamples(h, s), floor: s.min_samples, width: halfWidth(h) })),
    dailyLimit,
  );
}
