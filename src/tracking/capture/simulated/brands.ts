// Gathers brands, their competitors and active prompts (from tenancy) into the simulated engine's input.
import type { Postgres } from '../../../stores/postgres.ts';
import { brandById, brandEntities } from '../../../tenancy/brands.ts';
import { activePrompts } from '../../../tenancy/prompts.ts';
import type { SimBrand } from './answers.ts';

export async function loadSimBrands(pg: Postgres, brandIds: string[]): Promise<SimBrand[]> {
  const out: SimBrand[] = [];
  for (const id of brandIds) {
    const brand = await brandById(pg, id);
    if (!brand) continue;
    const [self, ...competitors] = await brandEntities(pg, brand);
    const prompts = await activePrompts(pg, id);
    out.push({
      brand: self,
      competitors,
      // A prompt without regions is asked in the brand's own region.
      prompts: prompts.map((p) => ({
        id: p.id,
        text: p.text,
        platforms: p.platforms,
        regions: p.regions.length ? p.regions : [brand.region || 'US'],
      })),
    });
  }
  return out;
}
