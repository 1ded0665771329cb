// Reads brands, their competitors and active prompts from Postgres into the simulated engine's input.
import type { Postgres } from '../../stores/postgres.ts';
import { brandById, brandEntities } from '../../tenancy/brands.ts';
import type { Platform } from '../types.ts';
import type { SimBrand } from './simulated.ts';

export async function loadSimBrands(pg: Postgres, brandIds: string[]): Promise<SimBrand[]> {
  const out: SimBrand[] = [];
  for (const id of brandIds) {
    const brand = await brandById(pg, id);
    if (!brand) continue;
    const [self, ...competitors] = await brandEntities(pg, brand);
    const { rows } = await pg.query<{ id: string; text: string; platforms: Platform[]; regions: string[] }>(
      'SELECT id, text, platforms, regions FROM prompts WHERE brand_id = $1 AND is_active ORDER BY created_at, id',
      [id],
    );
    out.push({
      brand: self,
      competitors,
      // A prompt without regions is asked in the brand's own region.
      prompts: rows.map((p) => ({ ...p, regions: p.regions.length ? p.regions : [brand.region || 'US'] })),
    });
  }
  return out;
}
