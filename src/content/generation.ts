// What briefs and drafts share: the generator's input for an opportunity, and running a generation
// on one unit of the monthly quota, given back when the generation fails.
import type { Postgres } from '../stores/postgres.ts';
import { ApiError } from '../errors.ts';
import { brandById } from '../tenancy/brands.ts';
import { releaseQuota, useQuota, type QuotaKind } from '../tenancy/quotas.ts';
import type { OpportunityRecord } from './opportunity-store.ts';
import { volumesOf } from './volumes.ts';
import type { GenerationInput } from './llm/generator.ts';
import { GenerationError } from './llm/openai.ts';

export async function generationInput(pgdb: Postgres, opp: OpportunityRecord): Promise<GenerationInput> {
  const [brand, volumes] = await Promise.all([brandById(pgdb, opp.brand_id), volumesOf(pgdb, [opp.prompt_id])]);
  const v = volumes.get(opp.prompt_id);
  return {
    brand: { name: brand?.name ?? '', domains: brand?.domains ?? [], industry: brand?.industry ?? '', region: brand?.region ?? '' },
    opportunity: {
      id: opp.id, type: opp.type, title: opp.title, description: opp.description,
      prompt_text: opp.prompt_text, source_data: opp.source_data,
    },
    volumes: v ? { intent: v.intent, keywords: v.keywords, google_volumes: v.google_volumes } : undefined,
  };
}

/**
 * Takes one unit of `kind` (402 naming the limit when none is left), runs `fn`, and gives the unit
 * back to the month it came from when `fn` throws. A generator's failure becomes a 500 that says
 * what went wrong; the other errors pass through as they are.
 */
export async function withQuotaUnit<T>(pgdb: Postgres, organizationId: string, kind: QuotaKind, now: Date, fn: () => Promise<T>): Promise<T> {
  const unit = await useQuota(pgdb, organizationId, kind, now);
  try {
    return await fn();
  } catch (err) {
    await releaseQuota(pgdb, organizationId, kind, unit.period);
    if (err instanceof GenerationError) throw new ApiError(500, err.message);
    throw err;
  }
}
