// How `pg` reaches the embedded Postgres: through pglite-socket's protocol handler, over a pair of
// in-memory streams instead of a loopback TCP port. The handler, and the queue that takes every
// connection's messages through PGlite's one session in turn, are pglite-socket's own; only the
// socket is gone. pglite-socket answers each protocol message with a write of its own (five for a
// query with parameters), and over loopback each is a system call and a wake-up on both sides,
// which in memory cost nothing (docs/performance.md).
import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler, PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** One end of an in-memory connection, with the parts of net.Socket that pg and the handler call. */
class WireEnd extends Duplex {
  peer: WireEnd | undefined;
  readonly remoteAddress = 'in-process';
  readonly remotePort = 0;

  constructor() {
    // As a socket: the end that reads the peer's end ends its own writing too, so both close.
    super({ allowHalfOpen: false });
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    // Delivered on a later microtask, as a socket would, never inside the writer's own call.
    const peer = this.peer;
    queueMicrotask(() => peer?.push(chunk));
    done();
  }

  override _final(done: () => void): void {
    const peer = this.peer;
    queueMicrotask(() => peer?.push(null));
    done();
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    const peer = this.peer;
    this.peer = undefined;
    if (peer && !peer.destroyed) queueMicrotask(() => peer.destroy());
    done(err);
  }

  // What pg calls on its socket: a connection in memory is made at once and has no delay to turn off.
  connect(): this {
    queueMicrotask(() => this.emit('connect'));
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

export interface PGliteLink {
  /** pg's `stream` option: a new connection to the database for each client. */
  stream: () => Duplex;
  /** Detaches every connection (rolling back a transaction one left open), then closes the database. */
  close(): Promise<void>;
}

/** pg's way to `db`, which the link owns from here on: its close closes the database. */
export function pgliteLink(db: PGlite): PGliteLink {
  // pglite-socket exports its handler but not the queue the handler needs; a server that is never
  // started makes one for the database and holds it.
  const { queryQueue } = new PGLiteSocketServer({ db }) as unknown as { queryQueue: unknown };
  if (!queryQueue) throw new Error("@electric-sql/pglite-socket no longer keeps the server's query queue");
  const handlers = new Set<PGLiteSocketHandler>();
  return {
    stream() {
      const client = new WireEnd();
      const server = new WireEnd();
      client.peer = server;
      server.peer = client;
      const handler = new PGLiteSocketHandler({ queryQueue } as ConstructorParameters<typeof PGLiteSocketHandler>[0]);
      handlers.add(handler);
      server.once('close', () => handlers.delete(handler));
      void handler.attach(server as unknown as Socket);
      return client;
    },
    async close() {
      await Promise.all([...handlers].map((h) => h.detach(true)));
      handlers.clear();
      await db.close();
    },
  };
}
