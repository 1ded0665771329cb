// Topic and prompt reads for one brand (the caller has already resolved the brand in its tenant).
import type { Postgres } from '../stores/postgres.ts';
import { notFound } from '../errors.ts';

export async function listTopics(pg: Postgres, brandId: string) {
  const { rows } = await pg.query(
    `SELECT t.id, t.name, t.is_active, count(p.id)::int AS prompt_count, t.created_at
       FROM topics t LEFT JOIN prompts p ON p.topic_id = t.id
      WHERE t.brand_id = $1
      GROUP BY t.id ORDER BY t.created_at, t.id`,
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
  if (!rows[0].found) throw notFound('Topic not found');
  return rows[0].ids ?? [];
}

export async function listPrompts(
  pg: Postgres,
  brandId: string,
  opts: { topicId?: string; isActive?: boolean; limit: number },
) {
  if (opts.topicId) await topicPromptIds(pg, brandId, opts.topicId);
  const { rows } = await pg.query(
    `SELECT p.id, p.text, p.topic_id, t.name AS topic_name, p.platforms, p.models, p.regions, p.is_active, p.created_at
       FROM prompts p LEFT JOIN topics t ON t.id = p.topic_id
      WHERE p.brand_id = $1
        AND ($2::uuid IS NULL OR p.topic_id = $2)
        AND ($3::boolean IS NULL OR p.is_active = $3)
      ORDER BY p.created_at DESC, p.id DESC
      LIMIT $4`,
    [brandId, opts.topicId ?? null, opts.isActive ?? null, opts.limit],
  );
  return rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
}

/** Prompt id -> brand, topic and text, for ingestion. */
export async function promptsById(pg: Postgres, ids: string[]) {
  const { rows } = await pg.query<{ id: string; brand_id: string; organization_id: string; topic_id: string | null; text: string }>(
    `SELECT p.id, p.brand_id, b.organization_id, p.topic_id, p.text
       FROM prompts p JOIN brands b ON b.id = p.brand_id WHERE p.id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** Prompt id -> text and topic name for one brand. */
export async function promptTexts(pg: Postgres, brandId: string) {
  const { rows } = await pg.query<{ id: string; text: string; topic_name: string | null }>(
    `SELECT p.id, p.text, t.name AS topic_name FROM prompts p LEFT JOIN topics t ON t.id = p.topic_id WHERE p.brand_id = $1`,
    [brandId],
  );
  return new Map(rows.map((r) => [r.id, r]));
}
