// The main thread's side of the ingest workers (ingest/worker.ts): hands them chunks of lines in
// turn, gets back prepared batches in file order, and answers their prompt and brand look-ups from
// Postgres. Two workers per ingest run: with one, the writes waited for it and a core sat idle
// for a fifth of the run (commit c5fcc51). The threads are borrowed (runtime/ts-worker.ts): a run
// starts the second only for a second chunk, and gives both back idle for the next run, whose
// first message clears what the last one cached (the workers' caches never outlive the run).
import os from 'node:os';
import { borrowWorker, giveBackWorker, transferable, type TsWorker } from '../../runtime/ts-worker.ts';
import type { Stores } from '../../stores/index.ts';
import type { LineChunk } from './chunk-lines.ts';
import { IngestCache, type PreparedBatch, type PromptInfo } from './batch.ts';
import type { Entity } from '../../tenancy/tracked.ts';

export type ToWorker =
  | { kind: 'run'; latest: number }
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

export type ToMain =
  | ({ kind: 'prepared'; seq: number } & PreparedChunk)
  | { kind: 'failed'; seq: number; error: string }
  | { kind: 'lookup'; promptIds: string[] };

/** Workers of one ingest run: two, or one on a single core. */
const WORKERS = Math.min(2, os.availableParallelism());
const MODULE = new URL('./worker.ts', import.meta.url);

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
  constructor(
    stores: Stores,
    private readonly latest: number,
    private readonly workers = WORKERS,
  ) {
    this.cache = new IngestCache(stores);
  }

  /** The worker that takes the next chunk, borrowed on its first chunk. */
  private next(): PrepareThreads['threads'][number] {
    const i = this.handed++ % Math.max(1, this.workers);
    if (!this.threads[i]) {
      const thread = {
        worker: borrowWorker<PreparedChunk>(MODULE, { name: 'ingest worker' }),
        sentBrands: new Set<string>(),
      };
      thread.worker.worker.on('message', (m: ToMain) => this.onMessage(thread, m));
      thread.worker.worker.postMessage({ kind: 'run', latest: this.latest } satisfies ToWorker);
      this.threads[i] = thread;
    }
    return this.threads[i];
  }

  /**
   * Reads and prepares a chunk, on the workers in turn; chunks are read side by side, and their
   * line numbers are those a single reader of the whole file would give.
   */
  prepare(chunk: LineChunk): Promise<PreparedChunk> {
    const first = this.handed === 0;
    const { worker } = this.next();
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

  /** Ends the run: a worker with a chunk still in hand (a failed run) is stopped, the others kept. */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => giveBackWorker(t.worker, WORKERS)));
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
