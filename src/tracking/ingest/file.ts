// `answerscope ingest FILE`: streams a JSON Lines answer file in batches (a million answers are
// never in memory at once), rejects bad lines with their line numbers and imports the rest.
// Worker threads (ingest/worker-pool.ts) read, validate, analyse and serialise the next batches while
// this thread writes the previous one, so the store and the analysis keep both cores busy.
import fs from 'node:fs';
import type { Stores } from '../../stores/index.ts';
import { UserError } from '../../errors.ts';
import type { LineChunk } from './chunk-lines.ts';
import { latestCollectedAt } from './answer-schema.ts';
import { writeBatch } from './batch.ts';
import { withIngestLock } from './lock.ts';
import { PrepareThreads, type PreparedChunk } from './worker-pool.ts';
import { ingestAnswers } from '../../runtime/metrics.ts';

export interface IngestSummary {
  read: number;
  inserted: number;
  replaced: number;
  rejected: { line: number; error: string }[];
}

export interface IngestOptions {
  /** The clock: a line's collected_at may be at most one day after now(), read when the run starts. */
  now?: () => Date;
}

/**
 * Lines a batch: each batch is one insert, and every insert makes new parts in each fact table and
 * rollup for the engine to merge. At 20,000 instead of 10,000 the merges of a million answers took
 * 5.7 CPU seconds instead of 12.6, for about 240 MB more at the peak (commit bb31fbf).
 */
export const BATCH_SIZE = 20_000;
/** Batches handed to the workers ahead of the one being written: one each, enough to keep them busy. */
const AHEAD = 2;

async function ingestChunks(
  stores: Stores,
  chunks: AsyncIterable<LineChunk>,
  options: IngestOptions,
): Promise<IngestSummary> {
  return withIngestLock(stores, async () => {
    const summary: IngestSummary = { read: 0, inserted: 0, replaced: 0, rejected: [] };
    // One bound for the whole run (read once the lock is held): a line's fate does not depend on
    // how long the lines before it took.
    const latest = latestCollectedAt((options.now ?? (() => new Date()))());
    const threads = new PrepareThreads(stores, latest);
    let writing: Promise<void> = Promise.resolve();
    try {
      const pending: Promise<PreparedChunk>[] = [];
      // Waits for the oldest prepared batch and starts writing it once the previous write is done.
      const writeNext = async () => {
        const { read, batch, lineNos, invalid } = await pending.shift()!;
        summary.read += read;
        summary.rejected.push(...invalid);
        if (invalid.length) ingestAnswers.inc({ outcome: 'rejected' }, invalid.length);
        await writing;
        writing = writeBatch(stores, batch).then((r) => {
          summary.inserted += r.inserted;
          summary.replaced += r.replaced;
          for (const { index, error } of r.rejected) summary.rejected.push({ line: lineNos[index], error });
        });
        // Its failure surfaces at the next await of `writing`; until then it is not "unhandled".
        writing.catch(() => {});
      };
      for await (const chunk of chunks) {
        const prepared = threads.prepare(chunk);
        prepared.catch(() => {}); // awaited in turn by writeNext
        pending.push(prepared);
        if (pending.length > AHEAD) await writeNext();
      }
      while (pending.length) await writeNext();
      await writing;
    } finally {
      // On failure too: no write may go on once the ingest lock is released.
      await writing.catch(() => {});
      await threads.close();
    }
    summary.rejected.sort((a, b) => a.line - b.line);
    return summary;
  });
}

/** Ingests answers from any source of numbered lines. */
export function ingestLines(
  stores: Stores,
  lines: AsyncIterable<{ line: number; text: string }>,
  batchSize = BATCH_SIZE,
  options: IngestOptions = {},
): Promise<IngestSummary> {
  return ingestChunks(
    stores,
    (async function* () {
      let texts: string[] = [];
      let lineNos: number[] = [];
      for await (const { line, text } of lines) {
        texts.push(text);
        lineNos.push(line);
        if (texts.length >= batchSize) {
          yield { texts, lineNos };
          texts = [];
          lineNos = [];
        }
      }
      if (texts.length) yield { texts, lineNos };
    })(),
    options,
  );
}

/** The file's bytes in chunks of `batchSize` lines, each cut just after a \n. */
async function* fileChunks(file: string, batchSize: number): AsyncIterable<LineChunk> {
  let parts: Buffer[] = [];
  let lines = 0;
  for await (const buf of fs.createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10, nl + 1)) {
      if (++lines < batchSize) continue;
      parts.push(buf.subarray(start, nl + 1));
      yield { bytes: Buffer.concat(parts) };
      parts = [];
      lines = 0;
      start = nl + 1;
    }
    if (start < buf.length) parts.push(buf.subarray(start));
  }
  if (parts.length) yield { bytes: Buffer.concat(parts) };
}

export async function ingestFile(
  stores: Stores,
  file: string,
  batchSize = BATCH_SIZE,
  options: IngestOptions = {},
): Promise<IngestSummary> {
  try {
    await fs.promises.access(file, fs.constants.R_OK);
  } catch (err) {
    throw new UserError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return ingestChunks(stores, fileChunks(file, batchSize), options);
}
