// A fixed set of ClickHouse clients, each lent to one task at a time. Embedded, each client is a
// chDB connection of its own; a connection runs one query at a time, so a task holds its client
// until the engine has answered. The fair line in front (FairQueue) starts no more tasks than there
// are clients, so nothing waits here then; with the line off (0 slots), tasks wait here in order.
import type { ClickHouseClient } from '@clickhouse/client';

export class ClientPool {
  private free: ClickHouseClient[];
  private waiting: ((client: ClickHouseClient) => void)[] = [];

  constructor(readonly clients: readonly ClickHouseClient[]) {
    if (!clients.length) throw new Error('a client pool needs at least one client');
    this.free = [...clients];
  }

  /** Runs `task` with a client of its own, handed back when the task settles. */
  async use<T>(task: (client: ClickHouseClient) => Promise<T>): Promise<T> {
    const client = this.free.pop() ?? (await new Promise<ClickHouseClient>((resolve) => this.waiting.push(resolve)));
    try {
      return await task(client);
    } finally {
      const next = this.waiting.shift();
      if (next) next(client);
      else this.free.push(client);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.close()));
  }
}
