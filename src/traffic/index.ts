// AI traffic collection, wired for the server: /t.js and /api/collect (outside the API-key guard and
// the API's rate limit), the visit buffer, and its flush on shutdown; and the crawler-log batch
// endpoint (behind the key, with a rate limit of its own: src/http/pipeline.ts).
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Stores } from '../stores/index.ts';
import { createLimiter } from '../runtime/rate-limit.ts';
import { createVisitBuffer } from './buffer.ts';
import { createSiteResolver } from './sites.ts';
import { collectRoute } from './collect.ts';
import { scriptRoute, serveScript } from './script.ts';
import { initCountryLookup } from './country.ts';
import { crawlerLogsRoute } from './crawlers/route.ts';

export interface Traffic {
  /** The handlers of the raw endpoints by declared name (src/operations/raw-endpoints.ts, routed by src/http/raw.ts). */
  handlers: Record<'tracking-script' | 'collect' | 'crawler-logs', Koa.Middleware>;
  /** Writes buffered visits now (tests, benchmarks). */
  flush(): Promise<void>;
  /** Flushes and stops the buffer (server shutdown, after the HTTP server has stopped). */
  close(): Promise<void>;
}

export async function createTraffic(deps: {
  config: Config;
  stores: Stores;
  log: Logger;
  now?: () => Date;
}): Promise<Traffic> {
  initCountryLookup();
  // In memory even when the API's counters live in Postgres: a database write per beacon would
  // cost more than the beacon, and this limit only guards against floods, per instance.
  const limiter = await createLimiter({ ...deps.config.collectRateLimit, store: 'memory', keyPrefix: 'collect' });
  const buffer = createVisitBuffer(deps.stores.ch, { log: deps.log });
  const sites = createSiteResolver(deps.stores.pg);
  const script = serveScript();
  return {
    handlers: {
      'tracking-script': scriptRoute(script),
      collect: collectRoute({ sites, buffer, limiter, now: deps.now ?? (() => new Date()) }),
      'crawler-logs': crawlerLogsRoute({ pg: deps.stores.pg, ch: deps.stores.ch, now: deps.now ?? (() => new Date()) }),
    },
    flush: () => buffer.flush(),
    close: () => buffer.close(),
  };
}
