// Writing a brand's topics: the one insert and the one update that both `apply` (an upsert by name)
// and the API use. A topic's natural key is its name within its brand; the unique index decides
// between two concurrent creations, so exactly one is made.
import { randomUUID } from 'node:crypto';
import { ApiError, notFound } from '../errors.ts';
import type { Queryable } from '../stores/postgres.ts';
import { UUID_RE } from '../uuid.ts';
import { TOPIC_NOT_FOUND } from './prompts.ts';

export interface WrittenTopic {
  id: string;
  name: string;
  is_active: boolean;
  prompt_count: number;
  created_at: string;
}

export const topicExists = (name: string) => new ApiError(409, `Topic ${JSON.stringify(name)} already exists`);

/** Creates the topic; undefined when the brand has one of this name already. */
export async function insertTopic(
  db: Queryable,
  brandId: string,
  fields: { name: string; is_active: boolean },
): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO topics (id, brand_id, name, is_active) VALUES ($1, $2, $3, $4)
     ON CONFLICT (brand_id, name) DO NOTHING RETURNING id`,
    [randomUUID(), brandId, fields.name, fields.is_active],
  );
  return rows[0]?.id;
}

export async function topicIdByName(db: Queryable, brandId: string, name: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM topics WHERE brand_id = $1 AND name = $2', [
    brandId,
    name,
  ]);
  return rows[0]?.id;
}

/** Changes the given fields; 409 when the new name is another topic's of the brand. */
export async function updateTopic(
  db: Queryable,
  id: string,
  change: { name?: string; is_active?: boolean },
): Promise<void> {
  try {
    await db.query('UPDATE topics SET name = coalesce($2, name), is_active = coalesce($3, is_active) WHERE id = $1', [
      id,
      change.name ?? null,
      change.is_active ?? null,
    ]);
  } catch (err) {
    if ((err as { code?: string }).code === '23505' && change.name !== undefined) throw topicExists(change.name);
    throw err;
  }
}

/** The topic's brand when the topic belongs to the organization; else 404 `Topic not found`. */
export async function topicBrand(db: Queryable, organizationId: string | null, id: string): Promise<string> {
  if (organizationId && UUID_RE.test(id)) {
    const { rows } = await db.query<{ brand_id: string }>(
      `SELECT t.brand_id FROM topics t JOIN brands b ON b.id = t.brand_id WHERE t.id = $1 AND b.organization_id = $2`,
      [id, organizationId],
    );
    if (rows[0]) return rows[0].brand_id;
  }
  throw notFound(TOPIC_NOT_FOUND);
}

/** The topic as the topics list shows it. */
export async function writtenTopic(db: Queryable, id: string): Promise<WrittenTopic> {
  const { rows } = await db.query<Omit<WrittenTopic, 'created_at'> & { created_at: Date }>(
    `SELECT t.id, t.name, t.is_active, (SELECT count(*)::int FROM prompts p WHERE p.topic_id = t.id) AS prompt_count,
            t.created_at
       FROM topics t WHERE t.id = $1`,
    [id],
  );
  return { ...rows[0], created_at: new Date(rows[0].created_at).toISOString() };
}
