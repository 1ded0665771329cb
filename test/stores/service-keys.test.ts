// The cursor key every instance shares: made once in Postgres, whoever asks first, and read back by
// all (two instances starting at the same moment get the same key). Real Postgres only: the
// embedded one belongs to one process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { freshDatabase } from '../helpers/server.ts';
import { openPostgres } from '../../src/stores/postgres.ts';
import { serviceKey } from '../../src/stores/service-keys.ts';
import { decodeCursor, encodeCursor, useCursorKey } from '../../src/cursor.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const maybe = process.env.DATABASE_URL ? test : test.skip;

maybe('instances on one Postgres share one cursor key; another database has another', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-keys-'));
  const dbs = [await freshDatabase(), await freshDatabase()];
  const pools = await Promise.all([dbs[0], dbs[0], dbs[1]].map((db) => openPostgres({ url: db.url, dataDir })));
  t.teardown(async () => {
    for (const pool of pools) await pool.close();
    for (const db of dbs) await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const ddl = fs.readFileSync(path.join(ROOT, 'postgres/075_service_keys.sql'), 'utf8');
  await pools[0].query(ddl);
  await pools[2].query(ddl);
  // Two instances of one service start together.
  const [a, b] = await Promise.all([serviceKey(pools[0], 'cursor'), serviceKey(pools[1], 'cursor')]);
  t.is(a.length, 32);
  t.true(a.equals(b));
  t.true((await serviceKey(pools[1], 'cursor')).equals(a), 'read again, the same key');
  const other = await serviceKey(pools[2], 'cursor');
  t.false(other.equals(a));

  const row = { at: '2026-11-01T06:00:00.000Z', id: '00000000-0000-4000-8000-000000000001' };
  useCursorKey(a);
  const issued = encodeCursor(row);
  useCursorKey(b);
  t.deepEqual(decodeCursor(issued), row, 'issued by one instance, paged on the other');
  useCursorKey(other);
  t.is(decodeCursor(issued), null, "another service's cursor");
});
