// The embedded engine's spool: a folder in TMPDIR (a tmpfs keeps it off the disk) for the files
// chDB reads with file(): RowBinary batches to insert (its raw insert takes text formats only) and
// the long lists of reads (a list read from a file parses for a fifth of the CPU of its literal).
// Each file lives for one query.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sqlString } from './clickhouse-engine.ts';
import { placeholders } from './inline-params.ts';
import { RowBinaryWriter } from './row-binary.ts';

/** A spool directory's name, with the id of the process that made it. */
const SPOOL_DIR = /^answerscope-spool-(\d+)-/;

/** A spool directory untouched for this long, of a process that seems gone, is removed. */
const ORPHAN_SPOOL_AGE_MS = 60 * 60 * 1000;

/**
 * Removes the spool directories of processes that are gone: one killed before it closed its stores
 * left its directory (and maybe a file it was inserting) behind. A process that is still running,
 * or that this user may not signal (another user's), keeps its own; so does a directory used in
 * the last hour, in case its process runs where this one cannot see it (another PID namespace
 * sharing TMPDIR). Best effort: what cannot be removed stays.
 */
export function removeOrphanSpools(dir: string, now = Date.now()): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(SPOOL_DIR.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0); // signal 0: only asks whether the process exists
      continue;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') continue;
    }
    const at = path.join(dir, name);
    try {
      if (now - fs.statSync(at).mtimeMs < ORPHAN_SPOOL_AGE_MS) continue;
      fs.rmSync(at, { recursive: true, force: true });
    } catch {
      /* gone meanwhile, or not ours to remove */
    }
  }
}

/** This process's spool folder: made on open (after removing orphans), removed on close. */
export class Spool {
  private readonly dir: string;
  private files = 0;

  constructor() {
    removeOrphanSpools(os.tmpdir());
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `answerscope-spool-${process.pid}-`));
  }

  /** Writes a body into a file of its own, and gives the file's path. */
  async file(body: Uint8Array): Promise<string> {
    const file = path.join(this.dir, `${++this.files}.rowbinary`);
    await fs.promises.mkdir(this.dir, { recursive: true }); // in case another process took it for an orphan
    await fs.promises.writeFile(file, body);
    return file;
  }

  close(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Lists of more elements than this go to the embedded engine as a file rather than written into
 * the query's text: ClickHouse's SQL parser took about 50 ms of CPU for a literal of 20,000 UUIDs
 * (the ids ingestion checks per batch), against about 10 ms for the same list read from a file.
 */
const SPOOLED_LIST_MIN = 1000;
/** The list types spooled, and how each element is written in RowBinary. */
const SPOOLED_ELEMENT = new Map<string, (w: RowBinaryWriter, v: unknown) => void>([
  ['Array(UUID)', (w, v) => w.uuid(v as string)],
  ['Array(String)', (w, v) => w.string(v as string)],
]);

/**
 * Writes each long list parameter of a query (a UUID or String array of SPOOLED_LIST_MIN elements
 * or more) to a spool file, and gives, by parameter name, the expression that reads it back (a
 * scalar subquery: an array, usable wherever the parameter was), and the files to remove after.
 */
export async function spoolLists(
  sql: string,
  params: Readonly<Record<string, unknown>>,
  spool: Spool,
): Promise<{ written: Map<string, string>; files: string[] }> {
  const written = new Map<string, string>();
  const files: string[] = [];
  for (const { name, type } of placeholders(sql)) {
    const value = params[name];
    const write = SPOOLED_ELEMENT.get(type);
    if (!write || written.has(name) || !Array.isArray(value) || value.length < SPOOLED_LIST_MIN) continue;
    const w = new RowBinaryWriter(value.length * 20);
    try {
      for (const v of value) write(w, v);
    } catch {
      continue; // not a UUID, or not a string: written in, the engine (or inlineParams) names it
    }
    const file = await spool.file(w.bytes());
    files.push(file);
    const element = type.slice('Array('.length, -1);
    written.set(
      name,
      `_CAST((SELECT groupArray(v) FROM file(${sqlString(file)}, 'RowBinary', 'v ${element}')), ${sqlString(type)})`,
    );
  }
  return { written, files };
}
