// Brand reads scoped to an organization: the one place tenancy is enforced for brands.
import type { Postgres } from '../stores/postgres.ts';
import { notFound } from '../errors.ts';
import type { Entity } from './tracked.ts';
import type { Queryable } from '../stores/postgres.ts';
import { isoDay } from '../instant.ts';
import type { BrandId } from '../stores/scoped-query.ts';
import type { SamplingColumns } from './brand-sampling.ts';

/** The 404 of a brand outside the caller's organization (or none at all): one message, also documented. */
export const BRAND_NOT_FOUND = 'Brand not found';

export interface BrandRecord extends SamplingColumns {
  /** Branded: read from the brands row, so a scoped read may take it (stores/scoped-query.ts). */
  id: BrandId;
  organization_id: string;
  name: string;
  slug: string;
  industry: string;
  region: string;
  domains: string[];
  aliases: string[];
  tracking_id: string;
  data_version: number;
  /** Bumped only by changes that can reach a day before the current one (postgres/051). */
  history_version: number;
  /** The analysis generation the brand's figures are read from (docs/analysis.md, re-analysis). */
  analysis_generation: number;
  created_at: Date;
}

const COLUMN_LIST = [
  'id',
  'organization_id',
  'name',
  'slug',
  'industry',
  'region',
  'domains',
  'aliases',
  'tracking_id',
  'data_version',
  'history_version',
  'analysis_generation',
  'created_at',
  'sampling',
  'samples',
  'min_samples',
  'max_samples',
  'target_half_width',
] as const;
const COLUMNS = COLUMN_LIST.join(', ');

/** The brand columns of `alias` as `brand_<column>`, for a query that reads a brand beside other rows. */
export const BRAND_COLUMNS_AS = (alias: string) => COLUMN_LIST.map((c) => `${alias}.${c} AS brand_${c}`).join(', ');

/** The brand of a row read with BRAND_COLUMNS_AS; null when the join found none. */
export function brandOfRow(row: Record<string, unknown>): BrandRecord | null {
  if (row.brand_id === null || row.brand_id === undefined) return null;
  return Object.fromEntries(COLUMN_LIST.map((c) => [c, row[`brand_${c}`]])) as unknown as BrandRecord;
}

/**
 * The organization that owns a brand, or null when there is none: only to switch a person's session
 * to it when they are a member there (switchOrganization checks), never to read the brand.
 */
export async function brandOrganization(db: Queryable, brandId: string): Promise<string | null> {
  const { rows } = await db.query<{ organization_id: string }>('SELECT organization_id FROM brands WHERE id = $1', [
    brandId,
  ]);
  return rows[0]?.organization_id ?? null;
}

/** The brand if it belongs to the organization, else the 404 of docs/api.md (other tenants' brands do not exist). */
export async function brandInOrganization(
  pg: Postgres,
  organizationId: string | null,
  brandId: string,
): Promise<BrandRecord> {
  if (organizationId) {
    const { rows } = await pg.query<BrandRecord>(
      `SELECT ${COLUMNS} FROM brands WHERE id = $1 AND organization_id = $2`,
      [brandId, organizationId],
      { prepared: true },
    );
    if (rows[0]) return rows[0];
  }
  throw notFound(BRAND_NOT_FOUND);
}

/**
 * brandInOrganization, answered by `known` when it is that brand: a row read earlier in the same
 * request, with the caller's key and under the same condition (resolveKeyAndBrand).
 */
export function brandOfCaller(
  pg: Postgres,
  organizationId: string | null,
  brandId: string,
  known?: BrandRecord | null,
): Promise<BrandRecord> {
  if (known && known.id === brandId && known.organization_id === organizationId) return Promise.resolve(known);
  return brandInOrganization(pg, organizationId, brandId);
}

export async function brandsOfOrganization(pg: Postgres, organizationId: string | null): Promise<BrandRecord[]> {
  if (!organizationId) return [];
  const { rows } = await pg.query<BrandRecord>(
    `SELECT ${COLUMNS} FROM brands WHERE organization_id = $1 ORDER BY created_at DESC, created_seq DESC`,
    [organizationId],
  );
  return rows;
}

