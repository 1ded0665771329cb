// The process's Prometheus registry (prom-client) and the counters of the work it does outside
// requests: store calls, ingestion, webhook deliveries, job runs. One registry per process; the
// modules that count import their counter here, and src/http/metrics.ts serves it at GET /metrics.
import client from 'prom-client';

export const registry = new client.Registry();
// CPU, memory, event-loop lag, GC and handles of this process.
client.collectDefaultMetrics({ register: registry, prefix: 'answerscope_' });

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

/**
 * Entities named in a captured answer that kept the built-in sentiment verdict although the model
 * was asked (src/tracking/capture/sentiment-judge.ts): the call failed, the model skipped the entity, or
 * its verdict was invalid.
 */
export const sentimentFallbacks = new client.Counter({
  name: 'answerscope_sentiment_model_fallbacks_total',
  help: 'Named entities whose sentiment fell back to the built-in analyser, by reason: failed, skipped, invalid',
  labelNames: ['reason'] as const,
  registers: [registry],
});

/** Result cache look-ups (src/analytics/cache.ts): hit or miss. */
export const resultCacheLookups = new client.Counter({
  name: 'answerscope_result_cache_lookups_total',
  help: 'Analytics result cache look-ups, by outcome: hit, miss',
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

/**
 * A store observer (src/stores/observe.ts) that times each store call. Its parameters are plain
 * strings so this file, below the stores, needs nothing of theirs.
 */
export function observeStore(store: string, call: string, seconds: number, failed: boolean): void {
  storeDuration.observe({ store, call, outcome: failed ? 'error' : 'ok' }, seconds);
}
