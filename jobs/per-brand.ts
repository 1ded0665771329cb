// The loop of the jobs that work brand by brand (analyze-volumes, generate-opportunities,
// suggest-topics): the brands in scope (`--brand` or every brand), one after another, and the sum
// of each brand's counts. Each job supplies only its per-brand call and the counts it reports.
import type { BrandRecord } from '../src/tenancy/brands.ts';
import { brandsInScope } from '../src/content/scope.ts';
import type { JobArgs, JobContext } from './registry.ts';

/** Prints as {date, brands, ...counts}, the counts in the order `counts` names them. */
export type PerBrandSummary<K extends string> = { date: string; brands: number } & Record<K, number>;

export async function perBrand<K extends string>(
  ctx: JobContext,
  args: JobArgs,
  counts: readonly K[],
  fn: (brand: BrandRecord) => Promise<Record<K, number>>,
): Promise<PerBrandSummary<K>> {
  const brands = await brandsInScope(ctx.stores.pg, args.brandId);
  const total = Object.fromEntries(counts.map((k) => [k, 0])) as Record<K, number>;
  // One brand at a time: the brands share the stores, and a job is no hurry.
  for (const brand of brands) {
    const r = await fn(brand);
    for (const k of counts) total[k] += r[k];
  }
  return { date: args.date, brands: brands.length, ...total };
}
