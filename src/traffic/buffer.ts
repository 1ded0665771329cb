// Buffers visits and writes them to ClickHouse in batches: one insert per `maxRows` visits or per
// `intervalMs`, whichever comes first, and a last one on close. ClickHouse wants few large inserts
// (each insert makes a part on disk); a burst of beacons must not become a burst of inserts.
import type { Logger } from 'pino';
import type { ClickHouse } from '../stores/index.ts';

export interface VisitRow {
  brand_id: string;
  /** `YYYY-MM-DD hh:mm:ss.sss`, UTC. */
  ts: string;
  day: string;
  platform: string;
  path: string;
  country: string;
  referrer_host: string;
}

export interface VisitBuffer {
  add(row: VisitRow): void;
  /** Writes everything buffered so far; resolves once it is readable. */
  flush(): Promise<void>;
  /** Stops the timer and flushes; later visits are dropped. */
  close(): Promise<void>;
  /** Visits waiting to be written. */
  readonly pending: number;
}

export interface BufferOptions {
  maxRows?: number;
  intervalMs?: number;
  /** Visits kept while ClickHouse is failing; beyond it the oldest are dropped. */
  maxPending?: number;
  log?: Logger;
}

export const VISITS_TABLE = 'ai_visits';

// Visits written per brand by this process: the ai-traffic cache keys on it, so a visit this
// process stored shows up in the next read here at once.
const written = new Map<string, number>();

/** How many batches with visits of this brand this process has written (a cache version). */
export function visitsVersion(brandId: string): number {
  return written.get(brandId) ?? 0;
}

export function createVisitBuffer(ch: Pick<ClickHouse, 'insert'>, opts: BufferOptions = {}): VisitBuffer {
  const maxRows = opts.maxRows ?? 5000;
  const maxPending = opts.maxPending ?? 100_000;
  let rows: VisitRow[] = [];
  let closed = false;
  // One insert at a time, chained: flushes never overlap, and flush() waits for the ones before it.
  let chain: Promise<void> = Promise.resolve();
  let scheduled = false;

  const writeOnce = async () => {
    while (rows.length) {
      const batch = rows.length > maxRows ? rows.slice(0, maxRows) : rows;
      rows = rows.length > maxRows ? rows.slice(maxRows) : [];
      try {
        await ch.insert(VISITS_TABLE, batch);
        for (const brand of new Set(batch.map((r) => r.brand_id))) written.set(brand, (written.get(brand) ?? 0) + 1);
      } catch (err) {
        // Keep the batch for the next round; memory stays bounded by maxPending.
        rows = batch.concat(rows);
        if (rows.length > maxPending) {
          const dropped = rows.length - maxPending;
          rows = rows.slice(dropped);
          opts.log?.error({ dropped }, 'ai_visits buffer full: oldest visits dropped');
        }
        opts.log?.error({ err, pending: rows.length }, 'writing ai_visits failed; will retry');
        throw err;
      }
    }
  };

  const run = () => {
    // From here on, a full buffer may ask for another round (this one takes what is there now).
    scheduled = false;
    return writeOnce();
  };

  const flush = (): Promise<void> => {
    const next = chain.then(run, run);
    chain = next.catch(() => {});
    return next;
  };

  // Visits refused because the buffer was full (ClickHouse slow or down), reported once a tick.
  let refused = 0;
  const timer = setInterval(() => {
    if (refused) {
      opts.log?.error({ dropped: refused }, 'ai_visits buffer full: new visits dropped');
      refused = 0;
    }
    if (rows.length) flush().catch(() => {});
  }, opts.intervalMs ?? 1000);
  timer.unref();

  return {
    add(row) {
      if (closed) return;
      if (rows.length >= maxPending) {
        refused++;
        return;
      }
      rows.push(row);
      if (rows.length >= maxRows && !scheduled) {
        scheduled = true;
        flush().catch(() => {});
      }
    },
    flush,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await flush().catch(() => {});
    },
    get pending() {
      return rows.length;
    },
  };
}
