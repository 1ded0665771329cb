// The main thread's side of the ingest worker (prepare-worker.ts): hands it chunks of lines, gets
// back prepared batches, and answers its prompt and brand look-ups from Postgres. One worker per
// ingest run: chDB needs the other core, and the worker's caches then never outlive the run.
import { TsWorker, transferable } from '../runtime/ts-worker.ts';
import type { Stores } from '../stores/index.ts';
import type { LineChunk } from './answer-lines.ts';
import { IngestCache, type PreparedBatch, type PromptInfo } from './ingest.ts';
import type { Entity } from './types.ts';

export type ToWorker =
  | { kind: 'chunk'; seq: number; chunk: LineChunk }
  | { kind: 'found'; prompts: [string, PromptInfo | null][]; brands: [string, Entity[]][]; error?: string };

/** A chunk read and prepared: `batch.rejected` indexes answers, whose line numbers are `lineNos`. */
export interface PreparedChunk {
  read: number;
  batch: PreparedBatch;
  lineNos: number[];
  invalid: { line: number; error: string }[];
}

/** What the worker is started with (its workerData). */
export interface WorkerInit {
  /** The latest collected_at accepted, in epoch milliseconds (see latestCollectedAt). */
  latest: number;
}

export type ToMain =
  | ({ kind: 'prepared'; seq: number } & PreparedChunk)
  | { kind: 'failed'; seq: number; error: string }
  | { kind: 'lookup'; promptIds: string[] };

export class PrepareThread {
  private thread: TsWorker<PreparedChunk>;
  private cache: IngestCache;
  private sentBrands = new Set<string>();

  /** `latest`: the latest collected_at the worker accepts, in epoch milliseconds. */
  constructor(stores: Stores, latest: number) {
    this.cache = new IngestCache(stores);
    const workerData: WorkerInit = { latest };
    this.thread = new TsWorker(new URL('./prepare-worker.ts', import.meta.url), { name: 'ingest worker', workerData });
    this.thread.worker.on('message', (m: ToMain) => this.onMessage(m));
  }

  /** Reads and prepares a chunk. Chunks are prepared in the order given. */
  prepare(chunk: LineChunk): Promise<PreparedChunk> {
    // A file's chunk is concatenated into memory of its own (ingest-file.ts), so it moves instead
    // of being copied; a small one cut from Node's shared pool is copied (transferable). Either
    // way the caller must not use it again.
    return this.thread.request(
      (seq) => ({ kind: 'chunk', seq, chunk }) satisfies ToWorker,
      'bytes' in chunk ? transferable(chunk.bytes) : [],
    );
  }

  close(): Promise<void> {
    return this.thread.close();
  }

  private onMessage(m: ToMain): void {
    if (m.kind === 'lookup') {
      this.lookup(m.promptIds).then(
        (found) => this.thread.worker.postMessage(found),
        (err: Error) =>
          this.thread.worker.postMessage({
            kind: 'found',
            prompts: [],
            brands: [],
            error: err.message,
          } satisfies ToWorker),
      );
      return;
    }
    this.thread.settle(m.seq, m.kind === 'failed' ? { error: new Error(m.error) } : { ok: m });
  }

  private async lookup(promptIds: string[]): Promise<ToWorker> {
    await this.cache.resolvePrompts(promptIds);
    const prompts = promptIds.map((id) => [id, this.cache.prompt(id) ?? null] as [string, PromptInfo | null]);
    const brands: [string, Entity[]][] = [];
    for (const [, p] of prompts) {
      if (!p || this.sentBrands.has(p.brandId)) continue;
      this.sentBrands.add(p.brandId);
      brands.push([p.brandId, await this.cache.entities(p.brandId)]);
    }
    return { kind: 'found', prompts, brands };
  }
}
