// Prometheus metrics (prom-client), served at GET /metrics without authentication and outside the
// rate limit, like /healthz: scrape it from inside the network and keep it off the public edge
// (docs/operations.md). The registry and the counters of work outside requests live in
// src/runtime/metrics.ts; this file adds the request counters and serves the whole registry.
import type Koa from 'koa';
import client from 'prom-client';
import { registry } from '../runtime/metrics.ts';
import { forMethods, pathRouter } from '../runtime/router.ts';

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

// Operations and the raw endpoints (src/http/raw.ts) label themselves; the other fixed routes get a
// label here, and anything else is `other`, so a scan of random paths cannot create a label per path.
const ROUTES: Record<string, string> = {
  '/healthz': 'healthz',
  '/readyz': 'readyz',
  '/metrics': 'metrics',
  '/api/openapi.json': 'openapi',
  '/docs': 'docs',
  '/api/mcp': 'mcp',
};

export function routeLabel(path: string, operation: string | undefined): string {
  if (operation) return operation;
  if (ROUTES[path]) return ROUTES[path];
  return path.startsWith('/docs/') ? 'docs' : 'other';
}

/** Called by the app's request logger once a response is decided. */
export function recordRequest(
  method: string,
  path: string,
  operation: string | undefined,
  status: number,
  seconds: number,
): void {
  const label = routeLabel(path, operation);
  httpRequests.inc({ operation: label, method, status: String(status) });
  httpDuration.observe({ operation: label, status: String(status) }, seconds);
}

/** GET /metrics: the Prometheus text exposition. Another method passes on, as for a path nobody answers. */
export function metricsMount(): (app: Koa) => void {
  const router = pathRouter('refused');
  router.get('/metrics', async (ctx) => {
    ctx.set('Content-Type', registry.contentType);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await registry.metrics();
  });
  // HEAD too passes on: @koa/router would answer it with the GET route.
  return (app) => {
    app.use(forMethods(['GET'], router));
  };
}
