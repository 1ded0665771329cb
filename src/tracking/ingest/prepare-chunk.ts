// What the ingest worker does with each chunk of lines (ingest/worker.ts), kept free of thread
// plumbing so bench/ingest-stages.ts times exactly this.
import { readChunk, type ChunkPlace, type LineChunk } from './chunk-lines.ts';
import type { ValidAnswer } from './answer-schema.ts';
import { BatchBuilder, type Lookups } from './batch.ts';
import type { PreparedChunk } from './worker-pool.ts';

/** Answers parsed before the group is analysed (see prepareChunk). */
const GROUP = 500;

/**
 * Reads a chunk (see readChunk for its line numbers) and prepares its batch. Lines are
 * parsed and validated a group at a time, then the group is analysed and serialised: in an
 * in-process A/B on the same chunks, 500-line groups were 6-7% faster than the whole chunk at once
 * and 13-14% faster than one answer at a time (each phase keeps its code and data hot, and a group
 * is too small for its answers to outlive the young generation).
 */
export async function prepareChunk(chunk: LineChunk, place: ChunkPlace, lookups: Lookups): Promise<PreparedChunk> {
  // A batch's answer_rows_in rows take about 1.07 times the bytes of its lines in the file (the
  // simulated answers of bench/ingest.ts, in RowBinary): a writer 1.3 times that holds them without growing.
  const builder = new BatchBuilder(lookups, 'bytes' in chunk ? Math.ceil(chunk.bytes.byteLength * 1.3) : undefined);
  const lineNos: number[] = [];
  let group: ValidAnswer[] = [];
  const flush = () => {
    const first = lineNos.length - group.length; // the batch index of the group's first answer
    group.forEach((answer, i) => {
      builder.add(answer, first + i);
    });
    group = [];
  };
  const { read, lines, invalid } = readChunk(chunk, place, (answer, line) => {
    group.push(answer);
    lineNos.push(line);
    if (group.length === GROUP) flush();
  });
  flush();
  return { read, lines, batch: await builder.finish(), lineNos, invalid };
}
