// `answerscope apply FILE`: upserts organizations, members, brands, competitors, topics and prompts
// by their natural keys (CONTRACT.md section 5), all in one transaction. Applying the same file
// again changes nothing and prints the same ids. Things absent from the file are left as they are.
// A brand that existed before is compared with itself after the upsert (brand-state.ts): a change
// of what it shows bumps its data_version, a change of its entities queues a re-analysis.
import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Postgres } from '../stores/postgres.ts';
import { UserError } from '../errors.ts';
import { PLATFORMS } from '../tracking/types.ts';
import { upsertMember } from './members.ts';
import type { Queryable } from '../stores/postgres.ts';
import { bumpDataVersion } from './brands.ts';
import { entityChanges, readBrandState, stateChanged, type BrandState } from './brand-state.ts';
import { queueReanalysis } from './reanalysis-queue.ts';

const TRIAL_DAYS = 14;

const strings = z.array(z.string().trim().min(1)).default([]);
const domainList = z
  .array(
    z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9.-]+\.[a-z0-9-]+$/, 'must be a bare domain such as acme.example')
      .transform((d) => d.replace(/^www\./, '')),
  )
  .default([]);
const quota = z.number().int().min(-1);

const promptSchema = z
  .object({
    text: z.string().trim().min(1).max(2000),
    platforms: z.array(z.enum(PLATFORMS)).default([]),
    models: strings,
    regions: strings,
    is_active: z.boolean().default(true),
  })
  .strict();

const topicSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    is_active: z.boolean().default(true),
    prompts: z.array(promptSchema).default([]),
  })
  .strict();

const brandSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    slug: z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and dashes'),
    industry: z.string().trim().default(''),
    region: z.string().trim().default(''),
    domains: domainList,
    aliases: strings,
    tracking_id: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{6,64}$/, 'must be 6-64 letters, digits, _ or -')
      .optional(),
    competitors: z
      .array(
        z
          .object({
            name: z.string().trim().min(1).max(200),
            domains: domainList,
            aliases: strings,
          })
          .strict(),
      )
      .default([]),
    topics: z.array(topicSchema).default([]),
    // Prompts outside any topic.
    prompts: z.array(promptSchema).default([]),
  })
  .strict();

export const workspaceSchema = z
  .object({
    organizations: z.array(
      z
        .object({
          name: z.string().trim().min(1).max(200),
          plan: z.enum(['starter', 'growth', 'business']),
          quotas: z.object({ briefs: quota, drafts: quota, audits: quota }).partial().strict().optional(),
          // role: "admin" makes the member an admin; absent or "member" never demotes one (docs/app.md).
          members: z
            .array(z.object({ email: z.string().trim().min(3), role: z.enum(['admin', 'member']).optional() }).strict())
            .default([]),
          brands: z.array(brandSchema).default([]),
        })
        .strict(),
    ),
  })
  .strict();

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

async function upsertReturningId(db: Db, sql: string, params: unknown[]): Promise<string> {
  const { rows } = await db.query<{ id: string }>(sql, params);
  return rows[0].id;
}

