// Environment -> typed configuration. The only module that reads process.env:
// everything else receives a Config, so tests can build one without touching the process.
//
// Each setting is declared once, at its place in the Config: `env(VARIABLE, schema)` names the
// variable that feeds it and how it is read, and the Config type is the schema's output.
import path from 'node:path';
import { z } from 'zod';

/** The environment variable behind each setting's schema. */
const variables = z.registry<{ variable: string }>();
function env<S extends z.ZodType>(variable: string, schema: S): S {
  variables.add(schema, { variable });
  return schema;
}

const flag = z.enum(['0', '1']).transform((v) => v === '1');
const port = z.coerce.number().int().min(0).max(65535);
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const postgresUrl = z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' });
const positiveInt = z.coerce.number().int().positive();
const ms = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const nonEmpty = z.string().min(1);
/** `s` normalised to its origin when it is one (scheme://host[:port], no path), else undefined. */
const originOf = (s: string) => {
  if (!/^https?:\/\/[^/\s]+\/?$/i.test(s)) return undefined;
  try {
    return new URL(s).origin;
  } catch {
    return undefined;
  }
};

/** Origins (scheme://host[:port], comma-separated, or `*`), each normalised to its `origin`. */
const origins = z.string().transform((v, ctx) => {
  const list: string[] = [];
  for (const item of v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const normalised = item === '*' ? item : originOf(item);
    if (!normalised) {
      ctx.addIssue({ code: 'custom', message: `${item} is not an origin (scheme://host[:port]) or *` });
      return z.NEVER;
    }
    list.push(normalised);
  }
  return list;
});

/** One origin (scheme://host[:port], no path), normalised to its `origin`. */
const origin = z.string().transform((v, ctx) => {
  const normalised = originOf(v.trim());
  if (!normalised) {
    ctx.addIssue({ code: 'custom', message: 'must be scheme://host[:port], without a path' });
    return z.NEVER;
  }
  return normalised;
});

/** Milliseconds, comma-separated. */
const msList = z.string().transform((v, ctx) => {
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  if (list.some((n) => !Number.isInteger(n) || n < 0)) {
    ctx.addIssue({ code: 'custom', message: 'must be comma-separated non-negative integers (ms)' });
    return z.NEVER;
  }
  return list;
});

