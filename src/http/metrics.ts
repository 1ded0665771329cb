// Prometheus metrics (prom-client), served at GET /metrics without authentication and outside the
// rate limit, like /healthz: scrape it from inside the network and keep it off the public edge
// (docs/operations.md). One registry per process; the modules that count import their counter here.
import type Koa from 'koa';
import client from 'prom-client';
import type { StoreObserver } from '../stores/observe.ts';

export const registry = new client.Registry();
// CPU, memory, event-loop lag, GC and handles of this process.
client.collectDefaultMetrics({ register: registry, prefix: 'answerscope_' });

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const httpRequests = new client.Counter({
  name: 'answerscope_http_requests_total',
  help: 'HTTP requests by operation (or route), method and status',
  labelNames: ['operation', 'method', 'status'] as const,
  registers: [registry],
});

const httpDuration = new client.Histogram({
  name: 'answerscope_http_request_duration_seconds',
  help: 'HTTP request latency by operation (or route) and status',
  labelNames: ['operation', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

const storeDuration = new client.Histogram({
  name: 'answerscope_store_call_duration_seconds',
  help: 'Latency of store calls (postgres: query, tx; clickhouse: rows, insert) and whether they failed',
  labelNames: ['store', 'call', 'outcome'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 30],
  registers: [registry],
});

/** Answers reaching ingestion: inserted (new id), replaced (re-imported id) or rejected (invalid, unknown prompt). */
export const ingestAnswers = new client.Counter({
  name: 'answerscope_ingest_answers_total',
  help: 'Answers ingested, by outcome: inserted, replaced, rejected',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Webhook delivery attempts: succeeded, retry (failed, will be retried) or failed (given up). */
export const webhookAttempts = new client.Counter({
  name: 'answerscope_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts, by outcome: succeeded, retry, failed',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Scheduled job ticks: succeeded, failed, or skipped (another instance holds the slot). */
export const jobRuns = new client.Counter({
  name: 'answerscope_job_runs_total',
  help: 'Job runs by job and outcome: succeeded, failed, skipped (the slot was claimed elsewhere)',
  labelNames: ['job', 'outcome'] as const,
  registers: [registry],
});

// Routes outside the operation list get a fixed label; anything else is `other`, so a scan of
// random paths cannot create a label per path.
const ROUTES: Record<string, string> = {
  '/healthz': 'healthz', '/readyz': 'readyz', '/metrics': 'metrics', '/api/openapi.json': 'openapi',
  '/docs': 'docs', '/api/collect': 'collect', '/t.js': 'tracking-script', '/api/mcp': 'mcp',
};

export function routeLabel(path: string, operation: string | undefined): string {
  if (operation) return operation;
  if (ROUTES[path]) return ROUTES[path];
  return path.startsWith('/docs/') ? 'docs' : 'other';
}

/** Called by the app's request logger once a response is decided. */
export function recordRequest(method: string, path: string, operation: string | undefined, status: number, seconds: number): void {
  const label = routeLabel(path, operation);
  httpRequests.inc({ operation: label, method, status: String(status) });
  httpDuration.observe({ operation: label, status: String(status) }, seconds);
}

export const observeStore: StoreObserver = (store, call, seconds, failed) => {
  storeDuration.observe({ store, call, outcome: failed ? 'error' : 'ok' }, seconds);
};

/** GET /metrics: the Prometheus text exposition. */
export function metricsMount(): (app: Koa) => void {
  return (app) => {
    app.use(async (ctx, next) => {
      if (ctx.path !== '/metrics' || ctx.method !== 'GET') return next();
      ctx.set('Content-Type', registry.contentType);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await registry.metrics();
    });
  };
}
