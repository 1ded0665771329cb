// Environment -> typed configuration. The only module that reads process.env:
// everything else receives a Config, so tests can build one without touching the process.
import path from 'node:path';
import { z } from 'zod';

const flag = z.enum(['0', '1']).transform((v) => v === '1');
const port = z.coerce.number().int().min(0).max(65535);
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const postgresUrl = z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' });
const positiveInt = z.coerce.number().int().positive();
const parseUrl = (s: string) => { try { return new URL(s); } catch { return undefined; } };

const schema = z.object({
  PORT: port.default(8787),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: postgresUrl.optional(),
  CLICKHOUSE_URL: httpUrl.optional(),
  CLICKHOUSE_USER: z.string().optional(),
  CLICKHOUSE_PASSWORD: z.string().optional(),
  CLICKHOUSE_DATABASE: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain identifier').default('answerscope'),
  // A cluster name makes migrations run ON CLUSTER with Replicated* engines (docs/operations.md).
  CLICKHOUSE_CLUSTER: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'must be a plain cluster name').optional(),
  // Deadlines of one store call, so a slow or hung store fails a request with a clear 500 instead of
  // holding it (docs/operations.md). ClickHouse's covers large inserts too, hence longer.
  PG_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  CLICKHOUSE_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  RATE_LIMIT_MAX: positiveInt.default(250),
  RATE_LIMIT_WINDOW_S: positiveInt.default(900),
  // `postgres` shares the per-IP counters between instances that use one Postgres server.
  RATE_LIMIT_STORE: z.enum(['memory', 'postgres']).default('memory'),
  // The tracking beacon's own per-address limit (POST /api/collect), apart from the API's.
  COLLECT_RATE_LIMIT_MAX: positiveInt.default(600),
  COLLECT_RATE_LIMIT_WINDOW_S: positiveInt.default(60),
  TRUST_PROXY: flag.default(false),
  ALLOW_PRIVATE_URLS: flag.default(false),
  // Overall deadline of one site audit in ms; the page itself gets half of it (docs/audits.md).
  AUDIT_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(30_000),
  // First-byte time that still scores full marks on response_time (its slower grades scale with it).
  AUDIT_FAST_MS: z.coerce.number().int().min(50).max(60_000).default(600),
  LLM_BASE_URL: httpUrl.optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  // Deadline of one chat-completions attempt (a failed or late attempt is retried once).
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  // est_ai_volume = total Google volume x this (docs/content.md).
  AI_VOLUME_MULTIPLIER: z.coerce.number().min(0).max(100).default(0.15),
  // `0` turns the in-process cron schedule off (one-off commands, tests).
  SCHEDULER: flag.default(true),
  // Origins (scheme://host[:port], comma-separated, or `*`) a browser may call /api/mcp from, beyond
  // localhost; requests with another Origin header get 403 (DNS-rebinding protection).
  MCP_ALLOWED_ORIGINS: z.string().transform((v, ctx) => {
    const origins: string[] = [];
    for (const item of v.split(',').map((s) => s.trim()).filter(Boolean)) {
      const url = item === '*' || !/^https?:\/\/[^/\s]+\/?$/i.test(item) ? undefined : parseUrl(item);
      if (item !== '*' && !url) {
        ctx.addIssue({ code: 'custom', message: `${item} is not an origin (scheme://host[:port]) or *` });
        return z.NEVER;
      }
      origins.push(url ? url.origin : item);
    }
    return origins;
  }).default([]),
  // Analytics results kept in memory per process (src/analytics/cache.ts); 0 turns the cache off.
  RESULT_CACHE_ENTRIES: z.coerce.number().int().min(0).default(5000),
  // How long SIGTERM waits for in-flight requests, jobs and flushes before exiting anyway (exit 1).
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Answer capture (src/tracking/capture.ts, README "Tracking engines"). `live` calls the providers
  // below and reports a platform whose key is unset as not configured; `simulated` must be asked
  // for explicitly, so made-up answers never pass for real ones.
  TRACKING_ENGINE: z.enum(['live', 'simulated']).default('live'),
  TRACKING_SAMPLES: z.coerce.number().int().min(1).max(20).default(1),
  TRACKING_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  TRACKING_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(120_000),
  TRACKING_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  TRACKING_RETRY_BASE_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: httpUrl.default('https://api.openai.com/v1'),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o'),
  PERPLEXITY_API_KEY: z.string().optional(),
  PERPLEXITY_BASE_URL: httpUrl.default('https://api.perplexity.ai'),
  PERPLEXITY_MODEL: z.string().min(1).default('sonar'),
  GEMINI_API_KEY: z.string().optional(),
  GEMINI_BASE_URL: httpUrl.default('https://generativelanguage.googleapis.com/v1beta'),
  GEMINI_MODEL: z.string().min(1).default('gemini-2.5-flash'),
  ANTHROPIC_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: httpUrl.default('https://api.anthropic.com/v1'),
  ANTHROPIC_MODEL: z.string().min(1).default('claude-sonnet-4-20250514'),
  XAI_API_KEY: z.string().optional(),
  XAI_BASE_URL: httpUrl.default('https://api.x.ai/v1'),
  XAI_MODEL: z.string().min(1).default('grok-4'),
  SERPAPI_API_KEY: z.string().optional(),
  SERPAPI_BASE_URL: httpUrl.default('https://serpapi.com'),
  // Webhook delivery (docs/webhooks.md): the waits before each retry (ms, comma-separated; the last
  // attempt's failure marks the delivery failed), the per-attempt deadline, whether this instance
  // runs the delivery worker, and an optional key that encrypts endpoint secrets at rest.
  WEBHOOK_RETRY_SCHEDULE_MS: z.string().transform((v, ctx) => {
    const list = v.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
    if (list.some((n) => !Number.isInteger(n) || n < 0)) {
      ctx.addIssue({ code: 'custom', message: 'must be comma-separated non-negative integers (ms)' });
      return z.NEVER;
    }
    return list;
  }).default([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_WORKER: flag.default(true),
  WEBHOOK_SECRET_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
});

export type Env = z.input<typeof schema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Deadline of one `pg.query` (ms). */
  databaseQueryTimeoutMs: number;
  clickhouse: { url?: string; user?: string; password?: string; database: string; cluster?: string; requestTimeoutMs: number };
  rateLimit: { max: number; windowS: number; store: 'memory' | 'postgres' };
  collectRateLimit: { max: number; windowS: number };
  trustProxy: boolean;
  allowPrivateUrls: boolean;
  audits: { timeoutMs: number; fastMs: number };
  llm: { baseUrl?: string; apiKey?: string; model?: string; timeoutMs: number };
  content: { aiVolumeMultiplier: number };
  scheduler: boolean;
  resultCacheEntries: number;
  logLevel: string;
  shutdownTimeoutMs: number;
  mcp: { allowedOrigins: string[] };
  tracking: TrackingConfig;
  webhooks: { retryScheduleMs: number[]; timeoutMs: number; worker: boolean; secretKey?: string };
}

