// The bootstrap intervals are computed on worker threads (resample-worker.ts), never on the
// server's own thread: one organization asking for intervals in a loop held every other request of
// the process while its resamples ran. In front of the threads, the fair line of ClickHouse reads
// (runtime/fair-queue.ts): one lane per organization, served in turns, a lane holding at most all
// threads but one when there are several; and a bound on what one organization may have in hand at
// once, past which its request is refused with a 429 rather than queued without end. The threads
// start on first use and do not keep the process alive while idle.
import os from 'node:os';
import { ApiError } from '../errors.ts';
import { FairQueue } from '../runtime/fair-queue.ts';
import { TsWorker } from '../runtime/ts-worker.ts';
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Job, Options } from './resample.ts';

export type ToWorker = { seq: number; jobs: Job[]; opts: Options };
export type ToMain = { seq: number } & ({ intervals: ([number, number] | null)[] } | { error: string });

/** Requests of one organization computing or waiting at once; the next is refused. */
export const MAX_IN_HAND = 4;
export const BUSY_MESSAGE =
  'Too many interval computations in progress for this organization; retry when the previous requests have answered';

type Interval = [number, number] | null;

class Thread {
  private thread: TsWorker<Interval[]>;
  private busy = 0;
  /** Set when the thread has stopped: the pool then starts another in its place. */
  stopped = false;

  constructor() {
    this.thread = new TsWorker(new URL('./resample-worker.ts', import.meta.url), { name: 'resample worker' });
    this.thread.worker.on('message', (m: ToMain) =>
      this.thread.settle(
        m.seq,
        'error' in m ? { error: new Error(`resample worker: ${m.error}`) } : { ok: m.intervals },
      ),
    );
    this.thread.worker.on('exit', () => {
      this.stopped = true;
    });
    this.thread.worker.unref();
  }

  async run(jobs: Job[], opts: Options): Promise<Interval[]> {
    // Held while it works, so a caller awaiting it keeps the process up.
    if (this.busy++ === 0) this.thread.worker.ref();
    try {
      return await this.thread.request((seq): ToWorker => ({ seq, jobs, opts }));
    } finally {
      if (--this.busy === 0) this.thread.worker.unref();
    }
  }
}

export class ResamplePool {
  private idle: Thread[] = [];
  private started = 0;
  private line: FairQueue;
  private inHand = new Map<string, number>();

  constructor(private readonly threads = Math.max(1, Math.min(2, os.availableParallelism() - 1))) {
    this.line = new FairQueue(threads, threads > 1 ? threads - 1 : 1);
  }

  /**
   * The intervals of `jobs`, in order, computed in `lane`'s turn on a thread. Throws the 429 when
   * the lane has MAX_IN_HAND requests in hand; `gone`: the caller left, so its turn is skipped.
   */
  async intervals(lane: string, jobs: Job[], opts: Options = {}, gone?: () => boolean): Promise<Interval[]> {
    if (!jobs.length) return [];
    const held = this.inHand.get(lane) ?? 0;
    if (held >= MAX_IN_HAND) throw new ApiError(429, BUSY_MESSAGE);
    this.inHand.set(lane, held + 1);
    try {
      return await this.line.run(
        lane,
        async () => {
          // The line runs at most `threads` tasks at once, so a thread is idle or may be started.
          const thread = this.idle.pop() ?? (this.started++ < this.threads ? new Thread() : undefined);
          if (!thread) throw new Error('no idle resample thread');
          try {
            return await thread.run(jobs, opts);
          } finally {
            if (thread.stopped) this.started--;
            else this.idle.push(thread);
          }
        },
        gone,
      );
    } finally {
      const left = (this.inHand.get(lane) ?? 1) - 1;
      if (left) this.inHand.set(lane, left);
      else this.inHand.delete(lane);
    }
  }
}

/** The process's pool: every bootstrap of the service goes through it. */
export const resamplePool = new ResamplePool();

/** The intervals of `jobs` for the caller `ch` reads for (its organization's lane), or the service's own. */
export const intervalsFor = (ch: ClickHouse, jobs: Job[], opts?: Options) =>
  resamplePool.intervals(ch.caller?.lane ?? 'service', jobs, opts, ch.caller?.gone);
