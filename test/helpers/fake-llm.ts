// A local OpenAI-compatible chat-completions server for tests: each request is answered by the
// next scripted reply (the last one repeats), or by a reply made from the request itself. Never
// reaches a real network. Shared by content's tests (briefs, drafts) and tracking's (sentiment).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | { kind: 'json'; content: string } // a 200 whose message content is this string
  | { kind: 'status'; status: number } // an HTTP error
  | { kind: 'hang'; ms: number } // answers only after `ms`
  | { kind: 'never' } // never answers (the request stays open until close())
  | { kind: 'by'; reply: (body: any) => Reply }; // the reply this function makes of the request's body

export interface FakeLlm {
  baseUrl: string;
  requests: any[];
  /** Replaces the script; the next request gets its first reply. */
  play(script: Reply[]): void;
  close(): Promise<void>;
}

export const ok = (value: unknown): Reply => ({
  kind: 'json',
  content: typeof value === 'string' ? value : JSON.stringify(value),
});

export async function fakeLlm(script: Reply[]): Promise<FakeLlm> {
  const requests: any[] = [];
  let current = script;
  let offset = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const parsed = JSON.parse(body || '{}');
      requests.push({ path: req.url, authorization: req.headers.authorization, body: parsed });
      let reply = current[Math.min(requests.length - 1 - offset, current.length - 1)];
      if (reply.kind === 'by') reply = reply.reply(parsed);
      const answer = (content: string) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'chatcmpl-test',
            object: 'chat.completion',
            model: parsed.model,
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
          }),
        );
      };
      if (reply.kind === 'status') {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'scripted failure' } }));
      } else if (reply.kind === 'never') {
        // Left open: only the client's deadline can end this attempt.
      } else if (reply.kind === 'hang') {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) answer('{}');
        }, reply.ms);
        timers.add(timer);
      } else if (reply.kind === 'json') {
        answer(reply.content);
      } else {
        throw new Error('a reply function made another reply function');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    play(next) {
      current = next;
      offset = requests.length;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
