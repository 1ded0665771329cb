// A worker thread on one of our TypeScript modules, answering numbered requests. The sources run
// through tsx (as bin/answerscope.js registers it), and a worker starts without the parent's
// loaders, so it registers tsx itself before loading the module. The worker threads of the
// service (ingestion's, tracking/ingest/worker-pool.ts; re-analysis's, tracking/reanalysis/worker-thread.ts;
// the bootstrap's, analytics/resample-pool.ts) run here: each owner sends requests, reads the worker's messages
// and settles each request by its number; if the thread fails or stops, every request in hand, and any after,
// fails with the reason.
// A thread costs about half a CPU second to start (its isolate, tsx, its modules), so the owners
// of short runs (an ingest, a re-analysis) borrow one and give it back idle (`borrowWorker`).
import { Worker, type Transferable } from 'node:worker_threads';

export class TsWorker<Answer> {
  readonly worker: Worker;
  /** The module's URL: the key of its idle threads. */
  readonly module: string;
  private waiting = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  private seq = 0;
  private failure: Error | null = null;

  /** `name`: what an error calls the thread ("the ingest worker stopped ..."). */
  constructor(module: URL, opts: { name: string }) {
    this.module = module.href;
    const boot = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
register();
await import(${JSON.stringify(module.href)});`;
    this.worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), {
      execArgv: [],
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`the ${opts.name} stopped (exit code ${code})`)));
  }

  /** False once the thread has failed or stopped. */
  get alive(): boolean {
    return this.failure === null;
  }

  /** Requests posted and not settled yet. */
  get inHand(): number {
    return this.waiting.size;
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

/** Idle threads by module, given back by earlier runs; unref'd, so they never keep the process up. */
// biome-ignore lint/suspicious/noExplicitAny: a module's threads answer in that module's type
const idle = new Map<string, TsWorker<any>[]>();

/**
 * A thread on `module` for one run, idle (an earlier run's, given back) or new; the caller attaches
 * its 'message' listener and ends the run with giveBackWorker. A reused thread keeps its module's
 * state: a run that must start clean says so in its first message.
 */
export function borrowWorker<Answer>(module: URL, opts: { name: string }): TsWorker<Answer> {
  const spare = idle.get(module.href);
  let thread: TsWorker<Answer> | undefined = spare?.pop();
  while (thread && !thread.alive) thread = spare?.pop();
  thread ??= new TsWorker<Answer>(module, opts);
  thread.worker.ref();
  return thread;
}

/**
 * Ends a run on a borrowed thread: its 'message' listeners are removed, and it is kept idle for the
 * next run when it is alive with nothing in hand (at most `keep` of a module), else terminated.
 */
export async function giveBackWorker<Answer>(thread: TsWorker<Answer>, keep: number): Promise<void> {
  thread.worker.removeAllListeners('message');
  const spare = idle.get(thread.module) ?? [];
  if (!thread.alive || thread.inHand > 0 || spare.length >= keep) return thread.close();
  thread.worker.unref();
  spare.push(thread);
  idle.set(thread.module, spare);
}
