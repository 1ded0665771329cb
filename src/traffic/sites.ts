// Tracking id (brands.tracking_id, the `data-site` of the script) -> the brand and its domains,
// cached in memory: every beacon names its site, and a database round trip per beacon would cap
// collection at the database's pace (embedded PGlite has one connection). Unknown ids are cached
// too, briefly, so a flood of made-up ids cannot reach the database either.
//
// The tracking id is public (it is in every page's HTML), so it does not prove where a beacon comes
// from: a beacon counts only for a page on one of the brand's domains (docs/api.md section 9). The
// domains are normalised once per look-up, so the check per beacon is a few string comparisons.
import type { Postgres } from '../stores/index.ts';
import { hostToDomain, normaliseDomain } from '../tracking/analysis/urls.ts';
import { brandByTrackingId } from '../tenancy/brands.ts';

export interface Site {
  brandId: string;
  /** The brand's domains, lower-case, without `www.` or a trailing dot (as citation domains are). */
  domains: readonly string[];
}

export interface SiteResolver {
  /** The brand behind a tracking id, or undefined for an unknown one. */
  siteOf(trackingId: string): Promise<Site | undefined>;
}

export interface SiteCacheOptions {
  knownTtlMs?: number;
  unknownTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

const DOT = 46;

/**
 * True when the page's host is one of the site's domains or a sub-domain of one, compared as
 * docs/api.md section 2 compares a citation's domain: lower-case, without a leading `www.`, port
 * ignored, whole labels only (`blog.acme.example` is on `acme.example`; `acme.example.evil.com`
 * and `evilacme.example` are not). A brand without domains has no such page.
 */
export function pageOnSite(pageUrl: string, site: Site): boolean {
  let hostname: string;
  try {
    hostname = new URL(pageUrl).hostname;
  } catch {
    return false;
  }
  return hostOnSite(hostname, site);
}

/** The same rule for a bare host name (no port), as a server log gives it. */
export function hostOnSite(hostname: string, site: Site): boolean {
  if (site.domains.length === 0) return false;
  const host = hostToDomain(hostname);
  for (const d of site.domains) {
    if (host === d) return true;
    if (host.length > d.length && host.endsWith(d) && host.charCodeAt(host.length - d.length - 1) === DOT) return true;
  }
  return false;
}

/** A brand's site: its domains normalised once (the beacon and the crawler logs judge hosts by it). */
export function siteOfBrand(brand: { id: string; domains?: string[] | null }): Site {
  // The workspace already stores bare domains; normalising again keeps the comparison exact
  // whatever wrote the row.
  const domains = (brand.domains ?? []).map(normaliseDomain).filter((d) => d !== '');
  return { brandId: brand.id, domains };
}

interface Entry {
  value: Promise<Site | undefined>;
  expires: number;
}

export function createSiteResolver(pg: Pick<Postgres, 'query'>, opts: SiteCacheOptions = {}): SiteResolver {
  const knownTtl = opts.knownTtlMs ?? 60_000;
  const unknownTtl = opts.unknownTtlMs ?? 10_000;
  const maxEntries = opts.maxEntries ?? 10_000;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, Entry>();

  const load = async (trackingId: string): Promise<Site | undefined> => {
    const brand = await brandByTrackingId(pg, trackingId);
    return brand ? siteOfBrand(brand) : undefined;
  };

  return {
    siteOf(trackingId) {
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
        (site) => {
          if (site === undefined) entry.expires = now() + unknownTtl;
        },
        () => {
          if (cache.get(trackingId) === entry) cache.delete(trackingId);
        },
      );
      return value;
    },
  };
}
