// What `apply` or an API write can change of a brand, read before and after it in the same transaction:
// any difference makes its cached figures stale (data_version), and a difference in its entities,
// the names and surface forms answers are matched against, makes its stored analysis stale too
// (a re-analysis, docs/api.md section 10). Arrays compare as stored, in order: the analysis reads
// them in that order (the first entity claiming a form owns it), so a reorder is a change.
import type { Queryable } from '../stores/postgres.ts';

interface Entity {
  name: string;
  aliases: string[];
  domains: string[];
}

export interface BrandState {
  brand: Entity & { industry: string; region: string; tracking_id: string };
  competitors: (Entity & { id: string })[];
  topics: { id: string; name: string; is_active: boolean }[];
  prompts: {
    id: string;
    topic_id: string | null;
    text: string;
    platforms: string[];
    models: string[];
    regions: string[];
    is_active: boolean;
  }[];
}

/** The brand and everything of it that apply writes, in a stable order (competitors by name, the rest by id). */
export async function readBrandState(db: Queryable, brandId: string): Promise<BrandState> {
  const brand = await db.query(
    'SELECT name, aliases, domains, industry, region, tracking_id FROM brands WHERE id = $1',
    [brandId],
  );
  const competitors = await db.query(
    'SELECT id, name, aliases, domains FROM competitors WHERE brand_id = $1 ORDER BY name, id',
    [brandId],
  );
  const topics = await db.query('SELECT id, name, is_active FROM topics WHERE brand_id = $1 ORDER BY id', [brandId]);
  const prompts = await db.query(
    `SELECT id, topic_id, text, platforms, models, regions, is_active FROM prompts
      WHERE brand_id = $1 ORDER BY id`,
    [brandId],
  );
  return {
    brand: brand.rows[0] as BrandState['brand'],
    competitors: competitors.rows as BrandState['competitors'],
    topics: topics.rows as BrandState['topics'],
    prompts: prompts.rows as BrandState['prompts'],
  };
}

/** Anything apply writes differs: the brand's cached results must not be served again. */
export function stateChanged(before: BrandState, after: BrandState): boolean {
  return JSON.stringify(before) !== JSON.stringify(after);
}

const same = (a: string[], b: string[]) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The changes of the brand's entities, as a re-analysis reason ('' when none): a competitor added
 * or removed, renamed, or its aliases or domains changed; the brand's name, aliases or domains.
 */
export function entityChanges(before: BrandState, after: BrandState): string {
  const changes: string[] = [];
  if (before.brand.name !== after.brand.name) changes.push('name changed');
  if (!same(before.brand.aliases, after.brand.aliases)) changes.push('aliases changed');
  if (!same(before.brand.domains, after.brand.domains)) changes.push('domains changed');
  const old = new Map(before.competitors.map((c) => [c.id, c]));
  const kept = new Set(after.competitors.map((c) => c.id));
  for (const c of after.competitors) {
    const was = old.get(c.id);
    if (!was) changes.push(`competitor added: ${c.name}`);
    else {
      if (was.name !== c.name) changes.push(`competitor ${was.name} renamed ${c.name}`);
      if (!same(was.aliases, c.aliases)) changes.push(`competitor ${c.name}: aliases changed`);
      if (!same(was.domains, c.domains)) changes.push(`competitor ${c.name}: domains changed`);
    }
  }
  for (const c of before.competitors) if (!kept.has(c.id)) changes.push(`competitor removed: ${c.name}`);
  return changes.join('; ');
}
