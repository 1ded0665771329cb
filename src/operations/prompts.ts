// Topics and prompts: what is tracked for a brand.
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, limit, optionalBool, optionalUuid } from './params.ts';
import { listPrompts, listTopics } from '../tenancy/prompts.ts';
import { PLATFORMS } from '../tracking/types.ts';

const Topic = z.object({
  id: z.string().uuid(),
  name: z.string(),
  is_active: z.boolean(),
  prompt_count: z.number().int(),
  created_at: z.string(),
});

export const topics = operation({
  name: 'topics',
  method: 'GET',
  tool: 'list_topics',
  params: z.object({ brand_id: brandId }),
  result: z.array(Topic),
  description: 'Lists the topics (groups of tracked prompts) of a brand, oldest first, with how many prompts each holds.',
  run: async (ctx, p) => listTopics(ctx.stores.pg, (await ctx.brand(p.brand_id)).id),
});

const Prompt = z.object({
  id: z.string().uuid(),
  text: z.string(),
  topic_id: z.string().uuid().nullable(),
  topic_name: z.string().nullable(),
  platforms: z.array(z.enum(PLATFORMS)),
  models: z.array(z.string()),
  regions: z.array(z.string()),
  is_active: z.boolean(),
  created_at: z.string(),
});

export const prompts = operation({
  name: 'prompts',
  method: 'GET',
  tool: 'list_prompts',
  params: z.object({
    brand_id: brandId,
    topic_id: optionalUuid('topic_id'),
    is_active: optionalBool('is_active'),
    limit: limit(1, 500, 100),
  }),
  result: z.array(Prompt),
  description: 'Lists the tracked prompts of a brand, newest first; filter by topic_id or is_active.',
  run: async (ctx, p) =>
    listPrompts(ctx.stores.pg, (await ctx.brand(p.brand_id)).id, { topicId: p.topic_id, isActive: p.is_active, limit: p.limit }) as any,
});
