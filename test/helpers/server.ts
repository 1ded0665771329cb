// Starts the real service for a test file: a fresh DATA_DIR, the embedded chDB, and Postgres from
// DATABASE_URL (a fresh database created on that server and dropped afterwards) or else embedded
// PGlite. Each test seeds its own organization, so tests in a file can share one server, and in a
// shared test process (shared-process.ts) so can the test files: there startTestServer gives
// every file that asks for nothing a whole server would not also give the others, the same one,
// and every server the process's one chDB.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { migratedDataDir } from './data-dir.ts';
import { startClickHouseHttp } from './clickhouse-http.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { applyWorkspace, parseWorkspace } from '../../src/tenancy/workspace.ts';
import { createKey } from '../../src/tenancy/keys.ts';
import { ingestFile } from '../../src/tracking/ingest/file.ts';
import type { ClickHouse } from '../../src/stores/clickhouse.ts';
import type { ScopedQuery } from '../../src/stores/scoped-query.ts';
import type { BrandId } from '../../src/stores/scoped-query.ts';

export interface TestDatabase {
  url?: string;
  drop(): Promise<void>;
}

/** A fresh database on the server of DATABASE_URL, or none (embedded PGlite) when it is unset. */
export async function freshDatabase(baseUrl = process.env.DATABASE_URL): Promise<TestDatabase> {
  if (!baseUrl) return { url: undefined, drop: async () => {} };
  const name = `answerscope_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestServer extends RunningServer {
  dataDir: string;
  /** Environment for child processes (the CLI) that must reach the same stores. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  embeddedPostgres?: boolean;
  /**
   * A server of its own even in a shared test process, where it is otherwise shared by the files
   * that ask for no setting: for a file that needs a fresh Postgres or does what would disturb the
   * other files' requests (renames a table, holds the read connections busy).
   */
  ownServer?: boolean;
  embeddedClickHouse?: boolean;
  /** Where the server logs (silent by default): a file that reads the log, such as the first run's address. */
  log?: pino.Logger;
}

// The shared process's server: what it was started with, and how many files hold it.
const SHARED_ENV: Record<string, string> = {
  // The files' tests all come from 127.0.0.1: the limits are tested by files with servers of their own.
  RATE_LIMIT_MAX: '1000000',
  CRAWLER_LOGS_RATE_LIMIT_MAX: '1000000',
  COLLECT_RATE_LIMIT_MAX: '1000000',
};
let shared: { server: Promise<TestServer>; holders: number } | undefined;
/** Set by shared-process.ts before it loads the files (without loading this module for files that start no server). */
export const SHARING = Symbol.for('answerscope.test.shareServers');

/**
 * Whether `overrides` and `opts` need a server of their own beside the shared one: an option, or an
 * override the shared server has not, except a rate limit of at least 100,000 (the shared one is
 * higher; the files that test a limit set a small one).
 */
export function needsOwnServer(overrides: Record<string, string>, opts: TestServerOptions = {}): boolean {
  if (opts.embeddedPostgres || opts.embeddedClickHouse || opts.ownServer || opts.log) return true;
  return Object.entries(overrides).some(
    ([name, value]) => !(name.endsWith('RATE_LIMIT_MAX') && Number(value) >= 100_000) && SHARED_ENV[name] !== value,
  );
}

export async function startTestServer(
  overrides: Record<string, string> = {},
  opts: TestServerOptions = {},
): Promise<TestServer> {
  if (!(globalThis as Record<symbol, unknown>)[SHARING]) return startOwnServer(overrides, opts);
  // chDB holds one data directory per process: every server here uses the process's.
  if (opts.embeddedClickHouse) {
    throw new Error("startTestServer: this file needs a chDB of its own; drop its '// test-process: shared' line");
  }
  // A file that asks for what the shared server lacks gets a server of its own (a guest), on a
  // Postgres of its own beside the process's chDB; the file's hooks start and stop it with the
  // file's tests (ava-for-file.mjs), so it lives only while they run.
  if (needsOwnServer(overrides, opts)) return startOwnServer(overrides, opts, true);
  shared ??= { server: startOwnServer(SHARED_ENV, {}, true), holders: 0 };
  shared.holders++;
  const server = await shared.server;
  // Each file stops its server when done; the last one to do so stops the shared one.
  let stopped = false;
  return {
    ...server,
    async stop() {
      if (stopped || !shared) return;
      stopped = true;
      if (--shared.holders > 0) return;
      shared = undefined;
      await server.stop();
    },
  };
}

let processChDB: Promise<string> | undefined;
/**
 * The chDB folder of every server in this shared process: one migrated copy, removed when the
 * process exits (a server's stop removes only its own DATA_DIR, whose clickhouse folder links here).
 */
function processClickHouse(): Promise<string> {
  processChDB ??= migratedDataDir('clickhouse').then((dir) => {
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    return path.join(dir, 'clickhouse');
  });
  return processChDB;
}

/** A server on fresh stores; in a shared process (`inSharedProcess`), beside the process's chDB. */
async function startOwnServer(
  overrides: Record<string, string>,
  opts: TestServerOptions,
  inSharedProcess = false,
): Promise<TestServer> {
  const db = opts.embeddedPostgres ? await freshDatabase('') : await freshDatabase();
  const clickhouseServer = process.env.TEST_CLICKHOUSE === 'http' && !opts.embeddedClickHouse;
  // Embedded Postgres: a copy of migrated stores (data-dir.ts), its chDB too unless a ClickHouse
  // server stands in or the process's chDB is given (linked in). A Postgres server's fresh database
  // is migrated by the server start, and with it an empty chDB of its own.
  const linkChDB = inSharedProcess && !clickhouseServer;
  const dataDir = db.url
    ? fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-test-'))
    : await migratedDataDir(clickhouseServer || linkChDB ? 'postgres' : 'both');
  if (linkChDB) fs.symlinkSync(await processClickHouse(), path.join(dataDir, 'clickhouse'));
  // TEST_CLICKHOUSE=http: the ClickHouse server branch (CLICKHOUSE_URL), against chDB behind
  // ClickHouse's HTTP interface (clickhouse-http.ts) in a folder of this DATA_DIR.
  const clickhouse = clickhouseServer ? await startClickHouseHttp(path.join(dataDir, 'clickhouse-server')) : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: '0',
    SCHEDULER: '0',
    LOG_LEVEL: 'silent',
    // Every result is checked against its operation's documented schema (src/operations/result-check.ts).
    VALIDATE_RESULTS: '1',
    // Every test client registers from 127.0.0.1; the per-address bound has a test of its own.
    OAUTH_REGISTRATIONS_PER_ADDRESS: '100000',
    // Every test speaks from 127.0.0.1, many files at once; the app's own limits have a test of their own.
    APP_RATE_LIMIT_MAX: '100000',
    APP_SESSION_RATE_LIMIT_MAX: '100000',
    APP_FORM_RATE_LIMIT_MAX: '100000',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    ...(clickhouse ? { CLICKHOUSE_URL: clickhouse.url } : {}),
    ...overrides,
  };
  const config = loadConfig(env);
  const server = await startServer(config, { log: opts.log ?? pino({ level: 'silent' }) });
  return {
    ...server,
    dataDir,
    env,
    async stop() {
      await server.close();
      await clickhouse?.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const uniq = (label = 'x') => `${label}-${randomBytes(5).toString('hex')}`;

/** Ingests answers through an answer file, as `answerscope ingest` would; a rejected line fails the test. */
export async function ingestLines(server: TestServer, lines: object[]): Promise<void> {
  const file = path.join(server.dataDir, `${uniq('answers')}.jsonl`);
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
  const { rejected } = await ingestFile(server.stores, file);
  if (rejected.length) throw new Error(JSON.stringify(rejected));
}

/**
 * A new tenant whose first prompt has `n` answers (chatgpt, one a second from 2026-03-01 10:00 UTC),
 * each naming Acme.
 */
export async function tenantWithAnswers(server: TestServer, n: number): Promise<Tenant> {
  const tenant = await seedTenant(server);
  await ingestLines(
    server,
    Array.from({ length: n }, (_, i) => ({
      prompt_id: tenant.promptIds[0],
      platform: 'chatgpt',
      model: 'gpt-4o',
      region: 'US',
      collected_at: `2026-03-01T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`,
      text: `Answer ${i} names Acme.`,
      citations: [],
    })),
  );
  return tenant;
}

/** The SQL of every read `run` sends through `ch` (the tables a figure reads), one per line. */
export async function sqlSent(ch: ClickHouse, run: (ch: ClickHouse) => Promise<unknown>): Promise<string> {
  const sql: string[] = [];
  const rows = (q: ScopedQuery) => {
    sql.push(q.sql);
    return ch.rows(q);
  };
  await run({ ...ch, rows } as ClickHouse);
  return sql.join('\n');
}

/** Answers as the numbered lines ingestLines of src/tracking/ingest/file.ts reads (line 1 first). */
export function numberedLines(answers: object[]): AsyncIterable<{ line: number; text: string }> {
  return (async function* () {
    let line = 0;
    for (const a of answers) yield { line: ++line, text: JSON.stringify(a) };
  })();
}

export interface Tenant {
  organizationId: string;
  /** Read from the brands rows applyWorkspace wrote: a scoped read may take them. */
  brandId: BrandId;
  brandIds: BrandId[];
  competitorIds: string[];
  topicIds: string[];
  promptIds: string[];
  email: string;
  key: string;
  keyId: string;
  workspace: any;
}

/** Applies a workspace for a new organization (unique names) and creates a key for its member. */
export async function seedTenant(server: RunningServer, brands?: any[], plan = 'growth'): Promise<Tenant> {
  const email = `${uniq('user')}@example.test`;
  const workspace = {
    organizations: [
      {
        name: uniq('Org'),
        plan,
        members: [{ email }],
        brands: brands ?? [
          {
            name: 'Acme',
            slug: 'acme',
            industry: 'Software',
            region: 'US',
            domains: ['acme.example'],
            aliases: ['Acme Inc'],
            competitors: [{ name: 'Globex', domains: ['globex.example'], aliases: [] }],
            topics: [
              {
                name: 'CRM software',
                prompts: [{ text: 'best crm for startups', platforms: ['chatgpt', 'perplexity'], regions: ['US'] }],
              },
            ],
          },
        ],
      },
    ],
  };
  const applied = await applyWorkspace(server.stores.pg, parseWorkspace(workspace));
  const org = applied.organizations[0];
  const key = await createKey(server.stores.pg, { email });
  return {
    organizationId: org.id,
    brandId: org.brands[0]?.id as BrandId,
    brandIds: org.brands.map((b: any) => b.id as BrandId),
    competitorIds: org.brands.flatMap((b: any) => b.competitors.map((c: any) => c.id)),
    topicIds: org.brands.flatMap((b: any) => b.topics.map((t: any) => t.id)),
    promptIds: org.brands.flatMap((b: any) => [
      ...b.topics.flatMap((t: any) => t.prompts.map((p: any) => p.id)),
      ...(b.prompts ?? []).map((p: any) => p.id),
    ]),
    email,
    key: key.key,
    keyId: key.id,
    workspace,
  };
}

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

/** A tiny HTTP client for the running app. */
export async function call(
  server: { url: string },
  method: string,
  pathAndQuery: string,
  opts: { key?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}${pathAndQuery}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
  });
  return answerOf(res);
}

/** A response's status, headers and body: parsed when it is JSON, else its text. */
export async function answerOf(res: Response): Promise<{ status: number; body: any; headers: Headers }> {
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers };
}

export const get = (server: { url: string }, pathAndQuery: string, key?: string) =>
  call(server, 'GET', pathAndQuery, { key });
