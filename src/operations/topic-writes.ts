// Topics set up through the API (docs/workspace.md): create, rename, activate or deactivate.
// A topic's prompts are captured only while it is active, so activating one counts its active
// prompts against the plan's limit. The same insert and update as `apply`.
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, optionalBool, pathId, topicNotFound } from './params.ts';
import { insertTopic, topicBrand, topicExists, updateTopic, writtenTopic } from '../tenancy/topic-writes.ts';
import { requiredString, strictObject } from '../tenancy/workspace-fields.ts';
import { AT_USER_REQUEST, requireChange, writeBrand } from './workspace-writes.ts';
import { promptLimitMessage } from '../tenancy/prompt-limit.ts';

const exists = { status: 409, message: 'Topic "CRM software" already exists' } as const;

const Topic = z.object({
  id: z.string().uuid(),
  name: z.string(),
  is_active: z.boolean(),
  prompt_count: z.number().int(),
  created_at: z.string(),
});

const name = requiredString('name').describe('Unique in the brand');

export const createTopic = operation({
  name: 'create-topic',
  method: 'POST',
  path: '/topics',
  tool: 'create_topic',
  write: true,
  says: ['explicit-request'],
  errors: [exists],
  params: strictObject({ brand_id: brandId, name }),
  result: Topic,
  description:
    'Creates a topic (a group of tracked prompts) for a brand; one of the same name is refused (409). ' +
    `${AT_USER_REQUEST}`,
  run: async (ctx, p) => {
    const brand = await ctx.brand(p.brand_id);
    const { result } = await writeBrand(ctx, brand.id, async (db) => {
      const id = await insertTopic(db, brand.id, { name: p.name, is_active: true });
      if (!id) throw topicExists(p.name);
      return writtenTopic(db, id);
    });
    return result;
  },
});

export const updateTopicOperation = operation({
  name: 'update-topic',
  method: 'PATCH',
  path: '/topics/:id',
  tool: 'update_topic',
  idArg: 'topic_id',
  write: true,
  destructive: true,
  idempotent: true,
  says: ['explicit-request'],
  errors: [topicNotFound, exists, { status: 402, message: promptLimitMessage('growth') }],
  params: strictObject({
    id: pathId('topic_id').describe('The topic (UUID), as returned by list_topics'),
    name: name.optional(),
    is_active: optionalBool('is_active').describe(
      "false: its prompts are no longer captured; true: captured again (counted against the plan's active " +
        'prompt limit)',
    ),
  }),
  result: Topic,
  description: `Renames a topic, or deactivates or reactivates it with its prompts. ${AT_USER_REQUEST}`,
  run: async (ctx, p) => {
    const { id, ...change } = p;
    const brand = await topicBrand(ctx.stores.pg, ctx.identity.organizationId, id);
    requireChange(change, ['name', 'is_active']);
    const { result } = await writeBrand(ctx, brand, async (db) => {
      await updateTopic(db, id, change);
      return writtenTopic(db, id);
    });
    return result;
  },
});

export const topicWriteOperations = [createTopic, updateTopicOperation];
