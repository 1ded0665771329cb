// From validated request parameters to analytics Filters: the brand resolved in the caller's
// tenant, a topic resolved to its prompts (404 `Topic not found` when not the brand's), a prompt
// checked to be the brand's (404 `Prompt not found`).
import type { Ctx } from './registry.ts';
import type { Filters } from '../analytics/filters.ts';
import type { BrandRecord } from '../tenancy/brands.ts';
import { notFound } from '../errors.ts';
import { PROMPT_NOT_FOUND, promptsById, topicPromptIds } from '../tenancy/prompts.ts';

export interface FilterParams {
  brand_id: string;
  date_from?: Date;
  date_to?: Date;
  model?: string[];
  region?: string;
  topic_id?: string;
  prompt_id?: string;
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
  return {
    brand,
    filters: {
      brandId: brand.id,
      generation: brand.analysis_generation,
      from: p.date_from,
      to: p.date_to,
      models: p.model,
      region: p.region,
      promptIds,
    },
  };
}

/** A bound as the client would write it back: a bare day when it is a whole-day bound. */
export function describeBound(d: Date | undefined, end: boolean): string | null {
  if (!d) return null;
  const iso = d.toISOString();
  return iso.endsWith(end ? 'T23:59:59.999Z' : 'T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}
