// Tracking id (brands.tracking_id, the `data-site` of the script) -> brand id, cached in memory:
// every beacon names its site, and a database round trip per beacon would cap collection at the
// database's pace (embedded PGlite has one connection). Unknown ids are cached too, briefly, so a
// flood of made-up ids cannot reach the database either.
import type { Postgres } from '../stores/index.ts';

export interface SiteResolver {
  /** The brand id, or undefined for an unknown tracking id. */
  brandOf(trackingId: string): Promise<string | undefined>;
}

export interface SiteCacheOptions {
  knownTtlMs?: number;
  unknownTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry { value: Promise<string | undefined>; expires: number }

export function createSiteResolver(pg: Pick<Postgres, 'query'>, opts: SiteCacheOptions = {}): SiteResolver {
  const knownTtl = opts.knownTtlMs ?? 60_000;
  const unknownTtl = opts.unknownTtlMs ?? 10_000;
  const maxEntries = opts.maxEntries ?? 10_000;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, Entry>();

  const load = async (trackingId: string) => {
    const { rows } = await pg.query<{ id: string }>('SELECT id FROM brands WHERE tracking_id = $1', [trackingId]);
    return rows[0]?.id;
  };

  return {
    brandOf(trackingId) {
      const t = now();
      const hit = cache.get(trackingId);
      if (hit && hit.expires > t) return hit.value;
      // Past the cap, start over rather than track recency: the working set of real sites is small.
      if (cache.size >= maxEntries) cache.clear();
      // The promise is cached, so concurrent beacons for one site share one query.
      const value = load(trackingId);
      const entry: Entry = { value, expires: t + knownTtl };
      cache.set(trackingId, entry);
      value.then(
        (id) => { if (id === undefined) entry.expires = now() + unknownTtl; },
        () => { if (cache.get(trackingId) === entry) cache.delete(trackingId); },
      );
      return value;
    },
  };
}
