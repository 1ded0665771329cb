// Starts the whole service: stores, migrations, HTTP surfaces, the admin channel (embedded mode)
// and the schedule. main.ts, the demo and the tests all start it through here.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { isEmbedded } from './config.ts';
import { openStores, type Stores } from './stores/index.ts';
import { migrate } from './stores/migrate.ts';
import { createPipeline } from './http/pipeline.ts';
import { ResultCache } from './analytics/cache.ts';
import { operations } from './operations/index.ts';
import { startAdminChannel } from './cli/admin.ts';
import { runCommand } from './cli/commands.ts';
import { jobs } from '../jobs/index.ts';
import { startScheduler } from '../jobs/schedule.ts';
import { startAuditWorker } from './audits/runner.ts';
import { startWebhookWorker } from './webhooks/worker.ts';
import { startReanalysisWorker } from './tracking/reanalysis/queue.ts';
import { createTraffic, type Traffic } from './traffic/index.ts';
import { rawMount } from './http/raw.ts';
import { mcpMount, mcpOriginGuard } from './mcp/http.ts';
import { createLogger } from './logger.ts';
import { observeStores } from './stores/observe.ts';
import { healthMount, type HealthState } from './http/health.ts';
import { metricsMount } from './http/metrics.ts';
import { observeStore } from './runtime/metrics.ts';
import { docsMount } from './http/docs.ts';
import { answerClientErrors } from './http/client-errors.ts';
import { useCursorKey } from './cursor.ts';
import { serviceKey } from './stores/service-keys.ts';
import { appMount } from './http/app/routes.ts';
import { newSetupCode, setupAddress, setupOpen } from './tenancy/setup.ts';
import { priceTable } from './tracking/capture/prices.ts';

/** How long an idle keep-alive connection is kept (see where the server is made). */
const KEEP_ALIVE_MS = 65_000;

export interface RunningServer {
  url: string;
  stores: Stores;
  config: Config;
  log: Logger;
  /** AI-traffic collection: flush() writes the buffered visits now. */
  traffic: Pick<Traffic, 'flush'>;
  close(): Promise<void>;
}

export async function startServer(
  config: Config,
  opts: { log?: Logger; now?: () => Date; firstRunLink?: boolean } = {},
): Promise<RunningServer> {
  const log = opts.log ?? createLogger(config.logLevel);
  const stores = observeStores(await openStores(config), observeStore);
  const closers: (() => Promise<void>)[] = [() => stores.close()];
  const health: HealthState = { stopping: false };
  let stopHttp = async () => {};
  // Shutdown: stop accepting and let in-flight requests finish first (they may still buffer visits
  // or queue deliveries), then the workers and the schedule finish what they hold, then the traffic
  // buffer is flushed and the stores close.
  const close = async () => {
    health.stopping = true;
    await stopHttp().catch((err) => log.error({ err }, 'shutdown step failed'));
    for (const c of closers.reverse()) await c().catch((err) => log.error({ err }, 'shutdown step failed'));
  };
  try {
    const applied = await migrate(stores.pg, stores.ch);
    if (applied.postgres.length || applied.clickhouse.length) log.info(applied, 'migrations applied');
    // Paging cursors are signed with the key all instances share, so any of them takes another's.
    useCursorKey(await serviceKey(stores.pg, 'cursor'));
    // The cost preview's price table: a PROVIDER_PRICES file that does not parse stops the start.
    priceTable(config.tracking);

    const deps = {
      config,
      stores,
      log,
      now: opts.now,
      cache: config.resultCacheEntries > 0 ? new ResultCache(config.resultCacheEntries) : undefined,
    };
    // Surfaces beside the operations, mounted behind the rate limit and API-key guard of /api/.
    const extra: NonNullable<Parameters<typeof createPipeline>[0]['extra']> = [];
    // Probes, metrics and the API reference: no key, no rate limit.
    extra.push(healthMount({ stores, log, state: health }), metricsMount(), docsMount(operations));
    // AI traffic (/t.js, /api/collect, the crawler-log batch), the declared raw endpoints
    // (src/operations/raw-endpoints.ts): its buffer is flushed after the HTTP server has stopped.
    const traffic = await createTraffic(deps);
    closers.push(() => traffic.close());
    extra.push(rawMount(traffic.handlers));
    // The MCP server at /api/mcp (the guard with its origin check before the key, then the transport).
    extra.push(mcpMount(deps));
    // The app for people under /app (docs/app.md): its bundle is built here, before the first request.
    extra.push(await appMount(deps, operations));
    const app = await createPipeline({ ...deps, operations, extra, beforeKey: mcpOriginGuard(deps) });
    const server = http.createServer(app.callback());
    // An idle keep-alive connection is kept 65 s (Node's default is 5): longer than the idle time of
    // common load balancers (60 s), so the service never closes a connection a proxy or client is
    // about to reuse, which the client sees as a failed request. Headers may take a second longer.
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1_000;
    // Parser errors (headers too large, a malformed request) get a JSON body too.
    answerClientErrors(server, log);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
    stopHttp = () =>
      new Promise<void>((resolve) => {
        // Keep-alive connections left idle by a finished request are closed as they appear.
        const idle = setInterval(() => server.closeIdleConnections(), 100);
        server.close(() => {
          clearInterval(idle);
          resolve();
        });
        server.closeIdleConnections();
      });

    const embedded = isEmbedded(config);
    if (embedded.postgres || embedded.clickhouse) {
      const admin = await startAdminChannel(config.dataDir, (argv, cwd, input) =>
        runCommand({ stores, config, log, cwd, now: opts.now, input }, argv),
      );
      closers.push(() => admin.close());
    }
    if (config.scheduler) {
      const scheduler = startScheduler({ stores, config, log, now: opts.now ?? (() => new Date()) }, jobs);
      closers.push(() => scheduler.stop());
    }
    // Site audits run in the background of every server instance (claims keep them exclusive).
    // Re-analyses queued by workspace changes (one at a time; each holds the ingest lock).
    if (config.reanalysisWorker) {
      const reanalysisWorker = startReanalysisWorker({ stores, log });
      closers.push(() => reanalysisWorker.stop());
    }
    const auditWorker = startAuditWorker({ stores, config, log, now: opts.now });
    closers.push(() => auditWorker.stop());
    // Webhook deliveries likewise (claims keep each delivery to one instance); stop() lets sends finish.
    if (config.webhooks.worker) {
      const webhookWorker = startWebhookWorker({ stores, config, log });
      closers.push(() => webhookWorker.stop());
    }

    const { port } = server.address() as AddressInfo;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const url = `http://${host}:${port}`;
    // A fresh store: nobody can sign in yet, so the log says once where to create the first admin
    // (the demo sets its own password just after starting, and says none).
    if (opts.firstRunLink !== false && (await setupOpen(stores.pg))) {
      const address = setupAddress(config.publicUrl ?? url, await newSetupCode(stores.pg));
      log.warn({ setup_url: address }, `First run: open ${address} to create your organization and its first admin`);
    }
    return { url, stores, config, log, traffic, close };
  } catch (err) {
    await close();
    throw err;
  }
}
