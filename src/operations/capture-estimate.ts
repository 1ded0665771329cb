// The cost preview (docs/app.md "Cost before it is spent"): captures a day and a month per platform
// and the monthly provider cost from the price table, for the brand as it is set up, or for a
// set-up being chosen on its set-up page (platforms, prompts, regions, samples).
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, commaList, isMissing } from './params.ts';
import { planSlots } from '../tracking/capture/plan.ts';
import { chosenSetup, estimate } from '../tracking/capture/prices.ts';
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
  samples: z.number().int().describe('Answers per prompt, platform and region a day in this estimate'),
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
});

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
      'Answers per prompt, platform and region a day (default TRACKING_SAMPLES)',
    ),
  }),
  result: Estimate,
  description:
    "What the brand's daily capture asks and costs before it is spent: captures a day and a 30-day month per platform and the monthly provider cost from the price table (each price with its public source and date; PROVIDER_PRICES replaces the table). For the brand as set up, or, with platforms (and prompts, regions, samples), for a set-up being chosen.",
  run: async (ctx, p) => {
    const brand = await ctx.brand(p.brand_id);
    const tracking = ctx.config.tracking;
    const samples = p.samples ?? tracking.samples;
    if (p.platforms) {
      const prompts = p.prompts ?? (await trackedPrompts(ctx.stores.pg, brand.id)).length;
      const regions = p.regions?.length ? p.regions.length : 1;
      const plan = await planOf(ctx.stores.pg, brand.organization_id);
      const chosen = chosenSetup(plan, { platforms: p.platforms, prompts, regions, samples });
      return { ...estimate(tracking, chosen.perDay, chosen.notOnPlan), samples };
    }
    const slots = await planSlots(ctx.stores.pg, { brandId: brand.id, day: '2000-01-01', samples });
    const perDay = new Map<Platform, number>();
    for (const s of slots) perDay.set(s.platform, (perDay.get(s.platform) ?? 0) + 1);
    return { ...estimate(tracking, perDay), samples };
  },
});
