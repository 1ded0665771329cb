// Starts the whole service: stores, migrations, HTTP surfaces, the admin channel (embedded mode)
// and the schedule. main.ts, the demo and the tests all start it through here.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';
import { isEmbedded } from './config.ts';
import { openStores, type Stores } from './stores/index.ts';
import { migrate } from './stores/migrate.ts';
import { createApp } from './http/app.ts';
import { operations } from './operations/index.ts';
import { startAdminChannel } from './cli/admin.ts';
import { runCommand } from './cli/commands.ts';
import { jobs } from '../jobs/index.ts';
import { startScheduler } from '../jobs/schedule.ts';

export interface RunningServer {
  url: string;
  stores: Stores;
  config: Config;
  log: Logger;
  close(): Promise<void>;
}

export async function startServer(config: Config, opts: { log?: Logger; now?: () => Date } = {}): Promise<RunningServer> {
  const log = opts.log ?? pino({ level: config.logLevel });
  const stores = await openStores(config);
  const closers: (() => Promise<void>)[] = [() => stores.close()];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch((err) => log.error({ err }, 'shutdown step failed'));
  };
  try {
    const applied = await migrate(stores.pg, stores.ch);
    if (applied.postgres.length || applied.clickhouse.length) log.info(applied, 'migrations applied');

    const deps = { config, stores, log, now: opts.now };
    const app = await createApp({ ...deps, operations });
    const server = http.createServer(app.callback());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
    closers.push(() => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }));

    const embedded = isEmbedded(config);
    if (embedded.postgres || embedded.clickhouse) {
      const admin = await startAdminChannel(config.dataDir, (argv, cwd) =>
        runCommand({ stores, config, log, cwd, now: opts.now }, argv));
      closers.push(() => admin.close());
    }
    if (config.scheduler) {
      const scheduler = startScheduler({ stores, config, log, now: opts.now ?? (() => new Date()) }, jobs);
      closers.push(() => scheduler.stop());
    }

    const { port } = server.address() as AddressInfo;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    return { url: `http://${host}:${port}`, stores, config, log, close };
  } catch (err) {
    await close();
    throw err;
  }
}
