// Writing a brand: the one insert and the one update that both `apply` (an upsert by slug) and the
// API (create, change) use. A brand's natural key is its slug within its organization; the unique
// index decides between two concurrent creations, so exactly one is made.
import { randomBytes, randomUUID } from 'node:crypto';
import { ApiError, UserError } from '../errors.ts';
import type { Queryable } from '../stores/postgres.ts';
import type { Sampling } from './workspace-fields.ts';
import { SAMPLING_COLUMNS, type SamplingColumns } from './brand-sampling.ts';

export interface BrandFields {
  name: string;
  slug: string;
  industry: string;
  region: string;
  domains: string[];
  aliases: string[];
  /** Absent: as stored (a new brand: fixed, TRACKING_SAMPLES a day). */
  sampling?: Sampling;
}

/** The brand as its writes answer it. */
export interface WrittenBrand extends Omit<BrandFields, 'sampling'>, SamplingColumns {
  id: string;
  tracking_id: string;
  created_at: string;
}

const RETURNING = `RETURNING id, name, slug, industry, region, domains, aliases, tracking_id, created_at, ${
  SAMPLING_COLUMNS
}`;

/** A sampling change as the columns it sets: a mode's own fields; the other mode's stay as stored. */
function samplingParams(s: Sampling | undefined) {
  if (!s) return [null, null, null, null, null, false];
  return s.mode === 'fixed'
    ? ['fixed', s.samples ?? null, null, null, null, true]
    : ['adaptive', null, s.min_samples, s.max_samples, s.target_half_width, false];
}

type Row = Omit<WrittenBrand, 'created_at'> & { created_at: Date };
const written = (r: Row): WrittenBrand => ({ ...r, created_at: new Date(r.created_at).toISOString() });

export const brandExists = (slug: string) => new ApiError(409, `Brand ${JSON.stringify(slug)} already exists`);

/** A unique violation on tracking_id: another brand already beacons with it. */
function trackingIdTaken(err: unknown, trackingId: string | undefined): never {
  if ((err as { code?: string }).code === '23505' && trackingId !== undefined)
    throw new UserError(`tracking_id ${trackingId} is already used by another brand`);
  throw err;
}

/**
 * Creates the brand; undefined when the organization has a brand with this slug already (made
 * meanwhile too: the insert waits for a concurrent one to commit, then finds its row).
 */
export async function insertBrand(
  db: Queryable,
  organizationId: string,
  fields: BrandFields & { tracking_id?: string },
): Promise<WrittenBrand | undefined> {
  const trackingId = fields.tracking_id ?? `as_${randomBytes(9).toString('base64url')}`;
  try {
    const { rows } = await db.query<Row>(
      `INSERT INTO brands (id, organization_id, name, slug, industry, region, domains, aliases, tracking_id,
         sampling, samples, min_samples, max_samples, target_half_width)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, coalesce($10, 'fixed'), $11, coalesce($12, 1), $13, coalesce($14, 5))
       ON CONFLICT (organization_id, slug) DO NOTHING ${RETURNING}`,
      [
        randomUUID(),
        organizationId,
        fields.name,
        fields.slug,
        fields.industry,
        fields.region,
        fields.domains,
        fields.aliases,
        trackingId,
        ...samplingParams(fields.sampling).slice(0, 5),
      ],
    );
    return rows[0] && written(rows[0]);
  } catch (err) {
    trackingIdTaken(err, fields.tracking_id);
  }
}

/** The organization's brand with this slug, locked until the caller's transaction ends. */
export async function brandIdBySlug(db: Queryable, organizationId: string, slug: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM brands WHERE organization_id = $1 AND slug = $2 FOR UPDATE',
    [organizationId, slug],
  );
  return rows[0]?.id;
}

/** Changes the given fields of the brand; 409 when a new slug is another brand's. */
export async function updateBrand(
  db: Queryable,
  brandId: string,
  change: Partial<BrandFields> & { tracking_id?: string },
): Promise<WrittenBrand> {
  try {
    const { rows } = await db.query<Row>(
      `UPDATE brands SET name = coalesce($2, name), slug = coalesce($3, slug), industry = coalesce($4, industry),
         region = coalesce($5, region), domains = coalesce($6, domains), aliases = coalesce($7, aliases),
         tracking_id = coalesce($8, tracking_id), sampling = coalesce($9, sampling),
         samples = CASE WHEN $14::boolean THEN $10::int ELSE samples END,
         min_samples = coalesce($11, min_samples), max_samples = coalesce($12, max_samples),
         target_half_width = coalesce($13, target_half_width)
       WHERE id = $1 ${RETURNING}`,
      [
        brandId,
        change.name ?? null,
        change.slug ?? null,
        change.industry ?? null,
        change.region ?? null,
        change.domains ?? null,
        change.aliases ?? null,
        change.tracking_id ?? null,
        ...samplingParams(change.sampling),
      ],
    );
    return written(rows[0]);
  } catch (err) {
    const constraint = (err as { constraint?: string }).constraint ?? '';
    if ((err as { code?: string }).code === '23505' && change.slug !== undefined && !constraint.includes('tracking'))
      throw brandExists(change.slug);
    trackingIdTaken(err, change.tracking_id);
  }
}
