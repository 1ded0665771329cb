// `answerscope crawler-logs import FILE --brand ID [--host H] [--format auto|combined|jsonl]`: streams
// a server log (combined format, vhost combined, or JSON Lines of the batch endpoint's fields),
// keeps the brand's AI crawler hits and writes them in large inserts. Memory stays flat whatever
// the file's size: lines are read as a stream, one insert's worth of hits is held at a time, and
// the list of rejected lines stops growing at MAX_REPORTED (rejected_count keeps counting).
//
// Format: `auto` reads each line by its first character: `{` or `[` is JSON (an entry, or a line
// refused as not an object), anything else a combined-format line; a file may mix them.
import fs from 'node:fs';
import readline from 'node:readline';
import { UserError } from '../../errors.ts';
import type { ClickHouse } from '../../stores/index.ts';
import type { Site } from '../sites.ts';
import { LogLineError, parseCombinedLine } from './combined-log.ts';
import { checkEntry, EntryError, judgeEntry, latestTimestamp, type RawEntry } from './entry.ts';
import { hitLine, writeHitLines } from './store.ts';

export const LOG_FORMATS = ['auto', 'combined', 'jsonl'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Hits per insert: large enough that ClickHouse makes few parts, small enough to stay a few MB. */
export const INSERT_ROWS = 20_000;
/** Rejected lines listed in the summary; the count goes on past it. */
export const MAX_REPORTED = 1000;

export interface ImportSummary {
  /** Non-empty lines read. */
  read: number;
  /** Hits kept and stored. */
  accepted: number;
  /** Well-formed entries that were not the brand's AI crawler hits. */
  dropped: number;
  rejected: { line: number; error: string }[];
  rejected_count: number;
}

export interface ImportOptions {
  format?: LogFormat;
  /** The host of combined-format lines that carry none. */
  host?: string;
  now?: () => Date;
}

function rawEntryOf(line: string, format: LogFormat, host: string | undefined): RawEntry {
  const json = format === 'jsonl' || (format === 'auto' && (line[0] === '{' || line[0] === '['));
  if (!json) return parseCombinedLine(line, host);
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new LogLineError('line is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new LogLineError('line must be a JSON object');
  }
  return value as RawEntry;
}

/** Imports numbered lines; `lines` yields each line's text (without its newline). */
export async function importLogLines(
  ch: Pick<ClickHouse, 'insertLines'>,
  site: Site,
  lines: AsyncIterable<string>,
  opts: ImportOptions = {},
): Promise<ImportSummary> {
  const format = opts.format ?? 'auto';
  const latest = latestTimestamp((opts.now ?? (() => new Date()))());
  const summary: ImportSummary = { read: 0, accepted: 0, dropped: 0, rejected: [], rejected_count: 0 };
  let body = '';
  let pending = 0;
  let lineNo = 0;
  // One insert runs while the next batch is read: at most two batches are held at once.
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (!pending) return;
    const text = body;
    body = '';
    pending = 0;
    await writing;
    writing = writeHitLines(ch, site.brandId, text);
    // Its failure surfaces at the next await of `writing`; until then it is not "unhandled".
    writing.catch(() => {});
  };
  try {
    for await (let line of lines) {
      lineNo++;
      if (lineNo === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (!line.trim()) continue;
      summary.read++;
      let hit: ReturnType<typeof judgeEntry>;
      try {
        hit = judgeEntry(checkEntry(rawEntryOf(line, format, opts.host), latest), site);
      } catch (err) {
        if (!(err instanceof LogLineError || err instanceof EntryError)) throw err;
        summary.rejected_count++;
        if (summary.rejected.length < MAX_REPORTED) summary.rejected.push({ line: lineNo, error: err.message });
        continue;
      }
      if (!hit) {
        summary.dropped++;
        continue;
      }
      body += hitLine(hit);
      pending++;
      summary.accepted++;
      if (pending >= INSERT_ROWS) await flush();
    }
    await flush();
    await writing;
  } finally {
    // On failure too: no insert may go on after the import has returned.
    await writing.catch(() => {});
  }
  return summary;
}

/** Imports a log file. */
export async function importLogFile(
  ch: Pick<ClickHouse, 'insertLines'>,
  site: Site,
  file: string,
  opts: ImportOptions = {},
): Promise<ImportSummary> {
  let stream: fs.ReadStream;
  try {
    await fs.promises.access(file, fs.constants.R_OK);
    stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  } catch (err) {
    throw new UserError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const lines = readline.createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    return await importLogLines(ch, site, lines, opts);
  } finally {
    lines.close();
    stream.destroy();
  }
}
