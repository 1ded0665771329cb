// The main thread's side of a re-analysis's worker thread (reanalysis-thread-worker.ts). The
// analysis of a brand's whole history is CPU work of minutes; on the server's own thread it held
// every request of the process in turns, and its garbage (pages of 20,000 answers with their text)
// paused the thread for a quarter of a second at a time. Here this thread only reads the steps,
// as the engine's bytes, and hands them over without parsing them; the worker parses, analyses and
// serialises, and hands back the lines to write.
import type { Worker } from 'node:worker_threads';
import { startTsWorker } from '../runtime/ts-worker.ts';
import type { StepBytes } from './reanalysis-page.ts';
import type { Entity } from './types.ts';

/** What the worker is started with (its workerData). */
export interface ReanalysisInit {
  brandId: string;
  /** The brand's entities as they are now. */
  entities: Entity[];
  /** The generation the lines are written into. */
  generation: number;
}

export type ToWorker = { seq: number } & StepBytes;
export type ToMain = { seq: number } & ({ answers: number; lines: Uint8Array } | { error: string });

/** Bytes that own their whole buffer move to the other thread; a slice of a shared one is copied. */
export function transferable(bytes: Uint8Array | null): ArrayBuffer[] {
  return bytes && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? [bytes.buffer as ArrayBuffer]
    : [];
}

export class ReanalysisThread {
  private worker: Worker;
  private seq = 0;
  private waiting = new Map<
    number,
    { resolve: (r: { answers: number; lines: Uint8Array }) => void; reject: (e: Error) => void }
  >();
  private failure: Error | null = null;

  constructor(init: ReanalysisInit) {
    this.worker = startTsWorker(new URL('./reanalysis-thread-worker.ts', import.meta.url), { workerData: init });
    this.worker.on('message', (m: ToMain) => {
      const w = this.waiting.get(m.seq);
      this.waiting.delete(m.seq);
      if ('error' in m) w?.reject(new Error(`re-analysis worker: ${m.error}`));
      else w?.resolve(m);
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`the re-analysis worker stopped (exit code ${code})`)));
  }

  /** The step's answer_rows_in lines and how many answers they hold. Steps are done in the order given. */
  step(step: StepBytes): Promise<{ answers: number; lines: Uint8Array }> {
    if (this.failure) return Promise.reject(this.failure);
    const seq = this.seq++;
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      const message: ToWorker = { seq, ...step };
      this.worker.postMessage(message, [
        ...transferable(step.answers),
        ...transferable(step.citations),
        ...transferable(step.verdicts),
      ]);
    });
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}
