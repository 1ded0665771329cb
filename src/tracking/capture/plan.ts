// What one day's capture owes: a slot per (active prompt, platform, region, sample), on the
// platforms the prompt names that its organization's plan allows (docs/api.md section 1). How many
// samples each (prompt, platform, region) cell takes, and why, is the sampler's decision: the
// brand's fixed or adaptive sampling within the plan's capture limits (operations/capture-sampling.ts,
// which composes the analytics this module cannot import).
import type { Postgres } from '../../stores/postgres.ts';
import type { Plan } from '../../tenancy/quotas.ts';
import type { SamplingColumns } from '../../tenancy/brand-sampling.ts';
import { trackedPrompts } from '../../tenancy/prompts.ts';
import { uuidV5 } from '../ingest/ids.ts';
import { PLATFORMS, type Platform } from '../../tenancy/tracked.ts';

const ALL_BUT_GROK = PLATFORMS.filter((p) => p !== 'grok');

/** Platforms tracked daily per plan. */
export const PLAN_PLATFORMS: Record<Plan, readonly Platform[]> = {
  starter: ['chatgpt', 'perplexity'],
  growth: ALL_BUT_GROK,
  business: ALL_BUT_GROK,
};

export interface Slot {
  /** The capture run's id, and the id of the answer it stores (captureId). */
  id: string;
  organizationId: string;
  brandId: string;
  promptId: string;
  promptText: string;
  platform: Platform;
  region: string;
  day: string;
  sample: number;
  /** Why the slot was planned (capture_runs.reason). */
  reason: SampleReason;
}

/**
 * Why a capture was planned (capture_runs.reason): `fixed` the brand samples a fixed number a day;
 * `no_history` the cell has no answer in its window, so its interval is unknown; `interval_wide`
 * its interval is wider than the target; `interval_narrow` it is within it, so only min_samples;
 * `limit` the plan's daily or monthly capture limit cut the cell.
 */
export type SampleReason = 'fixed' | 'no_history' | 'interval_wide' | 'interval_narrow' | 'limit';

/** A cell's answers for the day, and why. */
export interface CellPlan {
  samples: number;
  reason: SampleReason;
}

/** One (active prompt, platform, region) of a day, before its samples are decided. */
export interface Cell {
  promptId: string;
  promptText: string;
  platform: Platform;
  region: string;
  brandId: string;
  organizationId: string;
  plan: Plan;
  sampling: SamplingColumns;
}

/** Slots by why they were planned (the job's summary, capture progress, the preview). */
export function countByReason(slots: readonly Pick<Slot, 'reason'>[]): Partial<Record<SampleReason, number>> {
  const out: Partial<Record<SampleReason, number>> = {};
  for (const s of slots) out[s.reason] = (out[s.reason] ?? 0) + 1;
  return out;
}

/** Decides each cell's samples for `day`, in the cells' order. */
export type Sampler = (cells: Cell[], day: string) => Promise<CellPlan[]>;

/**
 * The id of a slot's capture run and of its answer: deterministic, so capturing a slot again (a
 * re-run, or a worker that died after storing the answer) replaces the answer instead of adding one.
 */
export function captureId(s: {
  promptId: string;
  platform: string;
  region: string;
  day: string;
  sample: number;
}): string {
  return uuidV5(`capture|${s.promptId}|${s.platform}|${s.region}|${s.day}|${s.sample}`);
}

/** The prompt's platforms that the plan allows, in the platform list's order; none named means all the plan has. */
function platformsFor(promptPlatforms: readonly string[], plan: Plan): Platform[] {
  const allowed = PLAN_PLATFORMS[plan] ?? [];
  const asked = promptPlatforms.length ? promptPlatforms : allowed;
  return PLATFORMS.filter((p) => allowed.includes(p) && asked.includes(p));
}

/** A prompt's regions, or the brand's region (US when unset) when it has none. */
function regionsFor(promptRegions: readonly string[], brandRegion: string): string[] {
  const list = promptRegions.map((r) => r.trim()).filter(Boolean);
  return [...new Set(list.length ? list : [brandRegion.trim() || 'US'])];
}

/** Every (prompt, platform, region) cell of one brand or all; prompts of an inactive topic are not asked. */
export async function planCells(pg: Postgres, opts: { brandId?: string }): Promise<Cell[]> {
  const rows = await trackedPrompts(pg, opts.brandId);
  const cells: Cell[] = [];
  for (const p of rows) {
    for (const platform of platformsFor(p.platforms, p.plan)) {
      for (const region of regionsFor(p.regions, p.brand_region)) {
        cells.push({
          promptId: p.id,
          promptText: p.text,
          platform,
          region,
          brandId: p.brand_id,
          organizationId: p.organization_id,
          plan: p.plan,
          sampling: p.sampling,
        });
      }
    }
  }
  return cells;
}

/** Every slot of `day` for one brand or all: each cell's samples as the sampler decides. */
export async function planSlots(
  pg: Postgres,
  opts: { brandId?: string; day: string; sampler: Sampler },
): Promise<Slot[]> {
  const cells = await planCells(pg, opts);
  const plans = await opts.sampler(cells, opts.day);
  const slots: Slot[] = [];
  cells.forEach((c, i) => {
    for (let sample = 0; sample < plans[i].samples; sample++) {
      const key = { promptId: c.promptId, platform: c.platform, region: c.region, day: opts.day, sample };
      slots.push({
        ...key,
        id: captureId(key),
        organizationId: c.organizationId,
        brandId: c.brandId,
        promptText: c.promptText,
        reason: plans[i].reason,
      });
    }
  });
  return slots;
}
