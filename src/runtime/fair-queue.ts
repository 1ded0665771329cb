// Fair turns at a resource that runs only a few things at once (ClickHouse reads: one per chDB
// connection). Without this a tenant that sends twenty heavy queries makes everyone else's query
// wait for all twenty. Here each lane (an organization) waits in its own line, and a free slot goes
// to the lanes in turn: another lane's query waits for at most the queries already running plus one
// of each other lane's. A lane may also be held to fewer slots than there are (`perLane`), so a slot
// stays free for the others: then another lane's query waits for nothing. Each task learns how much
// else its lane has in hand when it starts, so the engine can run a busy lane's work after a quiet
// one's (see clickhouse.ts). Work whose caller has gone when its turn comes is dropped unrun.
// (p-queue and its peers order by priority, not by turns between keys, hence this small class.)

import { ClientGone } from '../errors.ts';

/** What a task is told when its turn comes. */
export interface Turn {
  /** The lane's other tasks, running or waiting, as this one starts. */
  others: number;
}

interface Waiting {
  task: (turn: Turn) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  gone?: () => boolean;
}

export class FairQueue {
  /** Each lane's waiting tasks, lanes in order of arrival. */
  private lines = new Map<string, Waiting[]>();
  /**
   * When each lane was last served (a count of tasks started). The next slot goes to the waiting
   * lane served longest ago, so a lane whose line emptied and refilled at once does not jump
   * ahead of one that has been waiting. One number per organization that ever read.
   */
  private lastServed = new Map<string, number>();
  private started = 0;
  private running = 0;
  /** Each lane's running tasks (lanes with none are absent). */
  private runningIn = new Map<string, number>();

  /**
   * `slots`: how many tasks run at once; 0 runs every task at once, in no line. `perLane`: how many
   * of them one lane may hold (all by default).
   */
  constructor(
    readonly slots: number,
    readonly perLane: number = slots,
  ) {
    if (slots > 0 && !(perLane >= 1 && perLane <= slots)) throw new RangeError('perLane must be 1 to slots');
  }

  /** Tasks waiting for a slot, over all lanes. */
  get waiting(): number {
    let n = 0;
    for (const line of this.lines.values()) n += line.length;
    return n;
  }

  /**
   * Runs `task` in its lane's turn. `gone`: whether its caller has left; asked when the turn
   * comes, and if so the task is dropped unrun and the promise rejects with ClientGone.
   */
  run<T>(lane: string, task: (turn: Turn) => Promise<T>, gone?: () => boolean): Promise<T> {
    if (this.slots === 0) return gone?.() ? Promise.reject(new ClientGone()) : task({ others: 0 });
    return new Promise<T>((resolve, reject) => {
      const w: Waiting = { task, resolve: resolve as (v: unknown) => void, reject, gone };
      const line = this.lines.get(lane);
      if (line) line.push(w);
      else this.lines.set(lane, [w]);
      this.next();
    });
  }

  private next(): void {
    while (this.running < this.slots) {
      let lane: string | undefined;
      let since = Number.POSITIVE_INFINITY;
      for (const waiting of this.lines.keys()) {
        if ((this.runningIn.get(waiting) ?? 0) >= this.perLane) continue;
        const served = this.lastServed.get(waiting) ?? 0;
        if (served < since) [lane, since] = [waiting, served];
      }
      if (lane === undefined) return; // nothing waits, or only lanes at their share
      const line = this.lines.get(lane)!;
      const w = line.shift()!;
      if (!line.length) this.lines.delete(lane);
      this.lastServed.set(lane, ++this.started);
      if (w.gone?.()) {
        w.reject(new ClientGone());
        continue;
      }
      const inLane = this.runningIn.get(lane) ?? 0;
      const turn: Turn = { others: inLane + line.length };
      this.running++;
      this.runningIn.set(lane, inLane + 1);
      w.task(turn)
        .then(w.resolve, w.reject)
        .finally(() => {
          this.running--;
          const left = this.runningIn.get(lane)! - 1;
          if (left) this.runningIn.set(lane, left);
          else this.runningIn.delete(lane);
          this.next();
        });
    }
  }
}
