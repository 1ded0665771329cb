// The cost preview (docs/app.md "Cost before it is spent"): captures a day and a month per platform
// and the monthly provider cost from the price table, for the brand as it is set up, or for a
// set-up being chosen on its set-up page (platforms, prompts, regions, samples); fixed and adaptive
// sampling side by side, each planned by the daily capture's own sampler (capture-sampling.ts).
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, commaList, isMissing } from './params.ts';
import { badRequest } from '../errors.ts';
import { isoDay } from '../instant.ts';
import { countByReason, planSlots, type Slot } from '../tracking/capture/plan.ts';
import { chosenSetup, estimate } from '../tracking/capture/prices.ts';
import { samplingOf } from '../tenancy/brand-sampling.ts';
import type { Sampling } from '../tenancy/workspace-fields.ts';
import { captureSampler, SampleReason as Reason } from './capture-sampling.ts';
import { planOf } from '../tenancy/organizations.ts';
import { trackedPrompts } from '../tenancy/prompts.ts';
import { PLATFORMS, type Platform } from '../tenancy/tracked.ts';

/** A whole number in [min, max], given as a number or a query string. */
function whole(name: string, min: number, max: number) {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z.preprocess(
    (v) => (isMissing(v) ? undefined : typeof v === 'string' ? Number(v.trim()) : v),
    z.number({ error: message }).int(message).min(min, message).max(max, message).optional(),
  );
}

const Price = z.object({
  what: z.string(),
  unit: z.enum(['input_tokens', 'output_tokens', 'requests']),
  usd: z.number(),
  per: z.number(),
  source: z.string().describe('The public page the price was read from'),
  date: z.string(),
  date_is: z.enum(['published', 'read']).describe("The page's own date, or the day it was read"),
});

const Estimate = z.object({
  currency: z.literal('USD'),
  samples: z.number().int().describe('Answers per prompt, platform and region a day in the fixed estimate'),
  sampling: z.enum(['fixed', 'adaptive']).describe('How the brand samples now: which of the two estimates it pays'),
  days_per_month: z.number().int(),
  price_table: z.enum(['built-in', 'PROVIDER_PRICES']),
  platforms: z.array(
    z.object({
      platform: z.enum(PLATFORMS),
      provider: z.string(),
      model: z.string().describe('The model this server captures with'),
      priced_model: z.string().nullable().describe('The model the price table prices'),
      configured: z.boolean(),
      key_variable: z.string(),
      captures_per_day: z.number().int(),
      captures_per_month: z.number().int(),
      cost_per_answer_usd: z.number().nullable(),
      monthly_cost_usd: z.number().nullable(),
      prices: z.array(Price),
      usage_per_answer: z
        .object({ input_tokens: z.number(), output_tokens: z.number(), requests: z.number() })
        .nullable()
        .describe("The table's assumption of one answer's usage"),
      usage_note: z.string().nullable(),
    }),
  ),
  not_on_plan: z.array(z.enum(PLATFORMS)),
  captures_per_day: z.number().int(),
  captures_per_month: z.number().int(),
  monthly_cost_usd: z.number().nullable(),
  unpriced: z.array(z.enum(PLATFORMS)),
  adaptive: z
    .object({
      min_samples: z.number().int(),
      max_samples: z.number().int(),
      target_half_width: z.number(),
      by_reason: z
        .partialRecord(Reason, z.number().int())
        .describe("Today's adaptive captures by why they are planned"),
      captures_per_day: z.number().int(),
      captures_per_month: z.number().int(),
      monthly_cost_usd: z.number().nullable(),
      platforms: z.array(
        z.object({
          platform: z.enum(PLATFORMS),
          captures_per_day: z.number().int(),
          captures_per_month: z.number().int(),
          monthly_cost_usd: z.number().nullable(),
        }),
      ),
    })
    .describe(
      "The same with adaptive sampling: today's plan of each cell from its last 28 days (a set-up being chosen " +
        'has no history yet: every cell max_samples), a month as 30 such days',
    ),
});

/** Captures a day per platform, and per reason, of planned slots. */
function perDayOf(slots: Slot[]) {
  const perDay = new Map<Platform, number>();
  for (const s of slots) perDay.set(s.platform, (perDay.get(s.platform) ?? 0) + 1);
  return { perDay, byReason: countByReason(slots) };
}

const platformList = commaList('platforms').transform((list, ctx) => {
  if (!list) return undefined;
  const bad = list.find((p) => !(PLATFORMS as readonly string[]).includes(p));
  if (bad) {
    ctx.addIssue({ code: 'custom', message: `platforms must be among: ${PLATFORMS.join(', ')}` });
    return z.NEVER;
  }
  return list as Platform[];
});

