// Applies the numbered SQL files of postgres/ and clickhouse/ in order, once each, recorded in the
// Postgres table schema_migrations (ClickHouse files also in ClickHouse's own schema_migrations,
// which decides whether they run). A session advisory lock makes two starting instances take
// turns: the second finds everything applied. ClickHouse DDL is not transactional, so its files
// use IF NOT EXISTS throughout and a half-applied file is simply applied again.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Postgres } from './postgres.ts';
import type { ClickHouse } from './clickhouse.ts';
import { MIGRATION_LOCK } from './locks.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface MigrationResult {
  postgres: string[];
  clickhouse: string[];
}

function migrationFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir))
    .filter((f) => /^\d+_[\w-]+\.sql$/.test(f))
    .sort();
}

/** Substitutes the cluster placeholders and splits a file into single statements. */
export function clickhouseStatements(sql: string, cluster?: string): string[] {
  const text = sql
    .replaceAll('{{ON_CLUSTER}}', cluster ? `ON CLUSTER \`${cluster}\`` : '')
    .replaceAll('{{REPLICATED}}', cluster ? 'Replicated' : '');
  return text
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}

export async function migrate(pg: Postgres, ch: ClickHouse): Promise<MigrationResult> {
  const client = await pg.pool.connect();
  try {
    // The lock first: two instances creating the table at once can collide even with IF NOT EXISTS.
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        store text NOT NULL, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (store, name))`);
      const done = new Set(
        (await client.query('SELECT store, name FROM schema_migrations')).rows.map((r) => `${r.store}/${r.name}`),
      );
      const result: MigrationResult = { postgres: [], clickhouse: [] };
      for (const name of migrationFiles('postgres')) {
        if (done.has(`postgres/${name}`)) continue;
        const sql = fs.readFileSync(path.join(ROOT, 'postgres', name), 'utf8');
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (store, name) VALUES ($1, $2)', ['postgres', name]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(`Postgres migration ${name} failed: ${(err as Error).message}`);
        }
        result.postgres.push(name);
      }
      // ClickHouse keeps its own record too, and it decides: a fresh ClickHouse behind an existing
      // Postgres (a new DATA_DIR, a replaced server) gets its tables even though Postgres has them listed.
      await ch.command({
        query:
          `CREATE TABLE IF NOT EXISTS schema_migrations ${ch.cluster ? `ON CLUSTER \`${ch.cluster}\`` : ''}
          (name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3)) ` +
          `ENGINE = ${ch.cluster ? 'Replicated' : ''}ReplacingMergeTree ORDER BY name`,
      });
      const chDone = new Set(
        (await ch.system<{ name: string }>('SELECT DISTINCT name FROM schema_migrations')).map((r) => r.name),
      );
      for (const name of migrationFiles('clickhouse')) {
        if (chDone.has(name)) continue;
        const sql = fs.readFileSync(path.join(ROOT, 'clickhouse', name), 'utf8');
        for (const statement of clickhouseStatements(sql, ch.cluster)) {
          try {
            await ch.command({ query: statement });
          } catch (err) {
            throw new Error(`ClickHouse migration ${name} failed: ${(err as Error).message}`);
          }
        }
        await ch.insert('schema_migrations', [{ name }]);
        await client.query('INSERT INTO schema_migrations (store, name) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
          'clickhouse',
          name,
        ]);
        result.clickhouse.push(name);
      }
      return result;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** Names of migration files not yet applied; /readyz reports on this. */
export async function pendingMigrations(pg: Postgres): Promise<string[]> {
  const applied = new Set(
    (await pg.query('SELECT store, name FROM schema_migrations')).rows.map((r) => `${r.store}/${r.name}`),
  );
  return [
    ...migrationFiles('postgres').map((n) => `postgres/${n}`),
    ...migrationFiles('clickhouse').map((n) => `clickhouse/${n}`),
  ].filter((n) => !applied.has(n));
}
