// The frame of the background workers whose work is rows in Postgres (site audits, webhook
// deliveries). The rows are the durable state; the frame only decides when to look and how much
// runs at once: a tick every pollMs (one tick at a time; a wake during a tick runs one more right
// after it, so work queued by this process starts at once instead of at the next poll), each tick
// claims rows until `concurrency` are running, a finished row wakes the worker to fill its place,
// and stop() lets running work finish. Each worker supplies only its claim and its work.
import type { Logger } from 'pino';

/**
 * The workers of one kind in this process, so code that queues work (an audit, a delivery) can
 * wake them at once instead of waiting for the next poll.
 */
export class WakeGroup {
  private readonly members = new Set<() => void>();
  add(wake: () => void) {
    this.members.add(wake);
  }
  delete(wake: () => void) {
    this.members.delete(wake);
  }
  wakeAll() {
    for (const wake of this.members) wake();
  }
}

export interface ClaimWorkerOptions<T> {
  /** Names the worker in the log (`<name> tick failed`). */
  name: string;
  log: Logger;
  pollMs: number;
  /** Most rows worked on at once. */
  concurrency: number;
  group?: WakeGroup;
  /** Runs at the start of every tick, before claiming (e.g. to fail rows out of attempts). */
  sweep?: () => Promise<unknown>;
  /**
   * Claims at most `room` due rows and returns them ([] when none is due). A claimed row is worked
   * on even if stop() came meanwhile: it is this process's until its claim lapses.
   */
  claim(room: number): Promise<T[]>;
  /** Works on one claimed row and records its outcome; `signal` aborts once stop()'s grace is over. */
  work(item: T, signal: AbortSignal): Promise<void>;
  /** What to log when work rejects (its outcome could not be recorded); the row's claim then lapses. */
  onError(err: unknown, item: T): void;
  /** How long stop() lets running work finish before aborting it; by default it waits for all of it. */
  graceMs?: number;
}

export interface ClaimWorker {
  /** Claims and starts what is due now (also run every pollMs); resolves when the claiming is done. */
  tick(): Promise<void>;
  /** No more claims; resolves when the running work has finished (or was aborted after the grace). */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function startClaimWorker<T>(opts: ClaimWorkerOptions<T>): ClaimWorker {
  const running = new Set<{ done: Promise<void>; abort: AbortController }>();
  let stopped = false;
  let ticking: Promise<void> | null = null;
  let again = false;

  function start(item: T): void {
    const entry = { abort: new AbortController(), done: Promise.resolve() };
    entry.done = (async () => opts.work(item, entry.abort.signal))()
      .catch((err) => opts.onError(err, item))
      .finally(() => {
        running.delete(entry);
        wake();
      });
    running.add(entry);
  }

  async function claimAll(): Promise<void> {
    await opts.sweep?.();
    while (!stopped && running.size < opts.concurrency) {
      const items = await opts.claim(opts.concurrency - running.size);
      for (const item of items) start(item);
      if (items.length === 0) break;
    }
  }

  function tick(): Promise<void> {
    if (ticking) {
      again = true;
      return ticking;
    }
    ticking = (async () => {
      do {
        again = false;
        if (stopped) break;
        await claimAll().catch((err) => opts.log.error({ err }, `${opts.name} tick failed`));
      } while (again);
    })().finally(() => {
      ticking = null;
    });
    return ticking;
  }

  function wake(): void {
    if (!stopped) void tick();
  }

  opts.group?.add(wake);
  const timer = setInterval(wake, opts.pollMs);
  timer.unref();
  // The first tick once the caller holds the worker, as every later one.
  queueMicrotask(wake);

  return {
    tick,
    async stop() {
      stopped = true;
      opts.group?.delete(wake);
      clearInterval(timer);
      await ticking;
      // Nothing starts any more: what runs now is all there is to wait for.
      const all = [...running];
      const finished = Promise.allSettled(all.map((r) => r.done));
      if (opts.graceMs !== undefined) {
        await Promise.race([finished, sleep(opts.graceMs)]);
        for (const r of all) r.abort.abort();
      }
      await finished;
    },
  };
}
