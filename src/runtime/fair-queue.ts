// Fair turns at a resource that runs only a few things at once. chDB runs one query at a time, so
// without this a tenant that sends twenty heavy queries makes everyone else's query wait for all
// twenty. Here each lane (an organization) waits in its own line, and a free slot goes to the
// lanes in turn: another lane's query waits for at most the queries already running plus one of
// each other lane's. Work whose caller has gone when its turn comes is dropped unrun.
// (p-queue and its peers order by priority, not by turns between keys, hence this small class.)

import { ClientGone } from '../errors.ts';

interface Waiting {
  task: () => Promise<unknown>;
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

  /** `slots`: how many tasks run at once; 0 runs every task at once, in no line. */
  constructor(readonly slots: number) {}

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
  run<T>(lane: string, task: () => Promise<T>, gone?: () => boolean): Promise<T> {
    if (this.slots === 0) return gone?.() ? Promise.reject(new ClientGone()) : task();
    return new Promise<T>((resolve, reject) => {
      const w: Waiting = { task, resolve: resolve as (v: unknown) => void, reject, gone };
      const line = this.lines.get(lane);
      if (line) line.push(w);
      else this.lines.set(lane, [w]);
      this.next();
    });
  }

  private next(): void {
    while (this.running < this.slots && this.lines.size) {
      let lane = '';
      let since = Number.POSITIVE_INFINITY;
      for (const waiting of this.lines.keys()) {
        const served = this.lastServed.get(waiting) ?? 0;
        if (served < since) [lane, since] = [waiting, served];
      }
      const line = this.lines.get(lane)!;
      const w = line.shift()!;
      if (!line.length) this.lines.delete(lane);
      this.lastServed.set(lane, ++this.started);
      if (w.gone?.()) {
        w.reject(new ClientGone());
        continue;
      }
      this.running++;
      w.task()
        .then(w.resolve, w.reject)
        .finally(() => {
          this.running--;
          this.next();
        });
    }
  }
}
