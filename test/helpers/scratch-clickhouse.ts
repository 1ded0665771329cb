// A chDB of its own for a migration test: an empty data directory, removed when the test ends,
// with migrations (clickhouse/*.sql) applied as the migrator does, one statement at a time.
// chDB opens once per process, so tests using it run one after the other (test.serial).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { type ClickHouse, openClickHouse } from '../../src/stores/clickhouse.ts';
import { clickhouseStatements } from '../../src/stores/migrate.ts';

const DIR = new URL('../../clickhouse/', import.meta.url);

/** The migration files whose names sort before `name` (e.g. '017'), in order. */
export const migrationsBefore = (name: string) =>
  fs
    .readdirSync(DIR)
    .filter((file) => file.endsWith('.sql') && file < name)
    .sort();

/** Applies one migration file (its name in clickhouse/). */
export async function applyMigration(ch: ClickHouse, file: string): Promise<void> {
  const sql = fs.readFileSync(new URL(file, DIR), 'utf8');
  for (const query of clickhouseStatements(sql)) await ch.command({ query });
}

/** An empty store for this test, with these migrations applied. */
export async function scratchClickHouse(t: ExecutionContext, migrations: readonly string[]): Promise<ClickHouse> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-migration-'));
  const ch = await openClickHouse({ database: 'default', dataDir: dir });
  t.teardown(async () => {
    await ch.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  for (const file of migrations) await applyMigration(ch, file);
  return ch;
}
