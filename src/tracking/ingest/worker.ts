// A worker thread of `ingest FILE` (started by ingest/worker-pool.ts): reads, validates, analyses and
// serialises each chunk of lines, so the main thread only writes. Prompts and brand entities live
// in Postgres, which belongs to the main thread: the worker asks it for those it has not seen yet.
import { parentPort } from 'node:worker_threads';
import { compileEntities, type CompiledEntities } from '../analysis/analyze.ts';
import type { LineChunk } from './chunk-lines.ts';
import { prepareChunk } from './prepare-chunk.ts';
import type { Lookups, PromptInfo } from './batch.ts';
import type { ToMain, ToWorker } from './worker-pool.ts';

const port = parentPort!;
const send = (m: ToMain, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

class AskingLookups implements Lookups {
  private prompts = new Map<string, PromptInfo | null>();
  private brands = new Map<string, CompiledEntities>();
  private answer: ((m: Extract<ToWorker, { kind: 'found' }>) => void) | null = null;

  async resolvePrompts(ids: string[]): Promise<void> {
    const unknown = [...new Set(ids)].filter((id) => !this.prompts.has(id));
    if (!unknown.length) return;
    const found = await new Promise<Extract<ToWorker, { kind: 'found' }>>((resolve) => {
      this.answer = resolve;
      send({ kind: 'lookup', promptIds: unknown });
    });
    if (found.error !== undefined) throw new Error(found.error);
    for (const [id, info] of found.prompts) this.prompts.set(id, info);
    for (const [brandId, entities] of found.brands) this.brands.set(brandId, compileEntities(entities));
  }

  found(m: Extract<ToWorker, { kind: 'found' }>): void {
    this.answer?.(m);
    this.answer = null;
  }

  prompt(id: string): PromptInfo | null | undefined {
    return this.prompts.get(id);
  }

  async compiled(brandId: string): Promise<CompiledEntities> {
    const c = this.brands.get(brandId);
    if (!c) throw new Error(`brand ${brandId} was not sent to the ingest worker`);
    return c;
  }

  compiledNow(brandId: string): CompiledEntities | undefined {
    return this.brands.get(brandId);
  }
}

// Set by each run's first message: the thread serves one run after another (worker-pool.ts).
let lookups = new AskingLookups();
let latest = 0;
let queue: Promise<void> = Promise.resolve();

async function prepare(seq: number, chunk: LineChunk, first: boolean): Promise<void> {
  try {
    // Another worker reads the chunks in between: a byte chunk's lines are numbered from 1 (the
    // main thread moves them on), and only the file's first chunk may start with a byte-order mark.
    const prepared = await prepareChunk(chunk, { latest, atStart: first }, lookups);
    const transfer = Object.values(prepared.batch.wanted).map((b) => (b as Uint8Array).buffer as ArrayBuffer);
    send({ kind: 'prepared', seq, ...prepared }, transfer);
  } catch (err) {
    send({ kind: 'failed', seq, error: (err as Error).message });
  }
}

port.on('message', (m: ToWorker) => {
  if (m.kind === 'run') {
    // A new run: nothing cached by the last one is used (prompts and entities may have changed).
    lookups = new AskingLookups();
    latest = m.latest;
  } else if (m.kind === 'found') lookups.found(m);
  // One chunk at a time: a chunk's look-ups wait for the main thread's answer.
  else queue = queue.then(() => prepare(m.seq, m.chunk, m.first));
});
