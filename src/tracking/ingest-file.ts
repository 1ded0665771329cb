// `answerscope ingest FILE`: streams a JSON Lines answer file in batches (a million answers are
// never in memory at once), rejects bad lines with their line numbers and imports the rest.
import fs from 'node:fs';
import readline from 'node:readline';
import type { Stores } from '../stores/index.ts';
import { UserError } from '../errors.ts';
import { validateAnswer, type ValidAnswer } from './answer-schema.ts';
import { IngestCache, prepareBatch, writeBatch, type BatchResult } from './ingest.ts';
import { withIngestLock } from './ingest-lock.ts';
import { ingestAnswers } from '../http/metrics.ts';

export interface IngestSummary {
  read: number;
  inserted: number;
  replaced: number;
  rejected: { line: number; error: string }[];
}

export const BATCH_SIZE = 5000;

/** Ingests answers from any source of (line number, JSON value or parse error). */
export async function ingestLines(
  stores: Stores,
  lines: AsyncIterable<{ line: number; text: string }>,
  batchSize = BATCH_SIZE,
): Promise<IngestSummary> {
  return withIngestLock(stores, async () => {
    const summary: IngestSummary = { read: 0, inserted: 0, replaced: 0, rejected: [] };
    const cache = new IngestCache(stores);
    let batch: ValidAnswer[] = [];
    let lineNos: number[] = [];
    // One batch is written while the next is read and analysed: the store works on its own threads.
    let writing: Promise<void> = Promise.resolve();
    const count = (r: BatchResult, lines: number[]) => {
      summary.inserted += r.inserted;
      summary.replaced += r.replaced;
      for (const { index, error } of r.rejected) summary.rejected.push({ line: lines[index], error });
    };
    const flush = async () => {
      if (!batch.length) return;
      const prepared = await prepareBatch(cache, batch);
      const lines = lineNos;
      batch = [];
      lineNos = [];
      await writing;
      writing = writeBatch(stores, prepared).then((r) => count(r, lines));
      // Its failure surfaces at the next await of `writing`; until then it is not "unhandled".
      writing.catch(() => {});
    };
    for await (const { line, text } of lines) {
      if (!text.trim()) continue;
      summary.read++;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        summary.rejected.push({ line, error: `not valid JSON: ${(err as Error).message}` });
        ingestAnswers.inc({ outcome: 'rejected' });
        continue;
      }
      const v = validateAnswer(value);
      if (!v.ok) {
        summary.rejected.push({ line, error: v.error });
        ingestAnswers.inc({ outcome: 'rejected' });
        continue;
      }
      batch.push(v.answer);
      lineNos.push(line);
      if (batch.length >= batchSize) await flush();
    }
    await flush();
    await writing;
    summary.rejected.sort((a, b) => a.line - b.line);
    return summary;
  });
}

async function* fileLines(file: string): AsyncIterable<{ line: number; text: string }> {
  const rl = readline.createInterface({ input: fs.createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of rl) yield { line: ++line, text };
}

export async function ingestFile(stores: Stores, file: string): Promise<IngestSummary> {
  try {
    await fs.promises.access(file, fs.constants.R_OK);
  } catch (err) {
    throw new UserError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return ingestLines(stores, fileLines(file));
}