export const captureEstimate = operation({
  name: 'capture-estimate',
  method: 'GET',
  params: z.object({
    brand_id: brandId,
    platforms: platformList.describe('A set-up being chosen: its platforms. Omit for the brand as it is set up'),
    prompts: whole('prompts', 0, 10_000).describe("With platforms: prompts asked (default: the brand's active ones)"),
    regions: commaList('regions').describe("With platforms: regions asked in (default: the brand's region)"),
    samples: whole('samples', 1, 20).describe(
      "Fixed sampling's answers per prompt, platform and region a day (default: the brand's, else TRACKING_SAMPLES)",
    ),
    min_samples: whole('min_samples', 1, 20).describe("Adaptive sampling's fewest a day (default: the brand's, 1)"),
    max_samples: whole('max_samples', 1, 20).describe(
      "Adaptive sampling's most a day (default: the brand's, else the fixed samples)",
    ),
    target_half_width: z
      .preprocess(
        (v) => (isMissing(v) ? undefined : typeof v === 'string' ? Number(v.trim()) : v),
        z
          .number({ error: 'target_half_width must be a number of points' })
          .gt(0, 'target_half_width must be more than 0 and at most 50 points')
          .max(50, 'target_half_width must be more than 0 and at most 50 points')
          .optional(),
      )
      .describe("Adaptive sampling's target half-width in points (default: the brand's, 5)"),
  }),
  result: Estimate,
  description:
    "What the brand's daily capture asks and costs before it is spent: captures a day and a 30-day month per " +
    'platform and the monthly provider cost from the price table (each price with its public source and date; ' +
    'PROVIDER_PRICES replaces the table). For the brand as set up, or, with platforms (and prompts, regions, ' +
    "samples), for a set-up being chosen. Fixed sampling's figures at the top level, adaptive sampling's " +
    'beside them in adaptive.',
  run: async (ctx, p) => {
    const brand = await ctx.brand(p.brand_id);
    const tracking = ctx.config.tracking;
    const samples = p.samples ?? brand.samples ?? tracking.samples;
    const adaptive = {
      mode: 'adaptive' as const,
      min_samples: p.min_samples ?? brand.min_samples,
      max_samples: p.max_samples ?? brand.max_samples ?? samples,
      target_half_width: p.target_half_width ?? Number(brand.target_half_width),
    };
    if (adaptive.max_samples < adaptive.min_samples) throw badRequest('max_samples must be at least min_samples');
    let fixed: ReturnType<typeof perDayOf>;
    let adapted: ReturnType<typeof perDayOf>;
    let notOnPlan: Platform[] = [];
    if (p.platforms) {
      const prompts = p.prompts ?? (await trackedPrompts(ctx.stores.pg, brand.id)).length;
      const regions = p.regions?.length ? p.regions.length : 1;
      const plan = await planOf(ctx.stores.pg, brand.organization_id);
      const setup = { platforms: p.platforms, prompts, regions };
      const chosen = chosenSetup(plan, { ...setup, samples });
      const first = chosenSetup(plan, { ...setup, samples: adaptive.max_samples });
      const total = (m: Map<Platform, number>) => [...m.values()].reduce((a, b) => a + b, 0);
      notOnPlan = chosen.notOnPlan;
      fixed = { perDay: chosen.perDay, byReason: { fixed: total(chosen.perDay) } };
      adapted = { perDay: first.perDay, byReason: { no_history: total(first.perDay) } };
    } else {
      // Today's plan of the brand both ways, through the daily capture's sampler and limits.
      const plan = (as: Sampling) =>
        planSlots(ctx.stores.pg, { brandId: brand.id, day: isoDay(ctx.now()), sampler: captureSampler(ctx, { as }) });
      fixed = perDayOf(await plan({ mode: 'fixed', samples }));
      adapted = perDayOf(await plan(adaptive));
    }
    const a = estimate(tracking, adapted.perDay, notOnPlan);
    return {
      ...estimate(tracking, fixed.perDay, notOnPlan),
      samples,
      sampling: samplingOf(brand, tracking.samples).mode,
      adaptive: {
        min_samples: adaptive.min_samples,
        max_samples: adaptive.max_samples,
        target_half_width: adaptive.target_half_width,
        by_reason: adapted.byReason,
        captures_per_day: a.captures_per_day,
        captures_per_month: a.captures_per_month,
        monthly_cost_usd: a.monthly_cost_usd,
        platforms: a.platforms.map((x) => ({
          platform: x.platform,
          captures_per_day: x.captures_per_day,
          captures_per_month: x.captures_per_month,
          monthly_cost_usd: x.monthly_cost_usd,
        })),
      },
    };
  },
});
