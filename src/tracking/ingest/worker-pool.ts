// The main thread's side of the ingest workers (ingest/worker.ts): hands them chunks of lines in
// turn, gets back prepared batches in file order, and answers their prompt and brand look-ups from
// Postgres. Two workers per ingest run: with one, the writes waited for it and a core sat idle
// for a fifth of the run (commit c5fcc51); the workers' caches never outlive the run.
import os from 'node:os';
import { TsWorker, transferable } from '../../runtime/ts-worker.ts';
import type { Stores } from '../../stores/index.ts';
import type { LineChunk } from './chunk-lines.ts';
import { IngestCache, type PreparedBatch, type PromptInfo } from './batch.ts';
import type { Entity } from '../../tenancy/tracked.ts';

export type ToWorker =
  | { kind: 'chunk'; seq: number; chunk: LineChunk; first: boolean }
  | { kind: 'found'; prompts: [string, PromptInfo | null][]; brands: [string, Entity[]][]; error?: string };

/** A chunk read and prepared: `batch.rejected` indexes answers, whose line numbers are `lineNos`. */
export interface PreparedChunk {
  read: number;
  /** Lines of a byte chunk, blank ones included. */
  lines: number;
  batch: PreparedBatch;
  lineNos: number[];
  invalid: { line: number; error: string }[];
}

/** What a worker is started with (its workerData). */
export interface WorkerInit {
  /** The latest collected_at accepted, in epoch milliseconds (see latestCollectedAt). */
  latest: number;
}

export type ToMain =
  | ({ kind: 'prepared'; seq: number } & PreparedChunk)
  | { kind: 'failed'; seq: number; error: string }
  | { kind: 'lookup'; promptIds: string[] };

/** Workers of one ingest run: two, or one on a single core. */
const WORKERS = Math.min(2, os.availableParallelism());

/** Each line number of a prepared byte chunk, numbered from 1 by its worker, moved on by `by`. */
function renumbered(p: PreparedChunk, by: number): PreparedChunk {
  if (!by) return p;
  return {
    ...p,
    lineNos: p.lineNos.map((n) => n + by),
    invalid: p.invalid.map((i) => ({ ...i, line: i.line + by })),
  };
}

export class PrepareThreads {
  private threads: { worker: TsWorker<PreparedChunk>; sentBrands: Set<string> }[] = [];
  private cache: IngestCache;
  private handed = 0;
  /** The first line number of the next byte chunk, known once the byte chunks before it are read. */
  private nextLine: Promise<number> = Promise.resolve(1);

  /** `latest`: the latest collected_at the workers accept, in epoch milliseconds. */
  constructor(stores: Stores, latest: number, workers = WORKERS) {
    this.cache = new IngestCache(stores);
    const workerData: WorkerInit = { latest };
    for (let i = 0; i < Math.max(1, workers); i++) {
      const thread = {
        worker: new TsWorker<PreparedChunk>(new URL('./worker.ts', import.meta.url), {
          name: 'ingest worker',
          workerData,
        }),
        sentBrands: new Set<string>(),
      };
      thread.worker.worker.on('message', (m: ToMain) => this.onMessage(thread, m));
      this.threads.push(thread);
    }
  }

  /**
   * Reads and prepares a chunk, on the workers in turn; chunks are read side by side, and their
   * line numbers are those a single reader of the whole file would give.
   */
  prepare(chunk: LineChunk): Promise<PreparedChunk> {
    const first = this.handed === 0;
    const { worker } = this.threads[this.handed++ % this.threads.length];
    // A file's chunk is concatenated into memory of its own (ingest/file.ts), so it moves instead
    // of being copied; a small one cut from Node's shared pool is copied (transferable). Either
    // way the caller must not use it again.
    const prepared = worker.request(
      (seq) => ({ kind: 'chunk', seq, chunk, first }) satisfies ToWorker,
      'bytes' in chunk ? transferable(chunk.bytes) : [],
    );
    if (!('bytes' in chunk)) return prepared; // numbered texts keep their numbers
    const read = Promise.all([this.nextLine, prepared]);
    this.nextLine = read.then(([line, p]) => line + p.lines);
    this.nextLine.catch(() => {}); // its failure is the prepared chunk's, which the caller awaits
    return read.then(([line, p]) => renumbered(p, line - 1));
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.worker.close()));
  }

  private onMessage(thread: PrepareThreads['threads'][number], m: ToMain): void {
    if (m.kind === 'lookup') {
      this.lookup(thread.sentBrands, m.promptIds).then(
        (found) => thread.worker.worker.postMessage(found),
        (err: Error) =>
          thread.worker.worker.postMessage({
            kind: 'found',
            prompts: [],
            brands: [],
            error: err.message,
          } satisfies ToWorker),
      );
      return;
    }
    thread.worker.settle(m.seq, m.kind === 'failed' ? { error: new Error(m.error) } : { ok: m });
  }

  /** The prompts, and the entities of their brands this worker has not been sent yet. */
  private async lookup(sentBrands: Set<string>, promptIds: string[]): Promise<ToWorker> {
    await this.cache.resolvePrompts(promptIds);
    const prompts = promptIds.map((id) => [id, this.cache.prompt(id) ?? null] as [string, PromptInfo | null]);
    const brands: [string, Entity[]][] = [];
    for (const [, p] of prompts) {
      if (!p || sentBrands.has(p.brandId)) continue;
      sentBrands.add(p.brandId);
      brands.push([p.brandId, await this.cache.entities(p.brandId)]);
    }
    return { kind: 'found', prompts, brands };
  }
}
