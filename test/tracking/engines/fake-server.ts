// A fake provider on 127.0.0.1: records each request and answers from a handler, typically with a
// fixture from test/fixtures/engines/. Replies can be delayed or never sent (timeouts). Fixture
// text is served with the real Gemini grounding-redirect host replaced by the fake's own address,
// so following a redirect stays on this machine: no test reaches the network.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/engines');
const REDIRECT_HOST = 'https://vertexaisearch.cloud.google.com';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Never answer (the client times out). */
  hang?: boolean;
  delayMs?: number;
}

export type Handler = (req: Recorded, nth: number) => Reply;

export interface FakeServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** The text of a fixture file, with the grounding-redirect host pointed at `base`. */
export function fixtureText(provider: string, name: string, base?: string): string {
  const text = fs.readFileSync(path.join(FIXTURES, provider, name), 'utf8');
  return base ? text.replaceAll(REDIRECT_HOST, base) : text;
}

export async function startFake(handler: Handler): Promise<FakeServer> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let body: any = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        /* not JSON */
      }
      const rec: Recorded = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      };
      requests.push(rec);
      const reply = handler(rec, requests.length);
      if (reply.hang) return;
      const send = () => {
        const text =
          typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(text);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
