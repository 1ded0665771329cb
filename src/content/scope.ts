// The brands a content job runs for: one (`--brand`) or every brand.
import type { Postgres } from '../stores/postgres.ts';
import { UserError } from '../errors.ts';
import { allBrands, brandById, type BrandRecord } from '../tenancy/brands.ts';

export async function brandsInScope(pg: Postgres, brandId?: string): Promise<BrandRecord[]> {
  if (brandId) {
    const brand = await brandById(pg, brandId);
    if (!brand) throw new UserError(`Unknown brand ${brandId}`);
    return [brand];
  }
  return allBrands(pg);
}
