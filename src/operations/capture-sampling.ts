// The daily capture's sampler (tracking/capture/plan.ts `Sampler`): each (prompt, platform, region)
// cell's answers for a day and why, by its brand's sampling (docs/metrics.md "Adaptive sampling"),
// within the plan's daily and monthly capture limits (tenancy/capture-limits.ts). It composes
// tracking (the cells, the slots already recorded) with analytics (the cells' history and the rule),
// which tracking cannot import itself (analytics imports tracking): so it sits here, beside the
// operations and jobs that start a capture or preview one.
import { z } from 'zod';
import type { Stores } from '../stores/index.ts';
import type { Config } from '../config.ts';
import type { Cell, CellPlan, Sampler } from '../tracking/capture/plan.ts';
import { recordedCaptures } from '../tracking/capture/runs.ts';
import { CAPTURE_LIMITS } from '../tenancy/capture-limits.ts';
import { brandById } from '../tenancy/brands.ts';
import { samplingOf } from '../tenancy/brand-sampling.ts';
import type { Sampling } from '../tenancy/workspace-fields.ts';
import { cellSamples, fitToLimit, halfWidth, type Wanted } from '../analytics/adaptive-sampling.ts';
import { cellHistories, cellKey } from '../analytics/sampling-history.ts';

/** Why a capture was planned, as the operations' results say it (plan.ts SampleReason). */
export const SampleReason = z.enum(['fixed', 'no_history', 'interval_wide', 'interval_narrow', 'limit']);

/** The indexes of `list`'s items by key, in order. */
function indexesBy<T>(list: readonly T[], key: (t: T) => string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  list.forEach((t, i) => {
    const k = key(t);
    const l = out.get(k);
    if (l) l.push(i);
    else out.set(k, [i]);
  });
  return out;
}

/**
 * The sampler of the brands' own settings, or, with `as`, of that sampling for every brand (the
 * capture preview's fixed and adaptive columns).
 */
export function captureSampler(deps: { stores: Stores; config: Config }, opts: { as?: Sampling } = {}): Sampler {
  const { stores, config } = deps;
  return async (cells: Cell[], day: string): Promise<CellPlan[]> => {
    const wanted: Wanted[] = [];
    for (const [brandId, at] of indexesBy(cells, (c) => c.brandId)) {
      const s = opts.as ?? samplingOf(cells[at[0]].sampling, config.tracking.samples);
      if (s.mode === 'fixed') {
        const samples = s.samples ?? config.tracking.samples;
        for (const i of at) wanted[i] = { plan: { samples, reason: 'fixed' }, floor: 1, width: null };
        continue;
      }
      const brand = await brandById(stores.pg, brandId);
      const histories = brand ? await cellHistories(stores.ch, brand, day) : new Map();
      for (const i of at) {
        const h = histories.get(cellKey(cells[i])) ?? { answers: 0, named: 0 };
        wanted[i] = { plan: cellSamples(h, s), floor: s.min_samples, width: halfWidth(h) };
      }
    }
    const plans = wanted.map((w) => w.plan);
    for (const [organizationId, at] of indexesBy(cells, (c) => c.organizationId)) {
      const limits = CAPTURE_LIMITS[cells[at[0]].plan];
      const brands = [...new Set(at.map((i) => cells[i].brandId))];
      const used = await recordedCaptures(stores.pg, organizationId, day, brands);
      const budget = Math.min(limits.daily - used.day, limits.monthly - used.month - used.day);
      const fitted = fitToLimit(
        at.map((i) => wanted[i]),
        budget,
      );
      at.forEach((i, k) => {
        plans[i] = fitted[k];
      });
    }
    return plans;
  };
}
