// A worker thread on one of our TypeScript modules, answering numbered requests. The sources run
// through tsx (as bin/answerscope.js registers it), and a worker starts without the parent's
// loaders, so it registers tsx itself before loading the module. The worker threads of the
// service (ingestion's, tracking/ingest/worker-pool.ts; re-analysis's, tracking/reanalysis/worker-thread.ts;
// the bootstrap's, analytics/resample-pool.ts) run here: each owner sends requests, reads the worker's messages and settles each request by its
// number; if the thread fails or stops, every request in hand, and any after, fails with the reason.
import { Worker, type Transferable } from 'node:worker_threads';

export class TsWorker<Answer> {
  readonly worker: Worker;
  private waiting = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  private seq = 0;
  private failure: Error | null = null;

  /** `name`: what an error calls the thread ("the ingest worker stopped ..."). */
  constructor(module: URL, opts: { name: string; workerData?: unknown }) {
    const boot = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
register();
await import(${JSON.stringify(module.href)});`;
    this.worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), {
      execArgv: [],
      workerData: opts.workerData,
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`the ${opts.name} stopped (exit code ${code})`)));
  }

  /** Posts the message `make` builds for the request's number, moving `transfer`; resolves when it is settled. */
  request(make: (seq: number) => unknown, transfer: readonly Transferable[] = []): Promise<Answer> {
    if (this.failure) return Promise.reject(this.failure);
    const seq = this.seq++;
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      this.worker.postMessage(make(seq), [...transfer]);
    });
  }

  /** Settles request `seq` with the worker's answer, or fails it. */
  settle(seq: number, answer: { ok: Answer } | { error: Error }): void {
    const w = this.waiting.get(seq);
    this.waiting.delete(seq);
    if ('error' in answer) w?.reject(answer.error);
    else w?.resolve(answer.ok);
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

/** Bytes that own their whole buffer move to the other thread; a slice of a shared one is copied. */
export function transferable(bytes: Uint8Array | null): ArrayBuffer[] {
  return bytes && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? [bytes.buffer as ArrayBuffer]
    : [];
}
