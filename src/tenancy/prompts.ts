// Topic and prompt reads (the caller has already resolved the brand in its tenant), and the topic
// a content suggestion adds.
import { randomUUID } from 'node:crypto';
import type { Postgres } from '../stores/postgres.ts';
import { notFound } from '../errors.ts';
import type { Platform } from './tracked.ts';
import type { Plan } from './quotas.ts';
import type { SamplingColumns } from './brand-sampling.ts';
import type { Queryable } from '../stores/postgres.ts';

/** The 404 of a topic_id filter naming no topic of the brand. */
export const TOPIC_NOT_FOUND = 'Topic not found';
export const PROMPT_NOT_FOUND = 'Prompt not found';

/** A prompt as the prompts list shows it. */
export interface ListedPrompt {
  id: string;
  text: string;
  topic_id: string | null;
  topic_name: string | null;
  platforms: Platform[];
  models: string[];
  regions: string[];
  is_active: boolean;
  created_at: Date;
}

export async function listTopics(pg: Postgres, brandId: string) {
  const { rows } = await pg.query<{
    id: string;
    name: string;
    is_active: boolean;
    prompt_count: number;
    created_at: Date;
  }>(
    `SELECT t.id, t.name, t.is_active, count(p.id)::int AS prompt_count, t.created_at
       FROM topics t LEFT JOIN prompts p ON p.topic_id = t.id
      WHERE t.brand_id = $1
      GROUP BY t.id ORDER BY t.created_at, t.created_seq`,
    [brandId],
  );
  return rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
}

/** The topic's prompt ids; 404 `Topic not found` when the topic is not the brand's. */
export async function topicPromptIds(pg: Postgres, brandId: string, topicId: string): Promise<string[]> {
  const { rows } = await pg.query<{ found: boolean; ids: string[] | null }>(
    `SELECT EXISTS (SELECT 1 FROM topics WHERE id = $2 AND brand_id = $1) AS found,
            (SELECT array_agg(id) FROM prompts WHERE topic_id = $2 AND brand_id = $1) AS ids`,
    [brandId, topicId],
  );
  if (!rows[0].found) throw notFound(TOPIC_NOT_FOUND);
  return rows[0].ids ?? [];
}

export async function listPrompts(
  pg: Postgres,
  brandId: string,
  opts: { topicId?: string; isActive?: boolean; limit: number },
) {
  if (opts.topicId) await topicPromptIds(pg, brandId, opts.topicId);
  const { rows } = await pg.query<ListedPrompt>(
    `SELECT p.id, p.text, p.topic_id, t.name AS topic_name, p.platforms, p.models, p.regions, p.is_active, p.created_at
       FROM prompts p LEFT JOIN topics t ON t.id = p.topic_id
      WHERE p.brand_id = $1
        AND ($2::uuid IS NULL OR p.topic_id = $2)
        AND ($3::boolean IS NULL OR p.is_active = $3)
      ORDER BY p.created_at DESC, p.created_seq DESC
      LIMIT $4`,
    [brandId, opts.topicId ?? null, opts.isActive ?? null, opts.limit],
  );
  return rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
}

interface PromptOwner {
  id: string;
  brand_id: string;
  organization_id: string;
  /** The brand's live analysis generation (src/stores/scoped-query.ts): what new rows are written as. */
  generation: number;
  topic_id: string | null;
  text: string;
}