const schema = z.object({
  port: env('PORT', port.default(8787)),
  host: env('HOST', nonEmpty.default('127.0.0.1')),
  dataDir: env(
    'DATA_DIR',
    nonEmpty.default('./data').transform((dir) => path.resolve(dir)),
  ),
  databaseUrl: env('DATABASE_URL', postgresUrl.optional()),
  // Deadlines of one store call, so a slow or hung store fails a request with a clear 500 instead of
  // holding it (docs/operations.md). ClickHouse's covers large inserts too, hence longer.
  /** Deadline of one `pg.query` (ms). */
  databaseQueryTimeoutMs: env('PG_QUERY_TIMEOUT_MS', ms(100, 600_000).default(10_000)),
  clickhouse: z.object({
    url: env('CLICKHOUSE_URL', httpUrl.optional()),
    user: env('CLICKHOUSE_USER', z.string().optional()),
    password: env('CLICKHOUSE_PASSWORD', z.string().optional()),
    database: env(
      'CLICKHOUSE_DATABASE',
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain identifier')
        .default('answerscope'),
    ),
    // A cluster name makes migrations run ON CLUSTER with Replicated* engines (docs/operations.md).
    cluster: env(
      'CLICKHOUSE_CLUSTER',
      z
        .string()
        .regex(/^[A-Za-z0-9_.-]+$/, 'must be a plain cluster name')
        .optional(),
    ),
    requestTimeoutMs: env('CLICKHOUSE_REQUEST_TIMEOUT_MS', ms(100, 3_600_000).default(30_000)),
    // Reads handed to ClickHouse at once; the rest wait in one line per organization, served in
    // turns (src/runtime/fair-queue.ts). Unset: 2 for the embedded chDB, each on a connection of its
    // own (bench/isolation.ts: another organization's p99 beside a heavy one 35 ms with 2, 115 ms
    // with 1, 64 ms with 3), 8 for a server. 0: no line, every read goes straight through.
    readSlots: env('CLICKHOUSE_READ_SLOTS', z.coerce.number().int().min(0).max(256).optional()),
    // Time one tenant read may run (ClickHouse's max_execution_time) before it is stopped with a
    // 500 that says so: no request can hold the engine for long.
    queryBudgetMs: env('CLICKHOUSE_QUERY_BUDGET_MS', ms(100, 3_600_000).default(10_000)),
  }),
  rateLimit: z.object({
    max: env('RATE_LIMIT_MAX', positiveInt.default(250)),
    windowS: env('RATE_LIMIT_WINDOW_S', positiveInt.default(900)),
    // `postgres` shares the per-IP counters between instances that use one Postgres server.
    store: env('RATE_LIMIT_STORE', z.enum(['memory', 'postgres']).default('memory')),
  }),
  // The tracking beacon's own per-address limit (POST /api/collect), apart from the API's.
  collectRateLimit: z.object({
    max: env('COLLECT_RATE_LIMIT_MAX', positiveInt.default(600)),
    windowS: env('COLLECT_RATE_LIMIT_WINDOW_S', positiveInt.default(60)),
  }),
  // The crawler-log batch endpoint's own per-address limit (POST /api/mcp/crawler-logs), in place of
  // the API's: a log forwarder posts far more often than people call the API (docs/crawlers.md).
  // Its counters live where the API's do (RATE_LIMIT_STORE).
  // The app's own routes (/app/api/*: per client address and per session) and its forms (sign-in,
  // first run, invitations, the consent page's: per client address), apart from the API's.
  appRateLimit: z.object({
    max: env('APP_RATE_LIMIT_MAX', positiveInt.default(1200)),
    sessionMax: env('APP_SESSION_RATE_LIMIT_MAX', positiveInt.default(600)),
    windowS: env('APP_RATE_LIMIT_WINDOW_S', positiveInt.default(60)),
    formMax: env('APP_FORM_RATE_LIMIT_MAX', positiveInt.default(30)),
    formWindowS: env('APP_FORM_RATE_LIMIT_WINDOW_S', positiveInt.default(60)),
  }),
  crawlerLogsRateLimit: z.object({
    max: env('CRAWLER_LOGS_RATE_LIMIT_MAX', positiveInt.default(120)),
    windowS: env('CRAWLER_LOGS_RATE_LIMIT_WINDOW_S', positiveInt.default(60)),
  }),
  // How many proxies in front of the service are trusted (docs/operations.md): the client address is
  // the Nth entry from the right of X-Forwarded-For; 0 ignores the header (and X-Forwarded-Proto/-Host).
  trustProxy: env(
    'TRUST_PROXY',
    z
      .string()
      .regex(/^\d{1,2}$/, 'must be the number of trusted proxies: 0 (none), 1, 2, ...')
      .transform(Number)
      .default(0),
  ),
  // The service's public address (scheme://host[:port]): the OAuth issuer and the resource the MCP
  // endpoint's 401 points to (docs/oauth.md). Unset: taken from each request's Host (and, with
  // TRUST_PROXY, X-Forwarded-Proto/-Host), which suits loopback and tests but not production.
  publicUrl: env('PUBLIC_URL', origin.optional()),
  allowPrivateUrls: env('ALLOW_PRIVATE_URLS', flag.default(false)),
  oauth: z.object({
    // Dynamic client registrations accepted from one client address in 24 hours (docs/oauth.md):
    // registration needs no key, so each address may create only so many rows.
    registrationsPerAddress: env('OAUTH_REGISTRATIONS_PER_ADDRESS', positiveInt.default(20)),
  }),
  // Outgoing mail (invitations to the app, docs/app.md): smtp:// or smtps://user:pass@host:port.
  // Unset: nothing is mailed, and the app shows the invitation link to copy instead.
  mail: z.object({
    smtpUrl: env('SMTP_URL', z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional()),
    from: env('SMTP_FROM', nonEmpty.default('Answerscope <answerscope@localhost>')),
  }),
  audits: z.object({
    // Overall deadline of one site audit in ms; the page itself gets half of it (docs/audits.md).
    timeoutMs: env('AUDIT_TIMEOUT_MS', ms(500, 120_000).default(30_000)),
    // First-byte time that still scores full marks on response_time (its slower grades scale with it).
    fastMs: env('AUDIT_FAST_MS', ms(50, 60_000).default(600)),
  }),
  llm: z.object({
    baseUrl: env('LLM_BASE_URL', httpUrl.optional()),
    apiKey: env('LLM_API_KEY', z.string().optional()),
    model: env('LLM_MODEL', z.string().optional()),
    // Deadline of one chat-completions attempt (a failed or late attempt is retried once).
    timeoutMs: env('LLM_TIMEOUT_MS', ms(100, 600_000).default(60_000)),
  }),
  content: z.object({
    // est_ai_volume = total Google volume x this (docs/content.md).
    aiVolumeMultiplier: env('AI_VOLUME_MULTIPLIER', z.coerce.number().min(0).max(100).default(0.15)),
  }),
  // `0` turns the in-process cron schedule off (one-off commands, tests).
  scheduler: env('SCHEDULER', flag.default(true)),
  // Whether this instance runs queued re-analyses (docs/analysis.md); `answerscope reanalyze` works either way.
  reanalysisWorker: env('REANALYSIS_WORKER', flag.default(true)),
  // Analytics results kept in memory per process (src/analytics/cache.ts); 0 turns the cache off.
  resultCacheEntries: env('RESULT_CACHE_ENTRIES', z.coerce.number().int().min(0).default(5000)),
  logLevel: env('LOG_LEVEL', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  // How long SIGTERM waits for in-flight requests, jobs and flushes before exiting anyway (exit 1).
  shutdownTimeoutMs: env('SHUTDOWN_TIMEOUT_MS', ms(100, 600_000).default(30_000)),
  // `1` checks every operation's result against its declared schema before it is sent, so a shape
  // that drifted from the documentation fails loudly (src/operations/result-check.ts). The test
  // servers turn it on; production leaves it off, as the check costs a parse of every response.
  validateResults: env('VALIDATE_RESULTS', flag.default(false)),
  mcp: z.object({
    // Origins a browser may call /api/mcp from, beyond localhost; requests with another Origin
    // header get 403 (DNS-rebinding protection).
    allowedOrigins: env('MCP_ALLOWED_ORIGINS', origins.default([])),
  }),
  // Answer capture (src/tracking/capture/capture.ts, README "Tracking engines"). `live` calls the providers
  // below and reports a platform whose key is unset as not configured; `simulated` must be asked
  // for explicitly, so made-up answers never pass for real ones.
  tracking: z.object({
    engine: env('TRACKING_ENGINE', z.enum(['live', 'simulated']).default('live')),
    /** Answers per (prompt, platform, region) and day. */
    samples: env('TRACKING_SAMPLES', z.coerce.number().int().min(1).max(20).default(1)),
    /**
     * PROVIDER_PRICES: a JSON file replacing the price table of the cost preview (the shape of
     * src/tracking/capture/provider-prices.json); unset: that table.
     */
    pricesFile: env('PROVIDER_PRICES', nonEmpty.transform((f) => path.resolve(f)).optional()),
    /** Captures in flight at once per provider. */
    concurrency: env('TRACKING_CONCURRENCY', z.coerce.number().int().min(1).max(64).default(4)),
    timeoutMs: env('TRACKING_TIMEOUT_MS', ms(100, 600_000).default(120_000)),
    /** HTTP attempts per capture (429, 5xx and timeouts are retried with back-off). */
    maxAttempts: env('TRACKING_MAX_ATTEMPTS', z.coerce.number().int().min(1).max(10).default(3)),
    retryBaseMs: env('TRACKING_RETRY_BASE_MS', ms(0, 60_000).default(2_000)),
    // One answer provider each: its key (unset: its platforms are not configured), endpoint and model.
    providers: z.object({
      openai: z.object({
        apiKey: env('OPENAI_API_KEY', z.string().optional()),
        baseUrl: env('OPENAI_BASE_URL', httpUrl.default('https://api.openai.com/v1')),
        model: env('OPENAI_MODEL', nonEmpty.default('gpt-4o')),
      }),
      perplexity: z.object({
        apiKey: env('PERPLEXITY_API_KEY', z.string().optional()),
        baseUrl: env('PERPLEXITY_BASE_URL', httpUrl.default('https://api.perplexity.ai')),
        model: env('PERPLEXITY_MODEL', nonEmpty.default('sonar')),
      }),
      gemini: z.object({
        apiKey: env('GEMINI_API_KEY', z.string().optional()),
        baseUrl: env('GEMINI_BASE_URL', httpUrl.default('https://generativelanguage.googleapis.com/v1beta')),
        model: env('GEMINI_MODEL', nonEmpty.default('gemini-2.5-flash')),
      }),
      anthropic: z.object({
        apiKey: env('ANTHROPIC_API_KEY', z.string().optional()),
        baseUrl: env('ANTHROPIC_BASE_URL', httpUrl.default('https://api.anthropic.com/v1')),
        model: env('ANTHROPIC_MODEL', nonEmpty.default('claude-sonnet-4-20250514')),
      }),
      xai: z.object({
        apiKey: env('XAI_API_KEY', z.string().optional()),
        baseUrl: env('XAI_BASE_URL', httpUrl.default('https://api.x.ai/v1')),
        model: env('XAI_MODEL', nonEmpty.default('grok-4')),
      }),
      serpapi: z.object({
        apiKey: env('SERPAPI_API_KEY', z.string().optional()),
        baseUrl: env('SERPAPI_BASE_URL', httpUrl.default('https://serpapi.com')),
        // No variable: SerpApi's engines are chosen per platform (src/tracking/capture/engines/serpapi.ts).
        model: z.string().default(''),
      }),
    }),
  }),
  // Webhook delivery (docs/webhooks.md): the waits before each retry (the last attempt's failure
  // marks the delivery failed), the per-attempt deadline, whether this instance runs the delivery
  // worker, and an optional key that encrypts endpoint secrets at rest.
  webhooks: z.object({
    retryScheduleMs: env(
      'WEBHOOK_RETRY_SCHEDULE_MS',
      msList.default([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]),
    ),
    timeoutMs: env('WEBHOOK_TIMEOUT_MS', ms(100, 60_000).default(10_000)),
    worker: env('WEBHOOK_WORKER', flag.default(true)),
    secretKey: env('WEBHOOK_SECRET_KEY', z.string().min(16, 'must be at least 16 characters').optional()),
  }),
});

export type Config = z.output<typeof schema>;
export type TrackingConfig = Config['tracking'];
export type ProviderName = keyof TrackingConfig['providers'];
/** One answer provider: its key (unset: its platforms are not configured), endpoint and model. */
export type ProviderConfig = TrackingConfig['providers'][ProviderName];
/** The process environment, or a test's stand-in for it. */
export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {}

type Shape = Record<string, z.ZodType>;

/** The schema's input, each setting read from its variable; empty strings count as unset, as shells
 *  often export VAR= to clear a value. */
function read(shape: Shape, vars: Env): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(shape)) {
    const variable = variables.get(setting)?.variable;
    if (variable) input[key] = vars[variable] === '' ? undefined : vars[variable];
    else if (setting instanceof z.ZodObject) input[key] = read(setting.shape, vars);
  }
  return input;
}

/** The variable behind the setting at `path` (a path inside a setting's own value ends at the setting). */
function variableAt(path: PropertyKey[]): string {
  let node: z.ZodType = schema;
  for (const key of path) {
    if (!(node instanceof z.ZodObject)) break;
    node = (node.shape as Shape)[String(key)];
    const variable = variables.get(node)?.variable;
    if (variable) return variable;
  }
  return path.map(String).join('.');
}

/** Validates the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(vars: Env = process.env): Config {
  const parsed = schema.safeParse(read(schema.shape, vars));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = variableAt(issue.path);
    throw new ConfigError(`Invalid ${variable}=${JSON.stringify(vars[variable])}: ${issue.message}`);
  }
  return parsed.data;
}

/** True when both stores are embedded, so this process would own DATA_DIR. */
export function isEmbedded(config: Config): { postgres: boolean; clickhouse: boolean } {
  return { postgres: !config.databaseUrl, clickhouse: !config.clickhouse.url };
}
