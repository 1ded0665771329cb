// The cluster path cannot break silently: no ClickHouse server runs here, but the engine can
// parse. Every ClickHouse migration rendered for a cluster (ON CLUSTER, Replicated* engines) is
// parsed by chDB, so a statement only a cluster would reject (an ON CLUSTER in the wrong place, a
// typo in an engine name's placement) fails the suite.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { clickhouseStatements } from '../../src/stores/migrate.ts';
import { openClickHouse, type ClickHouse } from '../../src/stores/clickhouse.ts';

const DIR = path.resolve(import.meta.dirname, '../../clickhouse');
let ch: ClickHouse;
let dataDir: string;
test.before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-cluster-'));
  ch = await openClickHouse({ database: 'default', dataDir });
});
test.after.always(async () => {
  await ch?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const files = fs.readdirSync(DIR).filter((f) => /^\d+_[\w-]+\.sql$/.test(f));

test('there are migrations to check', (t) => {
  t.true(files.length >= 5);
});

for (const file of files) {
  test(`${file}: every statement, rendered for a cluster, parses`, async (t) => {
    const statements = clickhouseStatements(fs.readFileSync(path.join(DIR, file), 'utf8'), 'answerscope_cluster');
    t.true(statements.length > 0);
    for (const statement of statements) {
      t.false(statement.includes('{{'), 'a placeholder was left');
      // formatQuery parses the statement (any kind, DDL included) without running it.
      const [row] = await ch.system<{ f: string }>('SELECT formatQuery({q:String}) AS f', { q: statement });
      t.regex(row.f, /ON CLUSTER answerscope_cluster|^INSERT|^SELECT/i, statement.slice(0, 80));
      if (/ENGINE\s*=\s*\w*MergeTree/i.test(statement)) t.regex(row.f, /ENGINE = Replicated/, statement.slice(0, 80));
    }
  });
}

test('a statement a cluster would reject does not parse', async (t) => {
  await t.throwsAsync(
    ch.system('SELECT formatQuery({q:String})', { q: 'ALTER TABLE t ADD COLUMN x UInt8 ON CLUSTER c' }),
  );
});
