// What briefs and drafts share: the generator's input for an opportunity, and running a generation
// on one unit of the monthly quota, given back when the generation fails.
import type { Config } from '../config.ts';
import type { Stores } from '../stores/index.ts';
import type { Postgres } from '../stores/postgres.ts';
import { ApiError, notFound } from '../errors.ts';
import { brandById } from '../tenancy/brands.ts';
import { releaseQuota, useQuota, type QuotaKind } from '../tenancy/quotas.ts';
import { OPPORTUNITY_NOT_FOUND, type OpportunityRecord } from './opportunity-store.ts';
import { volumesOf } from './volumes.ts';
import type { GenerationInput } from './llm/generator-types.ts';
import { GenerationError } from './llm/openai.ts';

/**
 * What generating a brief or a draft needs: the stores, the config (it picks the generator) and
 * the clock (the quota's month). An operation's context has all three.
 */
export interface GenerationDeps {
  stores: Stores;
  config: Config;
  now(): Date;
}

export async function generationInput(pgdb: Postgres, opp: OpportunityRecord): Promise<GenerationInput> {
  const [brand, volumes] = await Promise.all([brandById(pgdb, opp.brand_id), volumesOf(pgdb, [opp.prompt_id])]);
  const v = volumes.get(opp.prompt_id);
  return {
    brand: {
      name: brand?.name ?? '',
      domains: brand?.domains ?? [],
      industry: brand?.industry ?? '',
      region: brand?.region ?? '',
    },
    opportunity: {
      id: opp.id,
      type: opp.type,
      title: opp.title,
      description: opp.description,
      prompt_text: opp.prompt_text,
      source_data: opp.source_data,
    },
    volumes: v ? { intent: v.intent, keywords: v.keywords, google_volumes: v.google_volumes } : undefined,
  };
}

/**
 * Takes one unit of `kind` (402 naming the limit when none is left), runs `fn`, and gives the unit
 * back to the month it came from when `fn` throws. A generator's failure becomes a 500 that says
 * what went wrong; the other errors pass through as they are.
 */
export async function withQuotaUnit<T>(
  pgdb: Postgres,
  organizationId: string,
  kind: QuotaKind,
  now: Date,
  fn: () => Promise<T>,
): Promise<T> {
  const unit = await useQuota(pgdb, organizationId, kind, now);
  try {
    return await fn();
  } catch (err) {
    await releaseQuota(pgdb, organizationId, kind, unit.period);
    if (err instanceof GenerationError) throw new ApiError(500, err.message);
    throw err;
  }
}

/**
 * Saves a generated brief or draft in place of the earlier one and tells whether there was one.
 * `prev` reads the row as it was before this update. The column comes from the fixed pair below.
 */
export async function saveGenerated(pgdb: Postgres, opportunityId: string, kind: 'brief' | 'draft', value: unknown) {
  const column = kind === 'brief' ? 'brief' : 'draft';
  const { rows } = await pgdb.query<{ had: boolean; generated_at: Date }>(
    `UPDATE content_opportunities o SET ${column} = $2::jsonb, ${column}_generated_at = clock_timestamp()
       FROM (SELECT id, ${column} IS NOT NULL AS had FROM content_opportunities WHERE id = $1) prev
      WHERE o.id = prev.id
      RETURNING prev.had, o.${column}_generated_at AS generated_at`,
    [opportunityId, JSON.stringify(value)],
  );
  if (!rows[0]) throw notFound(OPPORTUNITY_NOT_FOUND);
  return { generated_at: new Date(rows[0].generated_at).toISOString(), regenerated: rows[0].had };
}
