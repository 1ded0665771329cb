// A fresh DATA_DIR whose embedded stores (PGlite and chDB) are already migrated. PGlite's initdb
// in WebAssembly and the migrations cost every test file several seconds of CPU (of a whole
// server start of 3 to 10 s), so they run once per set of migrations into a template kept in
// node_modules/.cache, and each test file copies it (a fraction of a second). The template's name
// is a hash of everything that decides its contents, so a changed migration builds a new one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.ts';
import { openStores } from '../../src/stores/index.ts';
import { migrate } from '../../src/stores/migrate.ts';
import { serviceKey } from '../../src/stores/service-keys.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'answerscope-test');

/** The migration files, the migrator, this builder and the two engines' versions: what the template holds. */
function templateKey(): string {
  const hash = createHash('sha256');
  for (const dir of ['postgres', 'clickhouse']) {
    for (const file of fs.readdirSync(path.join(ROOT, dir)).sort()) {
      hash
        .update(`${dir}/${file}\0`)
        .update(fs.readFileSync(path.join(ROOT, dir, file)))
        .update('\0');
    }
  }
  hash.update(fs.readFileSync(path.join(ROOT, 'src/stores/migrate.ts')));
  hash.update(fs.readFileSync(fileURLToPath(import.meta.url)));
  for (const pkg of ['@electric-sql/pglite', 'chdb']) {
    hash.update(JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version);
  }
  return hash.digest('hex').slice(0, 16);
}

/** True when the process holding the lock is gone (or never wrote its pid within a minute). */
function abandoned(lock: string): boolean {
  try {
    const pid = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
    process.kill(pid, 0);
    return false;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return true;
    if (code !== 'ENOENT') return false;
    try {
      return Date.now() - fs.statSync(lock).mtimeMs > 60_000;
    } catch {
      return false; // the lock is gone: the template is there, or the next turn takes the lock
    }
  }
}

/** Migrates fresh embedded stores in `dir` and closes them, so their files can be copied. */
async function build(dir: string): Promise<void> {
  const stores = await openStores(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }));
  try {
    await migrate(stores.pg, stores.ch);
    // The cursor key too, so every test server signs cursors alike: the key is one per process
    // (src/cursor.ts), and a shared test process runs several servers.
    await serviceKey(stores.pg, 'cursor');
  } finally {
    await stores.close();
  }
}

/** The template's path, built by the first test process that needs it while the others wait. */
async function template(): Promise<string> {
  const dir = path.join(CACHE, templateKey());
  const lock = `${dir}.lock`;
  fs.mkdirSync(CACHE, { recursive: true });
  for (;;) {
    if (fs.existsSync(dir)) return dir;
    try {
      fs.mkdirSync(lock);
    } catch {
      // Another test process is building it; a lock whose builder died is taken over.
      if (abandoned(lock)) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      const building = `${dir}.${process.pid}`;
      fs.rmSync(building, { recursive: true, force: true });
      await build(building);
      fs.renameSync(building, dir); // whole or not at all: a reader never sees half a template
      return dir;
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * A new directory holding a copy of the migrated embedded stores: both, only `postgres` (beside a
 * ClickHouse server: its migrations then apply to the server, and the copy's Postgres records them
 * as applied already; or beside a shared process's chDB), or only `clickhouse` (that chDB); the
 * caller removes it.
 */
export async function migratedDataDir(stores: 'both' | 'postgres' | 'clickhouse' = 'both'): Promise<string> {
  const from = await template();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-test-'));
  for (const store of stores === 'both' ? ['postgres', 'clickhouse'] : [stores]) {
    // chDB's tables are relative symbolic links into its store/: copied as they are, not resolved.
    // A file system that can share the copy's blocks until they change (reflink) does so.
    fs.cpSync(path.join(from, store), path.join(dataDir, store), {
      recursive: true,
      verbatimSymlinks: true,
      mode: fs.constants.COPYFILE_FICLONE,
    });
  }
  return dataDir;
}
