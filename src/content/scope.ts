// The brands a content job runs for: one (`--brand`) or every brand.
import type { Postgres } from '../stores/postgres.ts';
import { UserError } from '../errors.ts';
import { brandById, type BrandRecord } from '../tenancy/brands.ts';

export async function brandsInScope(pg: Postgres, brandId?: string): Promise<BrandRecord[]> {
  if (brandId) {
    const brand = await brandById(pg, brandId);
    if (!brand) throw new UserError(`Unknown brand ${brandId}`);
    return [brand];
  }
  const { rows } = await pg.query<{ id: string }>('SELECT id FROM brands ORDER BY created_at, id');
  const brands = await Promise.all(rows.map((r) => brandById(pg, r.id)));
  return brands.filter((b): b is BrandRecord => b !== undefined);
}
