// `answerscope apply FILE`: upserts organizations, members, brands, competitors, topics and prompts
// by their natural keys (docs/api.md section 5), all in one transaction. Applying the same file
// again changes nothing and prints the same ids. Things absent from the file are left as they are.
// Each object is written by the same insert and update as the API's operations use (brand-writes.ts,
// competitors.ts, topic-writes.ts, prompt-writes.ts), so a file and the same content sent through
// the API store the same state. A brand that existed before is compared with itself after the
// upsert (workspace-change.ts): a change of what it shows bumps its data_version, a change of its
// entities queues a re-analysis.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Postgres, Queryable } from '../stores/postgres.ts';
import { UserError } from '../errors.ts';
import { columnNumber, INT32, within } from '../column-numbers.ts';
import { upsertMember } from './members.ts';
import { normaliseEmail } from './emails.ts';
import { readBrandState } from './brand-state.ts';
import { brandIdBySlug, insertBrand, updateBrand } from './brand-writes.ts';
import { competitorIdByName, insertCompetitor, updateCompetitor } from './competitors.ts';
import { insertTopic, topicIdByName, updateTopic } from './topic-writes.ts';
import { insertPrompt, promptIdByText, updatePrompt } from './prompt-writes.ts';
import { activePromptCount, checkPromptLimit } from './prompt-limit.ts';
import { afterChange } from './workspace-change.ts';
import {
  aliases,
  domains,
  plainString,
  platforms,
  promptText,
  regions,
  requiredString,
  sampling,
  slug,
  strictObject,
} from './workspace-fields.ts';

const TRIAL_DAYS = 14;

// organizations' integer quota columns; -1 is unlimited.
const quota = columnNumber(within(INT32, -1));

const promptSchema = strictObject({
  text: promptText,
  platforms: platforms.default([]),
  models: z.array(z.string().trim().min(1)).default([]),
  regions: regions.default([]),
  is_active: z.boolean().default(true),
});

const topicSchema = strictObject({
  name: requiredString('name'),
  is_active: z.boolean().default(true),
  prompts: z.array(promptSchema).default([]),
});

const brandSchema = strictObject({
  name: requiredString('name'),
  slug,
  industry: plainString('industry').default(''),
  region: plainString('region', 64).default(''),
  domains: domains.default([]),
  aliases: aliases.default([]),
  tracking_id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{6,64}$/, 'must be 6-64 letters, digits, _ or -')
    .optional(),
  // Absent: as stored (a new brand samples TRACKING_SAMPLES a day, fixed).
  sampling: sampling.optional(),
  competitors: z
    .array(strictObject({ name: requiredString('name'), domains: domains.default([]), aliases: aliases.default([]) }))
    .default([]),
  topics: z.array(topicSchema).default([]),
  // Prompts outside any topic.
  prompts: z.array(promptSchema).default([]),
});

export const workspaceSchema = strictObject({
  organizations: z.array(
    strictObject({
      name: z.string().trim().min(1).max(200),
      plan: z.enum(['starter', 'growth', 'business']),
      quotas: z.object({ briefs: quota, drafts: quota, audits: quota }).partial().strict().optional(),
      // role: "admin" makes the member an admin; absent or "member" never demotes one (docs/app.md).
      members: z
        // Trimmed by normaliseEmail (emails.ts), not zod's trim(), which would take an invisible
        // character (U+FEFF, U+2028, U+2029) off an end before it is refused.
        .array(strictObject({ email: z.string().min(3), role: z.enum(['admin', 'member']).optional() }))
        .default([]),
      brands: z.array(brandSchema).default([]),
    }),
  ),
});

export type Workspace = z.infer<typeof workspaceSchema>;

