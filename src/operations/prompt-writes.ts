// Tracked prompts set up through the API (docs/workspace.md): add 1-100 at once, then change a
// prompt's topic, platforms, regions or whether it is active. Its text never changes: it identifies
// the prompt's history (deactivate it and add another). Platforms the organization's plan does not
// capture are kept, and listed in platforms_not_in_plan. Adding or activating prompts past the
// plan's limit is a 402 that writes nothing. The same insert and update as `apply`.
import { Prompt } from './prompts.ts';
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, optionalBool, optionalUuid, pathId, promptNotFound, topicNotFound } from './params.ts';
import {
  insertPrompt,
  promptBrand,
  promptExists,
  requireTopicOfBrand,
  updatePrompt,
  writtenPrompts,
} from '../tenancy/prompt-writes.ts';
import { promptLimitMessage } from '../tenancy/prompt-limit.ts';
import { planOf } from '../tenancy/organizations.ts';
import { platforms, promptText, regions, strictObject } from '../tenancy/workspace-fields.ts';
import { PLAN_PLATFORMS } from '../tracking/capture/plan.ts';
import { PLATFORMS } from '../tenancy/tracked.ts';
import { UUID_RE } from '../uuid.ts';
import type { Queryable } from '../stores/postgres.ts';
import { AT_USER_REQUEST, organizationOf, requireChange, writeBrand } from './workspace-writes.ts';

export const MAX_PROMPTS_PER_ADD = 100;

const limitReached = { status: 402, message: promptLimitMessage('growth') } as const;

const notInPlan = z
  .array(z.enum(PLATFORMS))
  .describe(
    "Platforms given that the organization's plan does not capture: kept, but not asked until the plan has them",
  );

const platformsField = platforms.describe(`Platform slugs (${PLATFORMS.join(', ')}); none: every platform of the plan`);
const regionsField = regions.describe("Region codes, e.g. US; none: the brand's region");

/** The given platforms the organization's plan does not capture, in the platform list's order. */
async function platformsNotInPlan(db: Queryable, organizationId: string, given: Iterable<string>) {
  const plan = await planOf(db, organizationId);
  const asked = new Set(given);
  return PLATFORMS.filter((p) => asked.has(p) && !PLAN_PLATFORMS[plan].includes(p));
}

export const addPrompts = operation({
  name: 'add-prompts',
  method: 'POST',
  path: '/prompts',
  tool: 'add_prompts',
  write: true,
  says: ['explicit-request'],
  errors: [topicNotFound, { status: 409, message: 'Prompt "best crm for startups" already exists' }, limitReached],
  params: strictObject({
    brand_id: brandId,
    topic_id: optionalUuid('topic_id').describe('The topic of the new prompts (UUID from list_topics); none: no topic'),
    prompts: z
      .array(
        strictObject({ text: promptText, platforms: platformsField.default([]), regions: regionsField.default([]) }),
        {
          error: (iss) => (iss.input === undefined ? 'prompts is required' : 'prompts must be a list of prompts'),
        },
      )
      .min(1, `prompts must hold 1 to ${MAX_PROMPTS_PER_ADD} prompts`)
      .max(MAX_PROMPTS_PER_ADD, `prompts must hold 1 to ${MAX_PROMPTS_PER_ADD} prompts`)
      .superRefine((list, ctx) => {
        const seen = new Set<string>();
        for (const p of list) {
          if (seen.has(p.text))
            ctx.addIssue({ code: 'custom', message: `prompts holds ${JSON.stringify(p.text)} twice` });
          seen.add(p.text);
        }
      }),
  }),
  result: z.object({ prompts: z.array(Prompt), platforms_not_in_plan: notInPlan }),
  description:
    `Adds 1 to ${MAX_PROMPTS_PER_ADD} tracked prompts to a brand, active, captured daily from the next ` +
    "run. A text the brand tracks already is refused (409) and nothing is added; so is going past the plan's " +
    `active prompt limit (402). ${AT_USER_REQUEST}`,
  run: async (ctx, p) => {
    const organizationId = organizationOf(ctx);
    const brand = await ctx.brand(p.brand_id);
    const { result } = await writeBrand(ctx, brand.id, async (db) => {
      if (p.topic_id) await requireTopicOfBrand(db, brand.id, p.topic_id);
      const ids: string[] = [];
      for (const prompt of p.prompts) {
        const settings = {
          topic_id: p.topic_id ?? null,
          platforms: prompt.platforms,
          models: [],
          regions: prompt.regions,
          is_active: true,
        };
        const id = await insertPrompt(db, brand.id, prompt.text, settings);
        if (!id) throw promptExists(prompt.text);
        ids.push(id);
      }
      return {
        prompts: await writtenPrompts(db, ids),
        platforms_not_in_plan: await platformsNotInPlan(
          db,
          organizationId,
          p.prompts.flatMap((x) => x.platforms),
        ),
      };
    });
    return result;
  },
});

/** A topic of the prompt's brand, or null: out of any topic. */
const topicOrNone = z
  .union(
    [
      z
        .string()
        .regex(UUID_RE)
        .transform((s) => s.toLowerCase()),
      z.null(),
    ],
    {
      error: 'topic_id must be a UUID or null',
    },
  )
  .optional()
  .describe('Moves the prompt to this topic of its brand (UUID from list_topics); null: out of any topic');

/** Refused by name: a prompt's text is its identity. */
const TEXT_FIXED = "text cannot change: it identifies the prompt's history; deactivate the prompt and add another";

export const updatePromptOperation = operation({
  name: 'update-prompt',
  method: 'PATCH',
  path: '/prompts/:id',
  tool: 'update_prompt',
  idArg: 'prompt_id',
  write: true,
  destructive: true,
  idempotent: true,
  says: ['explicit-request'],
  errors: [promptNotFound, topicNotFound, limitReached, { status: 400, message: TEXT_FIXED }],
  params: strictObject(
    {
      id: pathId('prompt_id').describe('The prompt (UUID), as returned by list_prompts'),
      topic_id: topicOrNone,
      platforms: platformsField.optional().describe('Replaces the prompt platforms; []: every platform of the plan'),
      regions: regionsField.optional().describe("Replaces the prompt regions; []: the brand's region"),
      is_active: optionalBool('is_active').describe(
        "false: no longer captured (its history stays); true: captured again (counted against the plan's " +
          'active prompt limit)',
      ),
    },
    { text: TEXT_FIXED },
  ),
  result: Prompt.extend({ platforms_not_in_plan: notInPlan }),
  description:
    "Changes a tracked prompt's topic, platforms, regions, or whether it is active. Its text never " +
    `changes. ${AT_USER_REQUEST}`,
  run: async (ctx, p) => {
    const { id, ...change } = p;
    const organizationId = organizationOf(ctx);
    const brand = await promptBrand(ctx.stores.pg, organizationId, id);
    requireChange(change, ['topic_id', 'platforms', 'regions', 'is_active']);
    const { result } = await writeBrand(ctx, brand, async (db) => {
      if (change.topic_id) await requireTopicOfBrand(db, brand, change.topic_id);
      await updatePrompt(db, id, change);
      const [prompt] = await writtenPrompts(db, [id.toLowerCase()]);
      return { ...prompt, platforms_not_in_plan: await platformsNotInPlan(db, organizationId, prompt.platforms) };
    });
    return result;
  },
});

export const promptWriteOperations = [addPrompts, updatePromptOperation];
