// The poll loop of the background workers (site audits, webhook deliveries): a tick every pollMs,
// one tick at a time, and a wake during a tick runs one more right after it, so work queued by
// this process starts at once instead of at the next poll. The work itself lives in Postgres rows;
// the poller only decides when to look.
import type { Logger } from 'pino';

export interface Poller {
  /** Runs a tick now (or once more after the current one); resolves when it is done. */
  tick(): Promise<void>;
  /** Asks for a tick without waiting for it. */
  wake(): void;
  /** No more ticks; resolves when the current one has finished. */
  stop(): Promise<void>;
  readonly stopped: boolean;
}

/**
 * The pollers of one kind in this process, so code that queues work (an audit, a delivery) can
 * wake them at once instead of waiting for the next poll.
 */
export class WakeGroup {
  private readonly members = new Set<() => void>();
  add(wake: () => void) { this.members.add(wake); }
  delete(wake: () => void) { this.members.delete(wake); }
  wakeAll() { for (const wake of this.members) wake(); }
}

export function startPoller(opts: { name: string; pollMs: number; log: Logger; group?: WakeGroup; tickOnce: () => Promise<void> }): Poller {
  let stopped = false;
  let ticking: Promise<void> | null = null;
  let again = false;

  function tick(): Promise<void> {
    if (ticking) {
      again = true;
      return ticking;
    }
    ticking = (async () => {
      do {
        again = false;
        if (stopped) break;
        await opts.tickOnce().catch((err) => opts.log.error({ err }, `${opts.name} tick failed`));
      } while (again);
    })().finally(() => { ticking = null; });
    return ticking;
  }

  const wake = () => {
    if (!stopped) void tick();
  };
  opts.group?.add(wake);
  const timer = setInterval(wake, opts.pollMs);
  timer.unref();
  // First tick once the caller holds the poller (its tickOnce may refer to it).
  queueMicrotask(wake);

  return {
    tick,
    wake,
    get stopped() { return stopped; },
    async stop() {
      stopped = true;
      opts.group?.delete(wake);
      clearInterval(timer);
      await ticking;
    },
  };
}