/** One answer provider: its key (unset: its platforms are not configured), endpoint and model. */
export interface ProviderConfig { apiKey?: string; baseUrl: string; model: string }
export type ProviderName = 'openai' | 'perplexity' | 'gemini' | 'anthropic' | 'xai' | 'serpapi';

export interface TrackingConfig {
  engine: 'live' | 'simulated';
  /** Answers per (prompt, platform, region) and day. */
  samples: number;
  /** Captures in flight at once per provider. */
  concurrency: number;
  timeoutMs: number;
  /** HTTP attempts per capture (429, 5xx and timeouts are retried with back-off). */
  maxAttempts: number;
  retryBaseMs: number;
  providers: Record<ProviderName, ProviderConfig>;
}

export class ConfigError extends Error {}

/** Validates the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings count as unset, as shells often export VAR= to clear a value.
  const cleaned = Object.fromEntries(
    Object.keys(schema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0]);
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name])}: ${issue.message}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseQueryTimeoutMs: e.PG_QUERY_TIMEOUT_MS,
    clickhouse: {
      url: e.CLICKHOUSE_URL,
      user: e.CLICKHOUSE_USER,
      password: e.CLICKHOUSE_PASSWORD,
      database: e.CLICKHOUSE_DATABASE,
      cluster: e.CLICKHOUSE_CLUSTER,
      requestTimeoutMs: e.CLICKHOUSE_REQUEST_TIMEOUT_MS,
    },
    rateLimit: { max: e.RATE_LIMIT_MAX, windowS: e.RATE_LIMIT_WINDOW_S, store: e.RATE_LIMIT_STORE },
    collectRateLimit: { max: e.COLLECT_RATE_LIMIT_MAX, windowS: e.COLLECT_RATE_LIMIT_WINDOW_S },
    trustProxy: e.TRUST_PROXY,
    allowPrivateUrls: e.ALLOW_PRIVATE_URLS,
    audits: { timeoutMs: e.AUDIT_TIMEOUT_MS, fastMs: e.AUDIT_FAST_MS },
    llm: { baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL, timeoutMs: e.LLM_TIMEOUT_MS },
    content: { aiVolumeMultiplier: e.AI_VOLUME_MULTIPLIER },
    scheduler: e.SCHEDULER,
    resultCacheEntries: e.RESULT_CACHE_ENTRIES,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    mcp: { allowedOrigins: e.MCP_ALLOWED_ORIGINS },
    tracking: {
      engine: e.TRACKING_ENGINE,
      samples: e.TRACKING_SAMPLES,
      concurrency: e.TRACKING_CONCURRENCY,
      timeoutMs: e.TRACKING_TIMEOUT_MS,
      maxAttempts: e.TRACKING_MAX_ATTEMPTS,
      retryBaseMs: e.TRACKING_RETRY_BASE_MS,
      providers: {
        openai: { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL, model: e.OPENAI_MODEL },
        perplexity: { apiKey: e.PERPLEXITY_API_KEY, baseUrl: e.PERPLEXITY_BASE_URL, model: e.PERPLEXITY_MODEL },
        gemini: { apiKey: e.GEMINI_API_KEY, baseUrl: e.GEMINI_BASE_URL, model: e.GEMINI_MODEL },
        anthropic: { apiKey: e.ANTHROPIC_API_KEY, baseUrl: e.ANTHROPIC_BASE_URL, model: e.ANTHROPIC_MODEL },
        xai: { apiKey: e.XAI_API_KEY, baseUrl: e.XAI_BASE_URL, model: e.XAI_MODEL },
        serpapi: { apiKey: e.SERPAPI_API_KEY, baseUrl: e.SERPAPI_BASE_URL, model: '' },
      },
    },
    webhooks: {
      retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      worker: e.WEBHOOK_WORKER,
      secretKey: e.WEBHOOK_SECRET_KEY,
    },
  };
}

/** True when both stores are embedded, so this process would own DATA_DIR. */
export function isEmbedded(config: Config): { postgres: boolean; clickhouse: boolean } {
  return { postgres: !config.databaseUrl, clickhouse: !config.clickhouse.url };
}
