// A local webhook receiver for the tests: records every request by path and answers as the test
// says (status, delay), so one receiver serves the concurrent tests of a file.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}
export type Answer = { status?: number; delayMs?: number; body?: string };

export interface Receiver {
  url: string;
  /** A fresh path on the receiver; `answer(n)` decides the reply to its n-th request (0-based). */
  hook(answer?: (n: number) => Answer): { url: string; received: Received[] };
  /** Resolves once `hook` has `count` requests, or rejects after `timeoutMs`. */
  waitFor(hook: { received: Received[] }, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const hooks = new Map<string, { received: Received[]; answer: (n: number) => Answer }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const hook = hooks.get(req.url ?? '');
      if (!hook) {
        res.writeHead(404).end();
        return;
      }
      const n = hook.received.length;
      hook.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const a = hook.answer(n);
      const reply = () => {
        if (!res.destroyed) res.writeHead(a.status ?? 200, { 'content-type': 'text/plain' }).end(a.body ?? 'ok');
      };
      if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    hook(answer = () => ({})) {
      const path = `/hook/${randomBytes(6).toString('hex')}`;
      const entry = { received: [] as Received[], answer };
      hooks.set(path, entry);
      return { url: `${base}${path}`, received: entry.received };
    },
    async waitFor(hook, count, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (hook.received.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} requests, got ${hook.received.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return hook.received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `fn` until it returns a truthy value. */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