/** Parses and validates a workspace document; the error names the offending path. */
export function parseWorkspace(input: unknown): Workspace {
  const parsed = workspaceSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`Invalid workspace file at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

type Db = Queryable;

/** The row's id: made by `insert`, or else (its natural key is taken) found and changed by `update`. */
async function upsert(
  insert: () => Promise<string | undefined>,
  find: () => Promise<string | undefined>,
  update: (id: string) => Promise<unknown>,
): Promise<string> {
  const made = await insert();
  if (made) return made;
  const id = (await find())!;
  await update(id);
  return id;
}

/**
 * Upserts the workspace in one transaction, through the same inserts and updates as the API's
 * operations. An organization whose file adds or activates prompts past its plan's limit fails
 * the whole apply with the API's 402 message, having written nothing.
 */
export async function applyWorkspace(pgStore: Postgres, workspace: Workspace) {
  return pgStore.tx(async (db) => {
    const organizations = [];
    for (const org of workspace.organizations) {
      // The upsert locks the organization's row until commit, as the API's changes do.
      const {
        rows: [{ id: orgId }],
      } = await db.query<{ id: string }>(
        `INSERT INTO organizations (id, name, plan, quota_briefs, quota_drafts, quota_audits, trial_ends_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(days => ${TRIAL_DAYS}))
         ON CONFLICT (name) DO UPDATE SET plan = EXCLUDED.plan, quota_briefs = EXCLUDED.quota_briefs,
           quota_drafts = EXCLUDED.quota_drafts, quota_audits = EXCLUDED.quota_audits
         RETURNING id`,
        [
          randomUUID(),
          org.name,
          org.plan,
          org.quotas?.briefs ?? null,
          org.quotas?.drafts ?? null,
          org.quotas?.audits ?? null,
        ],
      );
      const promptsBefore = await activePromptCount(db, orgId);
      const members = [];
      for (const m of org.members) {
        const { userId } = await upsertMember(db, m.email, orgId, m.role === 'admin' ? 'admin' : undefined);
        members.push({ email: normaliseEmail(m.email), userId });
      }
      const brands = [];
      for (const b of org.brands) brands.push(await applyBrand(db, orgId, b));
      await checkPromptLimit(db, orgId, promptsBefore);
      organizations.push({ id: orgId, name: org.name, plan: org.plan, members, brands });
    }
    return { organizations };
  });
}

type BrandInput = Workspace['organizations'][number]['brands'][number];
type PromptInput = BrandInput['prompts'][number];

async function applyBrand(db: Db, orgId: string, b: BrandInput) {
  const fields = {
    name: b.name,
    slug: b.slug,
    industry: b.industry,
    region: b.region,
    domains: b.domains,
    aliases: b.aliases,
    tracking_id: b.tracking_id,
    sampling: b.sampling,
  };
  // Locked until commit, so a concurrent apply of the same brand cannot slip between the two reads.
  const existing = await brandIdBySlug(db, orgId, b.slug);
  const before = existing ? await readBrandState(db, existing) : undefined;
  const brand = existing
    ? await updateBrand(db, existing, fields)
    : ((await insertBrand(db, orgId, fields)) ??
      (await updateBrand(db, (await brandIdBySlug(db, orgId, b.slug))!, fields)));
  const brandId = brand.id;

  const competitors = [];
  for (const c of b.competitors) {
    const id = await upsert(
      async () => (await insertCompetitor(db, brandId, c))?.id,
      () => competitorIdByName(db, brandId, c.name),
      (found) => updateCompetitor(db, found, { domains: c.domains, aliases: c.aliases }),
    );
    competitors.push({ id, name: c.name });
  }

  const applyPrompts = async (prompts: PromptInput[], topicId: string | null) => {
    const out = [];
    for (const p of prompts) {
      const settings = {
        topic_id: topicId,
        platforms: p.platforms,
        models: p.models,
        regions: p.regions,
        is_active: p.is_active,
      };
      const id = await upsert(
        () => insertPrompt(db, brandId, p.text, settings),
        () => promptIdByText(db, brandId, p.text),
        (found) => updatePrompt(db, found, settings),
      );
      out.push({ id, text: p.text });
    }
    return out;
  };

  const topics = [];
  for (const t of b.topics) {
    const id = await upsert(
      () => insertTopic(db, brandId, { name: t.name, is_active: t.is_active }),
      () => topicIdByName(db, brandId, t.name),
      (found) => updateTopic(db, found, { is_active: t.is_active }),
    );
    topics.push({ id, name: t.name, prompts: await applyPrompts(t.prompts, id) });
  }
  const prompts = await applyPrompts(b.prompts, null);
  return {
    id: brandId,
    slug: b.slug,
    name: b.name,
    tracking_id: brand.tracking_id,
    competitors,
    topics,
    ...(prompts.length ? { prompts } : {}),
    // A new brand has no answers to analyse again.
    reanalysis_queued: before ? await afterChange(db, brandId, before) : false,
  };
}
