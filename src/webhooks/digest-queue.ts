// The digest.daily subscriptions and the record of digests queued: which brands are due a digest for
// a day (their organization listens for digest.daily and none was queued for that day), and the one
// transaction that claims a (brand, day) and queues its deliveries, so the daily job is idempotent.
// What a digest says is composed by the job (jobs/digest.ts).
import type { BrandId } from '../stores/scoped-query.ts';
import type { Postgres } from '../stores/postgres.ts';
import { allBrands } from '../tenancy/brands.ts';
import { enqueueEvent } from './outbox.ts';

/** A brand due a digest. */
export interface DigestBrand {
  id: BrandId;
  name: string;
  organization_id: string;
  analysis_generation: number;
}

/**
 * The brands, oldest first, whose organization has an endpoint subscribed to digest.daily and that
 * have no digest for `day` yet: the endpoints and digests are ours, the brands tenancy's.
 */
export async function digestsDue(pg: Postgres, day: string, brandId?: string): Promise<DigestBrand[]> {
  const { rows: listening } = await pg.query<{ organization_id: string }>(
    `SELECT DISTINCT organization_id FROM webhook_endpoints WHERE 'digest.daily' = ANY (events)`,
  );
  const brands = await allBrands(pg, { organizationIds: listening.map((r) => r.organization_id), brandId });
  if (!brands.length) return [];
  const { rows: done } = await pg.query<{ brand_id: string }>(
    'SELECT brand_id FROM webhook_digests WHERE brand_id = ANY($1::uuid[]) AND day = $2',
    [brands.map((b) => b.id), day],
  );
  const digested = new Set(done.map((r) => r.brand_id));
  return brands
    .filter((b) => !digested.has(b.id))
    .map((b) => ({
      id: b.id,
      name: b.name,
      organization_id: b.organization_id,
      analysis_generation: b.analysis_generation,
    }));
}

/**
 * Queues a brand's digest for `day` to its organization's endpoints: the deliveries queued, or null
 * when another run claimed the (brand, day) first (the key decides, and the loser queues nothing).
 */
export async function queueDigest(pg: Postgres, brand: DigestBrand, day: string, data: object): Promise<number | null> {
  return pg.tx(async (client) => {
    const claim = await client.query(
      'INSERT INTO webhook_digests (brand_id, day, deliveries) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING',
      [brand.id, day],
    );
    if (!claim.rowCount) return null;
    const n = await enqueueEvent(client, { organizationId: brand.organization_id, type: 'digest.daily', data });
    await client.query('UPDATE webhook_digests SET deliveries = $3 WHERE brand_id = $1 AND day = $2', [
      brand.id,
      day,
      n,
    ]);
    return n;
  });
}
