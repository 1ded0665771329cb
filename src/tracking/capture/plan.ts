// What one day's capture owes: a slot per (active prompt, platform, region, sample), on the
// platforms the prompt names that its organization's plan allows (docs/api.md section 1).
import type { Postgres } from '../../stores/postgres.ts';
import type { Plan } from '../../tenancy/quotas.ts';
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
}

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

/** Every slot of `day` for one brand or all; prompts of an inactive topic are not asked. */
export async function planSlots(
  pg: Postgres,
  opts: { brandId?: string; day: string; samples: number },
): Promise<Slot[]> {
  const rows = await trackedPrompts(pg, opts.brandId);
  const slots: Slot[] = [];
  for (const p of rows) {
    for (const platform of platformsFor(p.platforms, p.plan)) {
      for (const region of regionsFor(p.regions, p.brand_region)) {
        for (let sample = 0; sample < opts.samples; sample++) {
          const key = { promptId: p.id, platform, region, day: opts.day, sample };
          slots.push({
            ...key,
            id: captureId(key),
            organizationId: p.organization_id,
            brandId: p.brand_id,
            promptText: p.text,
          });
        }
      }
    }
  }
  return slots;
}
