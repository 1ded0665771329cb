// What the ingest worker does with each chunk of lines (ingest/worker.ts), kept free of thread
// plumbing so bench/ingest-stages.ts times exactly this.
import { readChunk, type ChunkPlace, type LineChunk } from './chunk-lines.ts';
import { BatchBuilder, type Lookups } from './batch.ts';
import type { PreparedChunk } from './worker-pool.ts';

/**
 * Reads a chunk (see readChunk for its line numbers) and prepares its batch: each valid answer is
 * analysed and serialised as soon as its line is parsed.
 */
export async function prepareChunk(chunk: LineChunk, place: ChunkPlace, lookups: Lookups): Promise<PreparedChunk> {
  // A batch's answer_rows_in rows take about 1.07 times the bytes of its lines in the file (the
  // simulated answers of bench/ingest.ts, in RowBinary): a writer 1.3 times that holds them without growing.
  const builder = new BatchBuilder(lookups, 'bytes' in chunk ? Math.ceil(chunk.bytes.byteLength * 1.3) : undefined);
  const lineNos: number[] = [];
  const { read, lines, invalid } = readChunk(chunk, place, (answer, line) => {
    builder.add(answer, lineNos.length);
    lineNos.push(line);
  });
  return { read, lines, batch: await builder.finish(), lineNos, invalid };
}
