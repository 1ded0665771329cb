// Builds the per-request context handed to an operation's `run`.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Stores } from '../stores/index.ts';
import { brandInOrganization, type BrandRecord } from '../tenancy/brands.ts';
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

export function createCtx(deps: AppDeps, identity: Identity, log: Logger = deps.log): Ctx {
  return {
    identity,
    stores: deps.stores,
    config: deps.config,
    log,
    now: deps.now ?? (() => new Date()),
    brand: (id) => brandInOrganization(deps.stores.pg, identity.organizationId, id),
    cached: <T>(brand: BrandRecord, key: unknown[], compute: () => Promise<T>) =>
      (deps.cache ?? noCache).get(cacheKey([brand.id, brand.data_version, ...key]), compute),
  };
}
