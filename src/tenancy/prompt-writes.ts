// Writing a brand's prompts: the one insert and the one update that both `apply` (an upsert by
// text) and the API use. A prompt's natural key is its text within its brand, and the text never
// changes (it identifies the prompt's history): the update has no text to change. The unique index
// decides between two concurrent additions, so exactly one is made.
import { randomUUID } from 'node:crypto';
import { ApiError, notFound } from '../errors.ts';
import type { Queryable } from '../stores/postgres.ts';
import { UUID_RE } from '../uuid.ts';
import { PROMPT_NOT_FOUND, TOPIC_NOT_FOUND, type ListedPrompt } from './prompts.ts';

export interface PromptSettings {
  /** null: outside any topic. */
  topic_id: string | null;
  platforms: string[];
  models: string[];
  regions: string[];
  is_active: boolean;
}

export type WrittenPrompt = Omit<ListedPrompt, 'created_at'> & { created_at: string };

export const promptExists = (text: string) => new ApiError(409, `Prompt ${JSON.stringify(text)} already exists`);

/** Adds the prompt; undefined when the brand has a prompt of this text already. */
export async function insertPrompt(
  db: Queryable,
  brandId: string,
  text: string,
  settings: PromptSettings,
): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO prompts (id, brand_id, topic_id, text, platforms, models, regions, is_active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (brand_id, text) DO NOTHING RETURNING id`,
    [
      randomUUID(),
      brandId,
      settings.topic_id,
      text,
      settings.platforms,
      settings.models,
      settings.regions,
      settings.is_active,
    ],
  );
  return rows[0]?.id;
}

export async function promptIdByText(db: Queryable, brandId: string, text: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM prompts WHERE brand_id = $1 AND text = $2', [
    brandId,
    text,
  ]);
  return rows[0]?.id;
}

/** Changes the given settings; `topic_id: null` takes the prompt out of its topic. */
export async function updatePrompt(db: Queryable, id: string, change: Partial<PromptSettings>): Promise<void> {
  await db.query(
    `UPDATE prompts SET topic_id = CASE WHEN $2 THEN $3::uuid ELSE topic_id END, platforms = coalesce($4, platforms),
       models = coalesce($5, models), regions = coalesce($6, regions), is_active = coalesce($7, is_active)
     WHERE id = $1`,
    [
      id,
      change.topic_id !== undefined,
      change.topic_id ?? null,
      change.platforms ?? null,
      change.models ?? null,
      change.regions ?? null,
      change.is_active ?? null,
    ],
  );
}

/** The prompt's brand when the prompt belongs to the organization; else 404 `Prompt not found`. */
export async function promptBrand(db: Queryable, organizationId: string | null, id: string): Promise<string> {
  if (organizationId && UUID_RE.test(id)) {
    const { rows } = await db.query<{ brand_id: string }>(
      `SELECT p.brand_id FROM prompts p JOIN brands b ON b.id = p.brand_id WHERE p.id = $1 AND b.organization_id = $2`,
      [id, organizationId],
    );
    if (rows[0]) return rows[0].brand_id;
  }
  throw notFound(PROMPT_NOT_FOUND);
}

/** 404 `Topic not found` unless the topic is the brand's. */
export async function requireTopicOfBrand(db: Queryable, brandId: string, topicId: string): Promise<void> {
  const { rowCount } = await db.query('SELECT 1 FROM topics WHERE id = $1 AND brand_id = $2', [topicId, brandId]);
  if (!rowCount) throw notFound(TOPIC_NOT_FOUND);
}

/** The prompts as the prompts list shows them, in the order of `ids`. */
export async function writtenPrompts(db: Queryable, ids: string[]): Promise<WrittenPrompt[]> {
  const { rows } = await db.query<ListedPrompt>(
    `SELECT p.id, p.text, p.topic_id, t.name AS topic_name, p.platforms, p.models, p.regions, p.is_active, p.created_at
       FROM prompts p LEFT JOIN topics t ON t.id = p.topic_id WHERE p.id = ANY($1::uuid[])`,
    [ids],
  );
  const byId = new Map(rows.map((r) => [r.id, { ...r, created_at: new Date(r.created_at).toISOString() }]));
  return ids.map((id) => byId.get(id)!);
}
