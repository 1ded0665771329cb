// From validated request parameters to analytics Filters: the brand resolved in the caller's
// tenant, a topic resolved to its prompts (404 `Topic not found` when not the brand's), a prompt
// checked to be the brand's (404 `Prompt not found`), a source checked to be one the brand's
// answers come from (400), its answers read in the generation that holds their analysis.
import type { Ctx } from './registry.ts';
import type { Filters } from '../analytics/filters.ts';
import type { BrandRecord } from '../tenancy/brands.ts';
import type { Queryable } from '../stores/postgres.ts';
import { badRequest, notFound } from '../errors.ts';
import { PROMPT_NOT_FOUND, promptsById, topicPromptIds } from '../tenancy/prompts.ts';
import { DEFAULT_SOURCES } from '../tracking/types.ts';
import { hasImport } from '../tracking/ingest/tracker-readings.ts';
import { IMPORTED_GENERATION } from '../stores/generations.ts';
import { SOURCE_UNKNOWN } from './params.ts';

/**
 * The generation a source's analysis rows are in: the brand's live one, or the imported answers'
 * (400 when no import of the brand used the name). The answers export reads by it too.
 */
export async function generationOf(pg: Queryable, brand: BrandRecord, source: string | undefined): Promise<number> {
  if (source === undefined || (DEFAULT_SOURCES as readonly string[]).includes(source)) {
    return brand.analysis_generation;
  }
  if (!(await hasImport(pg, brand.id, source))) throw badRequest(SOURCE_UNKNOWN);
  return IMPORTED_GENERATION;
}

export interface FilterParams {
  brand_id: string;
  date_from?: Date;
  date_to?: Date;
  model?: string[];
  region?: string;
  topic_id?: string;
  prompt_id?: string;
  source?: string;
}

export async function resolveFilters(ctx: Ctx, p: FilterParams): Promise<{ brand: BrandRecord; filters: Filters }> {
  const brand = await ctx.brand(p.brand_id);
  let promptIds = p.topic_id ? await topicPromptIds(ctx.stores.pg, brand.id, p.topic_id) : undefined;
  if (p.prompt_id) {
    const prompt = (await promptsById(ctx.stores.pg, [p.prompt_id])).get(p.prompt_id);
    if (prompt?.brand_id !== brand.id) throw notFound(PROMPT_NOT_FOUND);
    // With a topic too: the prompt if it is one of the topic's, else nothing.
    promptIds = promptIds ? promptIds.filter((id) => id === p.prompt_id) : [p.prompt_id];
  }
  const generation = await generationOf(ctx.stores.pg, brand, p.source);
  return {
    brand,
    filters: {
      brandId: brand.id,
      generation,
      from: p.date_from,
      to: p.date_to,
      models: p.model,
      region: p.region,
      promptIds,
      source: p.source,
    },
  };
}

/** A bound as the client would write it back: a bare day when it is a whole-day bound. */
export function describeBound(d: Date | undefined, end: boolean): string | null {
  if (!d) return null;
  const iso = d.toISOString();
  return iso.endsWith(end ? 'T23:59:59.999Z' : 'T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}
