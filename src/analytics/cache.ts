// Reporting tools repeat the same requests all day. Results are cached under the operation, its
// normalised parameters and the brand's data_version, which every ingest into the brand bumps
// (in Postgres, so all instances see it): new data changes the key, so figures are never stale.
// Figures of a range that ended before today are keyed by history_version instead, which only a
// change reaching back before today bumps (operations/context.ts versionOf).
// Names and topic membership live in Postgres and are not versioned; the TTL bounds how long a
// renamed competitor or a moved prompt can show its old state.
import { resultCacheLookups } from '../runtime/metrics.ts';

export class ResultCache {
  private entries = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(
    private readonly maxEntries = 5000,
    private readonly ttlMs = 5 * 60_000,
  ) {}

  async get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) {
      resultCacheLookups.inc({ outcome: 'hit' });
      // Re-insert: Map order is the LRU order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value as Promise<T>;
    }
    resultCacheLookups.inc({ outcome: 'miss' });
    const value = compute();
    this.entries.set(key, { at: now, value });
    // A failure is not cached: the next request tries again.
    value.catch(() => this.entries.get(key)?.value === value && this.entries.delete(key));
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}

/** A stable key for a parameter object: sorted keys, Dates as ISO strings. */
export function cacheKey(parts: unknown[]): string {
  return JSON.stringify(parts, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}
