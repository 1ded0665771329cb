import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import pg from 'pg';
import { freshDatabase } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';
import { clickhouseStatements } from '../../src/stores/migrate.ts';

// Several processes on one Postgres need a real server: PGlite is one process's.
const realPostgres = process.env.DATABASE_URL ? test : test.skip;

realPostgres('two processes migrating one database together apply each migration exactly once', async (t) => {
  const db = await freshDatabase();
  t.teardown(() => db.drop());
  const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-mig-')));
  t.teardown(() =>
    dirs.forEach((d) => {
      fs.rmSync(d, { recursive: true, force: true });
    }),
  );
  const runs = await Promise.all(dirs.map((d) => cli(['migrate'], { DATA_DIR: d, DATABASE_URL: db.url! })));
  for (const r of runs) t.is(r.code, 0, r.stderr);

  const expected = fs
    .readdirSync('postgres')
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const applied = runs.flatMap((r) => r.json.postgres).sort();
  t.deepEqual(applied, expected, 'every Postgres migration applied once, by one of the two');

  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const { rows } = await client.query(
    `SELECT store, count(*)::int AS n, count(DISTINCT name)::int AS d FROM schema_migrations GROUP BY store ORDER BY store`,
  );
  await client.end();
  const chFiles = fs.readdirSync('clickhouse').filter((f) => f.endsWith('.sql')).length;
  t.deepEqual(rows, [
    { store: 'clickhouse', n: chFiles, d: chFiles },
    { store: 'postgres', n: expected.length, d: expected.length },
  ]);

  const again = await cli(['migrate'], { DATA_DIR: dirs[0], DATABASE_URL: db.url! });
  t.deepEqual(again.json, { postgres: [], clickhouse: [] });
});

test('ClickHouse migrations target a single node or a cluster from one file', (t) => {
  const sql =
    'CREATE TABLE IF NOT EXISTS x {{ON_CLUSTER}} (a UInt8) ENGINE = {{REPLICATED}}MergeTree ORDER BY a;\n-- note\nCREATE TABLE y {{ON_CLUSTER}} (b UInt8) ENGINE = {{REPLICATED}}CollapsingMergeTree(s) ORDER BY b;';
  t.deepEqual(clickhouseStatements(sql), [
    'CREATE TABLE IF NOT EXISTS x  (a UInt8) ENGINE = MergeTree ORDER BY a',
    'CREATE TABLE y  (b UInt8) ENGINE = CollapsingMergeTree(s) ORDER BY b',
  ]);
  t.deepEqual(clickhouseStatements(sql, 'main'), [
    'CREATE TABLE IF NOT EXISTS x ON CLUSTER `main` (a UInt8) ENGINE = ReplicatedMergeTree ORDER BY a',
    'CREATE TABLE y ON CLUSTER `main` (b UInt8) ENGINE = ReplicatedCollapsingMergeTree(s) ORDER BY b',
  ]);
});
