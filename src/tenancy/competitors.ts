// Writing a brand's competitors: the one insert and the one update that both `apply` (an upsert by
// name) and the API use, and the removal only the API offers (a workspace file lists what to keep
// or add; nothing is deleted by leaving it out). A competitor's natural key is its name within its
// brand; the unique index decides between two concurrent additions, so exactly one is made.
import { randomUUID } from 'node:crypto';
import { ApiError, notFound } from '../errors.ts';
import type { Queryable } from '../stores/postgres.ts';
import { UUID_RE } from '../uuid.ts';

export const COMPETITOR_NOT_FOUND = 'Competitor not found';

export interface CompetitorFields {
  name: string;
  domains: string[];
  aliases: string[];
}

export interface WrittenCompetitor extends CompetitorFields {
  id: string;
  brand_id: string;
  created_at: string;
}

const COLUMNS = 'id, brand_id, name, domains, aliases, created_at';
type Row = Omit<WrittenCompetitor, 'created_at'> & { created_at: Date };
const written = (r: Row): WrittenCompetitor => ({ ...r, created_at: new Date(r.created_at).toISOString() });

export const competitorExists = (name: string) =>
  new ApiError(409, `Competitor ${JSON.stringify(name)} already exists`);

/** Adds the competitor; undefined when the brand has one of this name already. */
export async function insertCompetitor(
  db: Queryable,
  brandId: string,
  fields: CompetitorFields,
): Promise<WrittenCompetitor | undefined> {
  const { rows } = await db.query<Row>(
    `INSERT INTO competitors (id, brand_id, name, domains, aliases) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (brand_id, name) DO NOTHING RETURNING ${COLUMNS}`,
    [randomUUID(), brandId, fields.name, fields.domains, fields.aliases],
  );
  return rows[0] && written(rows[0]);
}

export async function competitorIdByName(db: Queryable, brandId: string, name: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM competitors WHERE brand_id = $1 AND name = $2', [
    brandId,
    name,
  ]);
  return rows[0]?.id;
}

/** Changes the given fields; 409 when the new name is another competitor's of the brand. */
export async function updateCompetitor(
  db: Queryable,
  id: string,
  change: Partial<CompetitorFields>,
): Promise<WrittenCompetitor> {
  try {
    const { rows } = await db.query<Row>(
      `UPDATE competitors SET name = coalesce($2, name), domains = coalesce($3, domains),
         aliases = coalesce($4, aliases)
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, change.name ?? null, change.domains ?? null, change.aliases ?? null],
    );
    if (!rows[0]) throw notFound(COMPETITOR_NOT_FOUND);
    return written(rows[0]);
  } catch (err) {
    if ((err as { code?: string }).code === '23505' && change.name !== undefined) throw competitorExists(change.name);
    throw err;
  }
}

/** Removes the competitor; 404 when it is gone already (removed by a concurrent request). */
export async function deleteCompetitor(db: Queryable, id: string): Promise<void> {
  const { rowCount } = await db.query('DELETE FROM competitors WHERE id = $1', [id]);
  if (!rowCount) throw notFound(COMPETITOR_NOT_FOUND);
}

/** The competitor's brand when the competitor belongs to the organization; else 404 `Competitor not found`. */
export async function competitorBrand(db: Queryable, organizationId: string | null, id: string): Promise<string> {
  if (organizationId && UUID_RE.test(id)) {
    const { rows } = await db.query<{ brand_id: string }>(
      `SELECT c.brand_id FROM competitors c JOIN brands b ON b.id = c.brand_id
        WHERE c.id = $1 AND b.organization_id = $2`,
      [id, organizationId],
    );
    if (rows[0]) return rows[0].brand_id;
  }
  throw notFound(COMPETITOR_NOT_FOUND);
}

/** The brand's competitors by name, as the competitors list shows them. */
export async function listCompetitors(db: Queryable, brandId: string): Promise<WrittenCompetitor[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM competitors WHERE brand_id = $1 ORDER BY name, id`, [
    brandId,
  ]);
  return rows.map(written);
}
