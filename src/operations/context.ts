// Builds the per-request context handed to an operation's `run`.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Stores } from '../stores/index.ts';
import { brandInOrganization } from '../tenancy/brands.ts';
import type { Ctx, Identity } from './registry.ts';

export interface AppDeps {
  config: Config;
  stores: Stores;
  log: Logger;
  now?: () => Date;
}

export function createCtx(deps: AppDeps, identity: Identity, log: Logger = deps.log): Ctx {
  return {
    identity,
    stores: deps.stores,
    config: deps.config,
    log,
    now: deps.now ?? (() => new Date()),
    brand: (id) => brandInOrganization(deps.stores.pg, identity.organizationId, id),
  };
}
