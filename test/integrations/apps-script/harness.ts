// Loads the Looker Studio connector (integrations/looker-studio/*.gs) into a worker thread with
// fake Apps Script services (fakes.mjs, worker.mjs) and performs its UrlFetchApp requests with real
// HTTP from this thread, where the test server runs. One connector per test: each has its own
// user properties and cache, as two Looker Studio users would.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';

export const CONNECTOR_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../integrations/looker-studio',
);

export interface Recorded {
  url: string;
  method: string;
  headers: Record<string, string>;
}

/** What a connector function threw: a Looker Studio user error, or anything else. */
export class ConnectorThrew extends Error {
  constructor(
    readonly userError: { text: string; debugText?: string } | undefined,
    message: string,
  ) {
    super(message);
  }
}

export interface Connector {
  call<T = any>(fn: string, ...args: unknown[]): Promise<T>;
  /** Sets a global of the connector's script context (e.g. SHOPPING_PAGE_SIZE). */
  set(name: string, value: unknown): Promise<void>;
  state(): Promise<{ requests: Recorded[]; userProperties: Record<string, string>; cacheKeys: string[] }>;
  /** Moves the fake clock (cache expiry) forward. */
  advance(seconds: number): Promise<void>;
  close(): Promise<void>;
}

export async function loadConnector(dir = CONNECTOR_DIR): Promise<Connector> {
  const { port1, port2 } = new MessageChannel();
  const signal = new SharedArrayBuffer(4);
  const flag = new Int32Array(signal);
  const worker = new Worker(new URL('./worker.mjs', import.meta.url), {
    workerData: { dir, fetchPort: port1, signal },
    transferList: [port1],
  });

  port2.on(
    'message',
    async (req: {
      url: string;
      method: string;
      headers: Record<string, string>;
      payload?: string;
      followRedirects: boolean;
    }) => {
      let reply: { status: number; headers: Record<string, string>; body: string } | { error: string };
      try {
        const res = await fetch(req.url, {
          method: req.method,
          headers: req.headers,
          body: req.payload,
          redirect: req.followRedirects ? 'follow' : 'manual',
        });
        reply = { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
      } catch (err) {
        reply = {
          error: (err as Error).cause ? String((err as any).cause.code ?? (err as any).cause) : (err as Error).message,
        };
      }
      port2.postMessage(reply);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    },
  );

  let next = 0;
  const pending = new Map<number, { resolve: (m: any) => void; reject: (e: Error) => void }>();
  worker.on('message', (m) => {
    pending.get(m.id)?.resolve(m);
    pending.delete(m.id);
  });
  worker.on('error', (err) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  });
  const send = (msg: object) =>
    new Promise<any>((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...msg });
    });
  const unwrap = (m: any) => {
    if (m.userError) throw new ConnectorThrew(m.userError, `user error: ${m.userError.text}`);
    if (m.error) throw new ConnectorThrew(undefined, `${m.error.message}\n${m.error.stack ?? ''}`);
    return m.result;
  };

  return {
    call: async (fn, ...args) => unwrap(await send({ op: 'call', fn, args })),
    set: async (name, value) => {
      unwrap(await send({ op: 'set', name, value }));
    },
    state: async () => unwrap(await send({ op: 'state' })),
    advance: async (seconds) => {
      unwrap(await send({ op: 'advance', seconds }));
    },
    close: async () => {
      port2.close();
      await worker.terminate();
    },
  };
}
