// The cost preview (docs/app.md "Cost before it is spent"): captures a day and a month for each
// platform, from the day's plan (plan.ts) or from a set-up being chosen, and what they would cost
// with each platform's provider, from a price table shipped with the project
// (provider-prices.json, every price with its public source and date) or PROVIDER_PRICES=FILE.
import fs from 'node:fs';
import { z } from 'zod';
import type { ProviderName, TrackingConfig } from '../../config.ts';
import { ConfigError } from '../../config.ts';
import { PLATFORMS, type Platform } from '../../tenancy/tracked.ts';
import type { Plan } from '../../tenancy/quotas.ts';
import { PLAN_PLATFORMS } from './plan.ts';
import { PROVIDERS, providerOf } from './engines/registry.ts';
import { platformConfigured } from './platform-status.ts';

/** A month of the preview: 30 daily captures. */
export const DAYS_PER_MONTH = 30;

const Unit = z.enum(['input_tokens', 'output_tokens', 'requests']);
const Price = z.object({
  what: z.string().min(1),
  unit: Unit,
  usd: z.number().nonnegative(),
  per: z.number().positive(),
  source: z.string().url(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  date_is: z.enum(['published', 'read']),
});
const ProviderPrices = z.object({
  model: z.string(),
  usage_per_answer: z.object({
    input_tokens: z.number().nonnegative(),
    output_tokens: z.number().nonnegative(),
    requests: z.number().nonnegative(),
  }),
  usage_note: z.string().optional(),
  prices: z.array(Price),
});
const PriceTable = z.object({
  currency: z.literal('USD'),
  about: z.string().optional(),
  providers: z.record(z.enum(Object.keys(PROVIDERS) as [ProviderName, ...ProviderName[]]), ProviderPrices.optional()),
});
export type PriceTable = z.infer<typeof PriceTable>;

const BUILT_IN = new URL('./provider-prices.json', import.meta.url);
const loaded = new Map<string, PriceTable>();

/** The table in force: PROVIDER_PRICES's file, else the built-in one; a bad file is a ConfigError. */
export function priceTable(tracking: Pick<TrackingConfig, 'pricesFile'>): PriceTable {
  const file = tracking.pricesFile ?? BUILT_IN.pathname;
  const known = loaded.get(file);
  if (known) return known;
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`PROVIDER_PRICES: cannot read ${file}: ${(err as Error).message}`);
  }
  const checked = PriceTable.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ConfigError(`PROVIDER_PRICES: ${file} at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  loaded.set(file, checked.data);
  return checked.data;
}

/** What one answer costs with the provider per the table, or null when the table has no price for it. */
export function answerCost(table: PriceTable, provider: ProviderName): number | null {
  const p = table.providers[provider];
  if (!p?.prices.length) return null;
  return p.prices.reduce((sum, price) => sum + (price.usd / price.per) * p.usage_per_answer[price.unit], 0);
}

export interface PlatformEstimate {
  platform: Platform;
  provider: ProviderName;
  /** The model the server is configured with, and the one the table prices. */
  model: string;
  priced_model: string | null;
  /** Whether the provider's key is set (the simulated engine costs nothing but counts as set). */
  configured: boolean;
  key_variable: string;
  captures_per_day: number;
  captures_per_month: number;
  cost_per_answer_usd: number | null;
  monthly_cost_usd: number | null;
  prices: z.infer<typeof Price>[];
  usage_per_answer: z.infer<typeof ProviderPrices>['usage_per_answer'] | null;
  usage_note: string | null;
}

export interface Estimate {
  currency: 'USD';
  days_per_month: number;
  price_table: 'built-in' | 'PROVIDER_PRICES';
  platforms: PlatformEstimate[];
  /** Platforms asked for that the plan does not capture. */
  not_on_plan: Platform[];
  captures_per_day: number;
  captures_per_month: number;
  /** The sum over the platforms the table prices; null when it prices none of them. */
  monthly_cost_usd: number | null;
  /** Platforms without a price in the table: their cost is not in the sum. */
  unpriced: Platform[];
}

/** Rounded to cents, so a sum and its parts agree on screen. */
const cents = (usd: number) => Math.round(usd * 100) / 100;

/**
 * The estimate for captures a day per platform (`perDay`), priced with the table; `configured`
 * tells which providers have a key (the engine's own view, registry.ts).
 */
export function estimate(
  tracking: TrackingConfig,
  perDay: Map<Platform, number>,
  notOnPlan: Platform[] = [],
): Estimate {
  const table = priceTable(tracking);
  const platforms: PlatformEstimate[] = [];
  for (const platform of PLATFORMS) {
    const captures = perDay.get(platform);
    if (captures === undefined) continue;
    const provider = providerOf(platform);
    const priced = table.providers[provider];
    const perAnswer = answerCost(table, provider);
    const month = captures * DAYS_PER_MONTH;
    platforms.push({
      platform,
      provider,
      model: tracking.providers[provider].model,
      priced_model: priced?.model ?? null,
      configured: platformConfigured(tracking, platform),
      key_variable: PROVIDERS[provider].keyVariable,
      captures_per_day: captures,
      captures_per_month: month,
      cost_per_answer_usd: perAnswer,
      monthly_cost_usd: perAnswer === null ? null : cents(perAnswer * month),
      prices: priced?.prices ?? [],
      usage_per_answer: priced?.usage_per_answer ?? null,
      usage_note: priced?.usage_note ?? null,
    });
  }
  const costed = platforms.filter((p) => p.monthly_cost_usd !== null);
  return {
    currency: 'USD',
    days_per_month: DAYS_PER_MONTH,
    price_table: tracking.pricesFile ? 'PROVIDER_PRICES' : 'built-in',
    platforms,
    not_on_plan: notOnPlan,
    captures_per_day: platforms.reduce((n, p) => n + p.captures_per_day, 0),
    captures_per_month: platforms.reduce((n, p) => n + p.captures_per_month, 0),
    monthly_cost_usd: costed.length ? cents(costed.reduce((n, p) => n + (p.monthly_cost_usd ?? 0), 0)) : null,
    unpriced: platforms.filter((p) => p.monthly_cost_usd === null).map((p) => p.platform),
  };
}

/**
 * Captures a day per platform of a set-up being chosen: each prompt on each chosen platform the
 * plan has, in each region, `samples` times; platforms the plan lacks are listed apart.
 */
export function chosenSetup(
  plan: Plan,
  setup: { platforms: readonly Platform[]; prompts: number; regions: number; samples: number },
): { perDay: Map<Platform, number>; notOnPlan: Platform[] } {
  const allowed = PLAN_PLATFORMS[plan] ?? [];
  const perDay = new Map<Platform, number>();
  const notOnPlan: Platform[] = [];
  for (const platform of PLATFORMS.filter((p) => setup.platforms.includes(p))) {
    if (allowed.includes(platform)) perDay.set(platform, setup.prompts * setup.regions * setup.samples);
    else notOnPlan.push(platform);
  }
  return { perDay, notOnPlan };
}
