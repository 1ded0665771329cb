// A module reads and writes another module's Postgres tables only through that module's functions:
// SQL in a file under src/ and jobs/ names only tables its own module owns. A module is the first
// folder under src/ (a file directly in src/ owns none); jobs/ is a module of its own.
// test-process: shared
import test from 'ava';
import { ROOT, sourceFiles } from './source-files.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every Postgres table and the one module that owns it. */
const OWNER: Record<string, string> = {
  organizations: 'tenancy',
  users: 'tenancy',
  memberships: 'tenancy',
  api_keys: 'tenancy',
  quota_usage: 'tenancy',
  brands: 'tenancy',
  competitors: 'tenancy',
  topics: 'tenancy',
  prompts: 'tenancy',
  content_opportunities: 'content',
  topic_suggestions: 'content',
  prompt_volumes: 'content',
  keyword_volumes: 'content',
  site_audits: 'audits',
  webhook_endpoints: 'webhooks',
  webhook_deliveries: 'webhooks',
  webhook_attempts: 'webhooks',
  webhook_digests: 'webhooks',
  capture_runs: 'tracking',
  capture_requests: 'tracking',
  tracker_readings: 'tracking',
  alert_rules: 'alerts',
  alerts: 'alerts',
  reanalyses: 'tenancy',
  oauth_clients: 'tenancy',
  oauth_requests: 'tenancy',
  oauth_grants: 'tenancy',
  oauth_tokens: 'tenancy',
  sessions: 'tenancy',
  sign_in_failures: 'tenancy',
  invitations: 'tenancy',
  setup_codes: 'tenancy',
  report_subscriptions: 'reports',
  job_runs: 'jobs',
  schema_migrations: 'stores',
  service_keys: 'stores',
};

function moduleOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'jobs') return 'jobs';
  return parts.length > 2 ? parts[1] : '(src)';
}

// SQL here is written with upper-case keywords; a table follows FROM (also a comma list of
// tables), JOIN, UPDATE, INTO, USING or TABLE. Comment lines are skipped: prose may name tables.
const NAME = '[a-z_][a-z0-9_]*';
const ALIAS = String.raw`(?:\s+(?:AS\s+)?[a-z][a-z0-9_]*)?`;
const TABLE_REF = new RegExp(
  String.raw`\b(?:FROM|JOIN|UPDATE|INTO|USING|TABLE(?:\s+IF\s+NOT\s+EXISTS)?)\s+(?:ONLY\s+)?` +
    String.raw`(${NAME}${ALIAS}(?:\s*,\s*${NAME}${ALIAS})*)`,
  'g',
);

function tablesNamed(source: string): string[] {
  const code = source
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\/\*|\*)/.test(l))
    .join('\n');
  const names = [...code.matchAll(TABLE_REF)].flatMap((m) =>
    m[1].split(',').map((part) => part.trim().split(/\s+/)[0]),
  );
  return [...new Set(names)].filter((n) => n in OWNER);
}

test('the reader finds tables after each keyword, in comma lists and across lines, not in comments', (t) => {
  const source = [
    "pg.query('SELECT id FROM brands WHERE id = $1');",
    '`SELECT p.id FROM prompts p\n   JOIN topics t ON t.id = p.topic_id LEFT JOIN competitors c ON true`',
    "'UPDATE quota_usage SET used = 1'; 'INSERT INTO users (id) VALUES ($1)'",
    "'DELETE FROM memberships m USING api_keys k'; 'SELECT 1 FROM organizations o, webhook_digests AS d'",
    "'CREATE TABLE IF NOT EXISTS schema_migrations (name text)'",
    '// reads FROM site_audits',
    ' * UPDATE job_runs',
    "'SELECT 1 FROM answers'",
  ].join('\n');
  t.deepEqual(tablesNamed(source).sort(), [
    'api_keys',
    'brands',
    'competitors',
    'memberships',
    'organizations',
    'prompts',
    'quota_usage',
    'schema_migrations',
    'topics',
    'users',
    'webhook_digests',
  ]);
});

test('every table the Postgres migrations create has an owner', (t) => {
  const created = readdirSync(join(ROOT, 'postgres'))
    .filter((f) => f.endsWith('.sql'))
    .flatMap((f) => [
      ...readFileSync(join(ROOT, 'postgres', f), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/g),
    ])
    .map((m) => m[1]);
  t.deepEqual(
    created.filter((name) => !(name in OWNER)),
    [],
  );
});

test('SQL in src/ and jobs/ names only tables its own module owns', (t) => {
  const problems: string[] = [];
  for (const file of [...sourceFiles('src', /\.ts$/), ...sourceFiles('jobs', /\.ts$/)]) {
    const module = moduleOf(file);
    for (const table of tablesNamed(readFileSync(join(ROOT, file), 'utf8'))) {
      if (OWNER[table] !== module) problems.push(`${file} (${module}) names ${table}, a table of ${OWNER[table]}`);
    }
  }
  t.deepEqual(problems, []);
});
