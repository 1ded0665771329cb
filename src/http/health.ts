// GET /healthz: the process is up and its event loop answers. GET /readyz: this instance can serve,
// i.e. both stores answer within READY_TIMEOUT_MS and no migration is pending; otherwise 503 naming
// what is wrong, so a load balancer takes the instance out until the store is back (no restart is
// needed: the pools reconnect on their own). Both answer without a key and outside the rate limit.
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Stores } from '../stores/index.ts';
import { pendingMigrations } from '../stores/migrate.ts';
import { forMethods, pathRouter } from '../runtime/router.ts';

export const READY_TIMEOUT_MS = 2_000;

export interface Check {
  ok: boolean;
  ms?: number;
  error?: string;
  pending?: string[];
}
export interface Readiness {
  status: 'ready' | 'not ready';
  checks: { postgres: Check; clickhouse: Check; migrations: Check };
}

/** Set by the server when it starts shutting down: /readyz then answers 503 at once. */
export interface HealthState {
  stopping: boolean;
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

async function probe(name: string, fn: () => Promise<unknown>, timeoutMs: number, log?: Logger): Promise<Check> {
  const started = performance.now();
  try {
    await withDeadline(fn(), timeoutMs);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (err) {
    // The cause (addresses, driver messages) goes to the log, not to an unauthenticated client.
    log?.warn({ err, check: name }, 'readiness check failed');
    const late = (err as Error).message.startsWith('no answer within');
    return { ok: false, error: late ? `no answer within ${timeoutMs} ms` : 'unavailable' };
  }
}

export async function readiness(stores: Stores, opts: { timeoutMs?: number; log?: Logger } = {}): Promise<Readiness> {
  const timeoutMs = opts.timeoutMs ?? READY_TIMEOUT_MS;
  const [postgres, clickhouse] = await Promise.all([
    probe('postgres', () => stores.pg.query('SELECT 1'), timeoutMs, opts.log),
    probe('clickhouse', () => stores.ch.system('SELECT 1'), timeoutMs, opts.log),
  ]);
  let migrations: Check = { ok: false, error: 'unknown while Postgres is unavailable' };
  if (postgres.ok) {
    let pending: string[] = [];
    migrations = await probe(
      'migrations',
      async () => {
        pending = await pendingMigrations(stores.pg);
      },
      timeoutMs,
      opts.log,
    );
    if (migrations.ok && pending.length) migrations = { ok: false, error: 'migrations pending', pending };
  }
  const ready = postgres.ok && clickhouse.ok && migrations.ok;
  return { status: ready ? 'ready' : 'not ready', checks: { postgres, clickhouse, migrations } };
}

/**
 * The `extra` mount: answers the two paths before the API-key guard and the rate limit. Only GET
 * and HEAD reach its router; another method passes on, as for a path nobody answers (a 404).
 */
export function healthMount(deps: { stores: Stores; log: Logger; state: HealthState }): (app: Koa) => void {
  const router = pathRouter('refused');
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    if (deps.state.stopping) {
      ctx.status = 503;
      ctx.body = { status: 'not ready', reason: 'shutting down' };
      return;
    }
    const result = await readiness(deps.stores, { log: deps.log });
    ctx.status = result.status === 'ready' ? 200 : 503;
    ctx.body = result;
  });
  return (app) => {
    app.use(forMethods(['GET', 'HEAD'], router));
  };
}