export async function applyWorkspace(pgStore: Postgres, workspace: Workspace) {
  return pgStore.tx(async (db) => {
    const organizations = [];
    for (const org of workspace.organizations) {
      const orgId = await upsertReturningId(
        db,
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
      const members = [];
      for (const m of org.members) {
        const { userId } = await upsertMember(db, m.email, orgId, m.role === 'admin' ? 'admin' : undefined);
        members.push({ email: m.email.trim().toLowerCase(), userId });
      }
      const brands = [];
      for (const b of org.brands) brands.push(await applyBrand(db, orgId, b));
      organizations.push({ id: orgId, name: org.name, plan: org.plan, members, brands });
    }
    return { organizations };
  });
}

async function applyBrand(db: Db, orgId: string, b: Workspace['organizations'][number]['brands'][number]) {
  const trackingId = b.tracking_id ?? `as_${randomBytes(9).toString('base64url')}`;
  // Locked until commit, so a concurrent apply of the same brand cannot slip between the two reads.
  const { rows: existing } = await db.query<{ id: string }>(
    'SELECT id FROM brands WHERE organization_id = $1 AND slug = $2 FOR UPDATE',
    [orgId, b.slug],
  );
  const before = existing[0] ? await readBrandState(db, existing[0].id) : undefined;
  let brandId: string;
  try {
    brandId = await upsertReturningId(
      db,
      `INSERT INTO brands (id, organization_id, name, slug, industry, region, domains, aliases, tracking_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (organization_id, slug) DO UPDATE SET name = EXCLUDED.name, industry = EXCLUDED.industry,
         region = EXCLUDED.region, domains = EXCLUDED.domains, aliases = EXCLUDED.aliases,
         tracking_id = CASE WHEN $10 THEN EXCLUDED.tracking_id ELSE brands.tracking_id END
       RETURNING id`,
      [
        randomUUID(),
        orgId,
        b.name,
        b.slug,
        b.industry,
        b.region,
        b.domains,
        b.aliases,
        trackingId,
        b.tracking_id !== undefined,
      ],
    );
  } catch (err) {
    if ((err as { code?: string }).code === '23505')
      throw new UserError(`tracking_id ${b.tracking_id} is already used by another brand`);
    throw err;
  }
  const {
    rows: [{ tracking_id }],
  } = await db.query('SELECT tracking_id FROM brands WHERE id = $1', [brandId]);

  const competitors = [];
  for (const c of b.competitors) {
    const id = await upsertReturningId(
      db,
      `INSERT INTO competitors (id, brand_id, name, domains, aliases) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (brand_id, name) DO UPDATE SET domains = EXCLUDED.domains, aliases = EXCLUDED.aliases
       RETURNING id`,
      [randomUUID(), brandId, c.name, c.domains, c.aliases],
    );
    competitors.push({ id, name: c.name });
  }

  const applyPrompts = async (prompts: typeof b.prompts, topicId: string | null) => {
    const out = [];
    for (const p of prompts) {
      const id = await upsertReturningId(
        db,
        `INSERT INTO prompts (id, brand_id, topic_id, text, platforms, models, regions, is_active)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (brand_id, text) DO UPDATE SET topic_id = EXCLUDED.topic_id, platforms = EXCLUDED.platforms,
           models = EXCLUDED.models, regions = EXCLUDED.regions, is_active = EXCLUDED.is_active
         RETURNING id`,
        [randomUUID(), brandId, topicId, p.text, p.platforms, p.models, p.regions, p.is_active],
      );
      out.push({ id, text: p.text });
    }
    return out;
  };

  const topics = [];
  for (const t of b.topics) {
    const id = await upsertReturningId(
      db,
      `INSERT INTO topics (id, brand_id, name, is_active) VALUES ($1, $2, $3, $4)
       ON CONFLICT (brand_id, name) DO UPDATE SET is_active = EXCLUDED.is_active RETURNING id`,
      [randomUUID(), brandId, t.name, t.is_active],
    );
    topics.push({ id, name: t.name, prompts: await applyPrompts(t.prompts, id) });
  }
  const prompts = await applyPrompts(b.prompts, null);
  return {
    id: brandId,
    slug: b.slug,
    name: b.name,
    tracking_id,
    competitors,
    topics,
    ...(prompts.length ? { prompts } : {}),
    // A new brand has no answers to analyse again.
    reanalysis_queued: before ? await afterChange(db, brandId, before) : false,
  };
}

/** Invalidates what the changes made stale; returns whether a re-analysis was queued. */
async function afterChange(db: Db, brandId: string, before: BrandState): Promise<boolean> {
  const after = await readBrandState(db, brandId);
  if (!stateChanged(before, after)) return false;
  await bumpDataVersion(db, [brandId]);
  const reason = entityChanges(before, after);
  if (reason) await queueReanalysis(db, brandId, reason);
  return reason !== '';
}