/**
 * Every brand, oldest first, for jobs and commands acting on behalf of the system; narrowed to
 * the brands of some organizations and/or to one brand when asked.
 */
export async function allBrands(
  pg: Queryable,
  scope: { organizationIds?: string[]; brandId?: string } = {},
): Promise<BrandRecord[]> {
  const { rows } = await pg.query(
    `SELECT ${COLUMNS} FROM brands
      WHERE ($1::uuid[] IS NULL OR organization_id = ANY($1::uuid[])) AND ($2::uuid IS NULL OR id = $2)
      ORDER BY created_at, created_seq`,
    [scope.organizationIds ?? null, scope.brandId ?? null],
  );
  return rows as BrandRecord[];
}

/** Looks a brand up without a tenant (ingestion and jobs, which act on behalf of the system). */
export async function brandById(pg: Postgres, brandId: string): Promise<BrandRecord | undefined> {
  const { rows } = await pg.query<BrandRecord>(`SELECT ${COLUMNS} FROM brands WHERE id = $1`, [brandId]);
  return rows[0];
}

/** Those of `ids` that are brands (as their rows have them): ingestion's batch scope is made of these. */
export async function existingBrandIds(pg: Queryable, ids: readonly string[]): Promise<BrandId[]> {
  if (!ids.length) return [];
  const { rows } = await pg.query<{ id: BrandId }>('SELECT id FROM brands WHERE id = ANY($1::uuid[]) ORDER BY id', [
    [...ids],
  ]);
  return rows.map((r) => r.id);
}

/** The brand whose site beacons carry `trackingId`, with its domains as stored. */
export async function brandByTrackingId(pg: Queryable, trackingId: string) {
  const { rows } = await pg.query('SELECT id, domains FROM brands WHERE tracking_id = $1', [trackingId]);
  return rows[0] as { id: string; domains: string[] | null } | undefined;
}

/**
 * The figures of these brands changed: their cached results are stale (docs/architecture.md, result cache).
 * `earliestDay`: the earliest day (YYYY-MM-DD, UTC) the change can touch, when known; a change of
 * today's or later days only leaves figures of earlier ranges cached (history_version stays).
 */
export async function bumpDataVersion(pg: Queryable, brandIds: string[], earliestDay?: string): Promise<void> {
  const history = earliestDay === undefined || earliestDay < isoDay(Date.now()) ? 1 : 0;
  await pg.query(
    'UPDATE brands SET data_version = data_version + 1, history_version = history_version + $2 ' +
      'WHERE id = ANY($1::uuid[])',
    [brandIds, history],
  );
}

export interface Competitor {
  id: string;
  name: string;
  aliases: string[];
  domains: string[];
}

/** The brand's competitors by name (id breaks ties), the order every list of them shows. */
export async function competitorsOf(pg: Queryable, brandId: string): Promise<Competitor[]> {
  const { rows } = await pg.query(
    'SELECT id, name, aliases, domains FROM competitors WHERE brand_id = $1 ORDER BY name, id',
    [brandId],
  );
  return rows as Competitor[];
}

/** The brand and its competitors as analysis entities, brand first. */
export async function brandEntities(pg: Postgres, brand: BrandRecord): Promise<Entity[]> {
  const { rows } = await pg.query<{ id: string; name: string; aliases: string[]; domains: string[] }>(
    'SELECT id, name, aliases, domains FROM competitors WHERE brand_id = $1 ORDER BY created_at, name',
    [brand.id],
  );
  return [
    { id: brand.id, kind: 'brand', name: brand.name, aliases: brand.aliases, domains: brand.domains },
    ...rows.map((r) => ({
      id: r.id,
      kind: 'competitor' as const,
      name: r.name,
      aliases: r.aliases,
      domains: r.domains,
    })),
  ];
}
