// The admin channel: in embedded mode the server owns DATA_DIR (chDB locks it and PGlite must not be
// opened twice), so a command run beside a running server is sent to it instead. The server listens
// on a loopback port and writes the port and a random secret to DATA_DIR/admin.json (mode 0600);
// only a process that can read that file can use the channel.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UserError } from '../errors.ts';
import type { LineStream } from './export.ts';

interface AdminFile {
  pid: number;
  port: number;
  secret: string;
}

/** `input`: the first line of the caller's standard input, for the commands that read one (a password). */
export type CommandRunner = (argv: string[], cwd: string, input?: string) => Promise<unknown>;

/** The body a streamed reply resolves to: it went to `out`, not into a string. */
const STREAMED = '\u0000streamed';

const adminFile = (dataDir: string) => path.join(dataDir, 'admin.json');

/**
 * A streamed result (an export): its lines as the body, as fast as the command line reads them. A
 * failure after the first line can no longer change the status, so it goes in a trailer.
 */
async function streamReply(res: http.ServerResponse, stream: LineStream) {
  res.writeHead(200, { 'content-type': 'application/x-ndjson', 'x-admin-stream': '1', trailer: 'x-admin-error' });
  try {
    await stream.writeTo(res);
  } catch (err) {
    if (res.destroyed) return;
    res.addTrailers({ 'x-admin-error': encodeURIComponent((err as Error).message) });
  }
  res.end();
}

export async function startAdminChannel(dataDir: string, run: CommandRunner): Promise<{ close(): Promise<void> }> {
  // Loaded here, on the server's side: a command sent through the channel loads no export code.
  const { LineStream } = await import('./export.ts');
  const secret = randomBytes(32).toString('hex');
  const server = http.createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const given = Buffer.from(String(req.headers['x-admin-secret'] ?? ''));
    if (
      req.method !== 'POST' ||
      req.url !== '/cli' ||
      given.length !== secret.length ||
      !timingSafeEqual(given, Buffer.from(secret))
    ) {
      return reply(403, { ok: false, error: 'Forbidden' });
    }
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const { argv, cwd, input } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        argv: string[];
        cwd: string;
        input?: string;
      };
      const result = await run(argv, cwd, input);
      if (result instanceof LineStream) return await streamReply(res, result);
      reply(200, { ok: true, result });
    } catch (err) {
      const message = err instanceof UserError ? err.message : `${(err as Error).message}`;
      reply(200, { ok: false, error: message });
    }
  });
  // Long commands (a large ingest) must not be cut by the server's default request timeout.
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const file = adminFile(dataDir);
  fs.writeFileSync(file, JSON.stringify({ pid: process.pid, port, secret } satisfies AdminFile), { mode: 0o600 });
  return {
    async close() {
      try {
        const current = JSON.parse(fs.readFileSync(file, 'utf8')) as AdminFile;
        if (current.pid === process.pid) fs.unlinkSync(file);
      } catch {
        /* already gone */
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Sends a command to the server that owns dataDir. Returns undefined when no server is running
 * there (no admin file, or nobody listening on its port), so the caller opens the stores itself.
 */
export async function callAdminChannel(
  dataDir: string,
  argv: string[],
  cwd: string,
  out?: Writable,
  input?: string,
): Promise<{ result: unknown; streamed?: boolean } | undefined> {
  let admin: AdminFile;
  try {
    admin = JSON.parse(fs.readFileSync(adminFile(dataDir), 'utf8'));
  } catch {
    return undefined;
  }
  const body = JSON.stringify({ argv, cwd, input });
  const response = await new Promise<string | undefined>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: admin.port,
        path: '/cli',
        method: 'POST',
        headers: { 'x-admin-secret': admin.secret, 'content-type': 'application/json' },
      },
      (res) => {
        if (res.headers['x-admin-stream'] && out) {
          // Piped with backpressure: the server writes no faster than `out` takes it.
          pipeline(res, out, { end: false }).then(() => {
            const error = res.trailers['x-admin-error'];
            if (error) reject(new UserError(decodeURIComponent(error)));
            else resolve(STREAMED);
          }, reject);
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNREFUSED' ? resolve(undefined) : reject(err)));
    req.end(body);
  });
  if (response === undefined) return undefined;
  if (response === STREAMED) return { result: undefined, streamed: true };
  const parsed = JSON.parse(response) as { ok: boolean; result?: unknown; error?: string };
  if (!parsed.ok) throw new UserError(parsed.error ?? 'The server refused the command');
  return { result: parsed.result };
}
