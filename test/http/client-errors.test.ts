// Errors Node's HTTP parser raises before the app sees a request (headers over 16 KB, a malformed
// request line or header) answer with a JSON {"error": ...} body, like every other error.
// Raw sockets: an HTTP client would refuse to send such requests.
// test-process: shared
import net from 'node:net';
import test from 'ava';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseReply(raw: string): RawReply {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete response head in ${JSON.stringify(raw)}`);
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(end + 4) };
}

/** Writes `request` as is and reads until the server closes the connection. */
function rawExchange(request: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
    // Generous: a server that never closes is the failure, not a slow machine.
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close; got ${JSON.stringify(received)}`));
    }, 30_000);
    socket.setEncoding('latin1');
    socket.on('data', (d) => (received += d));
    socket.on('error', () => {}); // a reset after the reply still leaves the reply read
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
}

function assertJsonError(t: any, reply: RawReply, status: number, error: string) {
  t.is(reply.status, status, JSON.stringify(reply));
  t.regex(reply.headers['content-type'] ?? '', /^application\/json/);
  t.is(reply.headers.connection, 'close');
  t.is(Number(reply.headers['content-length']), Buffer.byteLength(reply.body));
  t.deepEqual(JSON.parse(reply.body), { error });
}

test('headers over 16 KB: 431 with a JSON error', async (t) => {
  const big = 'x'.repeat(20 * 1024);
  const reply = parseReply(await rawExchange(`GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${big}\r\n\r\n`));
  assertJsonError(t, reply, 431, 'Request header fields too large');
});

test('a URL over 16 KB counts as headers: 431 with a JSON error', async (t) => {
  const url = `/healthz?q=${'a'.repeat(20 * 1024)}`;
  const reply = parseReply(await rawExchange(`GET ${url} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
  assertJsonError(t, reply, 431, 'Request header fields too large');
});

test('a garbage request line: 400 with a JSON error', async (t) => {
  const reply = parseReply(await rawExchange('this is not http\r\n\r\n'));
  assertJsonError(t, reply, 400, 'Malformed request');
});

test('a malformed header: 400 with a JSON error', async (t) => {
  const reply = parseReply(await rawExchange('GET /healthz HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n'));
  assertJsonError(t, reply, 400, 'Malformed request');
});

test('a malformed request after a good one on a keep-alive connection is still answered', async (t) => {
  const { port } = new URL(server.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  t.teardown(() => socket.destroy());
  socket.setEncoding('latin1');
  let received = '';
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  // The first response in full (it has a Content-Length), then the bad request on the same socket.
  await new Promise<void>((resolve) => {
    socket.on('data', (d) => {
      received += d;
      const reply = received.includes('\r\n\r\n') ? parseReply(received) : undefined;
      if (reply && Buffer.byteLength(reply.body) >= Number(reply.headers['content-length'])) resolve();
    });
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  });
  t.is(parseReply(received).status, 200);
  received = '';
  socket.write('NOT HTTP AT ALL\r\n\r\n');
  await closed;
  assertJsonError(t, parseReply(received), 400, 'Malformed request');
});
