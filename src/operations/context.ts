// Builds the per-request context handed to an operation's `run`.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Stores } from '../stores/index.ts';
import { brandOfCaller, type BrandRecord } from '../tenancy/brands.ts';
import { cacheKey, type ResultCache } from '../analytics/cache.ts';
import type { Identity } from '../tenancy/keys.ts';
import type { Ctx } from './registry.ts';

export interface AppDeps {
  config: Config;
  stores: Stores;
  log: Logger;
  now?: () => Date;
  /** Analytics results by brand data version; one per process. */
  cache?: ResultCache;
}

const noCache = { get: <T>(_key: string, compute: () => Promise<T>) => compute() };

/** How long after a day ends its figures count as settled: covers clock skew between instances. */
const SETTLE_MS = 60 * 60_000;

/**
 * The version a cached result is keyed by: history_version for figures whose last day ended over
 * an hour ago (only a change reaching back before today bumps it, so the daily ingest of today's
 * answers keeps them), data_version otherwise (every change bumps it).
 */
export function versionOf(brand: BrandRecord, until: Date | undefined, now: Date): string {
  if (until) {
    const dayEnd = Date.UTC(until.getUTCFullYear(), until.getUTCMonth(), until.getUTCDate() + 1);
    if (dayEnd + SETTLE_MS <= now.getTime()) return `h${brand.history_version}`;
  }
  return `d${brand.data_version}`;
}

/**
 * `known`: a brand of the caller's organization read in this request with its key: asked for by
 * id, it is used as it is (read in the same statement as the key, so as fresh as a read now).
 */
export function createCtx(
  deps: AppDeps,
  identity: Identity,
  log: Logger = deps.log,
  gone?: () => boolean,
  known?: BrandRecord | null,
): Ctx {
  const ctxNow = deps.now ?? (() => new Date());
  let stores: Stores | undefined;
  return {
    identity,
    // ClickHouse reads made for this caller wait in its organization's line, within the query
    // budget (src/runtime/fair-queue.ts, docs/operations.md). Made on first use.
    get stores() {
      stores ??= {
        ...deps.stores,
        ch: deps.stores.ch.forCaller(identity.organizationId ?? `user ${identity.userId}`, gone),
      };
      return stores;
    },
    config: deps.config,
    log,
    now: ctxNow,
    brand: (id) => brandOfCaller(deps.stores.pg, identity.organizationId, id, known),
    cached: <T>(brand: BrandRecord, key: unknown[], compute: () => Promise<T>, until?: Date) =>
      (deps.cache ?? noCache).get(cacheKey([brand.id, versionOf(brand, until, ctxNow()), ...key]), compute),
  };
}
