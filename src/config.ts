// Environment -> typed configuration. The only module that reads process.env:
// everything else receives a Config, so tests can build one without touching the process.
import path from 'node:path';
import { z } from 'zod';

const flag = z.enum(['0', '1']).transform((v) => v === '1');
const port = z.coerce.number().int().min(0).max(65535);
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const postgresUrl = z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' });
const positiveInt = z.coerce.number().int().positive();

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
  RATE_LIMIT_MAX: positiveInt.default(250),
  RATE_LIMIT_WINDOW_S: positiveInt.default(900),
  // `postgres` shares the per-IP counters between instances that use one Postgres server.
  RATE_LIMIT_STORE: z.enum(['memory', 'postgres']).default('memory'),
  TRUST_PROXY: flag.default(false),
  ALLOW_PRIVATE_URLS: flag.default(false),
  LLM_BASE_URL: httpUrl.optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  // `0` turns the in-process cron schedule off (one-off commands, tests).
  SCHEDULER: flag.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.input<typeof schema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  clickhouse: { url?: string; user?: string; password?: string; database: string; cluster?: string };
  rateLimit: { max: number; windowS: number; store: 'memory' | 'postgres' };
  trustProxy: boolean;
  allowPrivateUrls: boolean;
  llm: { baseUrl?: string; apiKey?: string; model?: string };
  scheduler: boolean;
  logLevel: string;
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
    clickhouse: {
      url: e.CLICKHOUSE_URL,
      user: e.CLICKHOUSE_USER,
      password: e.CLICKHOUSE_PASSWORD,
      database: e.CLICKHOUSE_DATABASE,
      cluster: e.CLICKHOUSE_CLUSTER,
    },
    rateLimit: { max: e.RATE_LIMIT_MAX, windowS: e.RATE_LIMIT_WINDOW_S, store: e.RATE_LIMIT_STORE },
    trustProxy: e.TRUST_PROXY,
    allowPrivateUrls: e.ALLOW_PRIVATE_URLS,
    llm: { baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL },
    scheduler: e.SCHEDULER,
    logLevel: e.LOG_LEVEL,
  };
}

/** True when both stores are embedded, so this process would own DATA_DIR. */
export function isEmbedded(config: Config): { postgres: boolean; clickhouse: boolean } {
  return { postgres: !config.databaseUrl, clickhouse: !config.clickhouse.url };
}
