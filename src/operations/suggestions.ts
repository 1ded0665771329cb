// Topic suggestions (list, accept, dismiss) and prompt volumes: what to track next, and how much
// each tracked prompt is searched. Reads never generate: the jobs do (docs/content.md).
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, limit, pathId } from './params.ts';
import {
  acceptSuggestion,
  dismissSuggestion,
  pendingSuggestions,
  SUGGESTION_NOT_FOUND,
} from '../content/suggestions.ts';
import { listPromptVolumes } from '../content/volumes.ts';
import { INTENTS } from '../content/intent.ts';

const suggestionId = z.object({
  id: pathId('suggestion_id').describe('The suggestion (UUID), as returned by list_topic_suggestions'),
});
const notFound = { status: 404, message: SUGGESTION_NOT_FOUND } as const;

export const topicSuggestions = operation({
  name: 'topic-suggestions',
  method: 'GET',
  tool: 'list_topic_suggestions',
  params: z.object({ brand_id: brandId }),
  result: z.object({
    suggestions: z.array(
      z.object({ id: z.string().uuid(), name: z.string(), reason: z.string(), generated_at: z.string() }),
    ),
  }),
  description:
    'Pending topic suggestions for a brand, newest first, each with the tracking evidence behind it. Listing ' +
    'does not generate new ones.',
  run: async (ctx, p) => ({ suggestions: await pendingSuggestions(ctx.stores.pg, (await ctx.brand(p.brand_id)).id) }),
});

export const acceptTopicSuggestion = operation({
  name: 'accept-topic-suggestion',
  method: 'POST',
  path: '/topic-suggestions/:id/accept',
  tool: 'accept_topic_suggestion',
  idArg: 'suggestion_id',
  write: true,
  errors: [notFound],
  says: ['explicit-request'],
  params: suggestionId,
  result: z.object({ suggestion_id: z.string().uuid(), topic_id: z.string().uuid(), topic_name: z.string() }),
  description:
    "Accepts a pending topic suggestion: creates the topic and returns its id. Run only at the user's explicit " +
    'request.',
  run: (ctx, p) => acceptSuggestion(ctx.stores.pg, ctx.identity.organizationId, p.id),
});

export const dismissTopicSuggestion = operation({
  name: 'dismiss-topic-suggestion',
  method: 'POST',
  path: '/topic-suggestions/:id/dismiss',
  tool: 'dismiss_topic_suggestion',
  idArg: 'suggestion_id',
  write: true,
  errors: [notFound],
  says: ['explicit-request'],
  params: suggestionId,
  result: z.object({ id: z.string().uuid(), status: z.literal('dismissed') }),
  description:
    "Dismisses a pending topic suggestion; it is not proposed again. Run only at the user's explicit request.",
  run: (ctx, p) => dismissSuggestion(ctx.stores.pg, ctx.identity.organizationId, p.id),
});

const VolumeRow = z.object({
  prompt_id: z.string().uuid(),
  prompt_text: z.string(),
  intent: z.enum(INTENTS),
  keywords: z.array(z.string()),
  google_volumes: z
    .array(z.object({ keyword: z.string(), volume: z.number().int() }))
    .describe('Average monthly Google searches of each keyword of the prompt found in the imported volumes'),
  total_google_volume: z.number().int(),
  est_ai_volume: z.number().int().describe('total_google_volume x ai_volume_multiplier, rounded'),
  ai_volume_multiplier: z.number(),
  competition_index: z
    .number()
    .int()
    .nullable()
    .describe('0-100, volume-weighted over the keywords; null when unknown'),
  competition: z.enum(['low', 'medium', 'high']).nullable(),
  fetched_at: z.string(),
});

export const promptVolumes = operation({
  name: 'prompt-volumes',
  method: 'GET',
  tool: 'get_prompt_volumes',
  params: z.object({ brand_id: brandId, limit: limit(1, 500, 100) }),
  result: z.array(VolumeRow),
  description:
    "Estimated search demand of a brand's tracked prompts: intent, keywords, Google volumes and the estimated " +
    'monthly AI volume, highest first. Prompts not yet analysed are not listed.',
  run: async (ctx, p) => listPromptVolumes(ctx.stores.pg, (await ctx.brand(p.brand_id)).id, p.limit),
});

export const suggestionOperations = [topicSuggestions, acceptTopicSuggestion, dismissTopicSuggestion, promptVolumes];