/** Prompt id -> brand, topic and text, for ingestion and for records that name a prompt. */
export async function promptsById(db: Queryable, ids: string[]): Promise<Map<string, PromptOwner>> {
  const { rows } = await db.query(
    `SELECT p.id, p.brand_id, b.organization_id, b.analysis_generation AS generation, p.topic_id, p.text
       FROM prompts p JOIN brands b ON b.id = p.brand_id WHERE p.id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map((rows as PromptOwner[]).map((r) => [r.id, r]));
}

/**
 * Prompt id -> text and topic name for one brand. The map iterates in text order (as Postgres
 * sorts text), so a caller can order its own rows by prompt text without a join.
 */
export async function promptTexts(pg: Queryable, brandId: string) {
  const { rows } = await pg.query(
    `SELECT p.id, p.text, t.name AS topic_name FROM prompts p LEFT JOIN topics t ON t.id = p.topic_id
      WHERE p.brand_id = $1 ORDER BY p.text, p.id`,
    [brandId],
  );
  return new Map((rows as { id: string; text: string; topic_name: string | null }[]).map((r) => [r.id, r]));
}

export interface PromptRow {
  id: string;
  text: string;
  topic_id: string | null;
  platforms: Platform[];
  regions: string[];
}

/** The brand's prompts, oldest first; only the active ones unless `all`. */
async function brandPromptRows(pg: Queryable, brandId: string, all: boolean): Promise<PromptRow[]> {
  const { rows } = await pg.query(
    `SELECT id, text, topic_id, platforms, regions FROM prompts
      WHERE brand_id = $1 AND ($2::boolean OR is_active) ORDER BY created_at, created_seq`,
    [brandId, all],
  );
  return rows as PromptRow[];
}

/** The brand's active prompts (whatever their topic's state), oldest first. */
export const activePrompts = (pg: Queryable, brandId: string) => brandPromptRows(pg, brandId, false);

/** Every prompt of the brand, active or not, oldest first. */
export const brandPrompts = (pg: Queryable, brandId: string) => brandPromptRows(pg, brandId, true);

/** A prompt to capture, with what the capture plan needs of its brand and organization. */
export interface TrackedPrompt {
  id: string;
  text: string;
  platforms: string[];
  regions: string[];
  brand_id: string;
  brand_region: string;
  organization_id: string;
  plan: Plan;
  /** How the prompt's brand samples (its brands row). */
  sampling: SamplingColumns;
}

/** Active prompts outside inactive topics, of one brand or all, by brand then oldest first. */
export async function trackedPrompts(pg: Queryable, brandId?: string): Promise<TrackedPrompt[]> {
  const { rows } = await pg.query(
    `SELECT p.id, p.text, p.platforms, p.regions, b.id AS brand_id, b.region AS brand_region, b.organization_id, o.plan,
            json_build_object('sampling', b.sampling, 'samples', b.samples, 'min_samples', b.min_samples,
              'max_samples', b.max_samples, 'target_half_width', b.target_half_width) AS sampling
       FROM prompts p
       JOIN brands b ON b.id = p.brand_id
       JOIN organizations o ON o.id = b.organization_id
       LEFT JOIN topics t ON t.id = p.topic_id
      WHERE p.is_active AND (t.id IS NULL OR t.is_active)
        AND ($1::uuid IS NULL OR b.id = $1)
      ORDER BY b.id, p.created_at, p.created_seq`,
    [brandId ?? null],
  );
  return rows as TrackedPrompt[];
}

/** The names of the brand's topics, oldest first. */
export async function topicNames(pg: Queryable, brandId: string): Promise<string[]> {
  const { rows } = await pg.query<{ name: string }>(
    'SELECT name FROM topics WHERE brand_id = $1 ORDER BY created_at, created_seq',
    [brandId],
  );
  return rows.map((r) => r.name);
}

/**
 * The brand's topic of this name, created when there is none. `db` may be the caller's
 * transaction client; a topic of the same name made meanwhile (e.g. by `apply`) is reused.
 */
export async function ensureTopic(db: Queryable, brandId: string, name: string): Promise<{ id: string; name: string }> {
  const created = await db.query<{ id: string; name: string }>(
    `INSERT INTO topics (id, brand_id, name) VALUES ($1, $2, $3)
     ON CONFLICT (brand_id, name) DO NOTHING RETURNING id, name`,
    [randomUUID(), brandId, name],
  );
  return (
    created.rows[0] ??
    (
      await db.query<{ id: string; name: string }>('SELECT id, name FROM topics WHERE brand_id = $1 AND name = $2', [
        brandId,
        name,
      ])
    ).rows[0]
  );
}
