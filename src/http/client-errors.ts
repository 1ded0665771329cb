// Errors Node's HTTP parser raises before any request reaches the app (headers over 16 KB, a
// malformed request line or header, a request that took too long to arrive). Node's own answer
// to them has an empty body; ours is JSON {"error": ...} like every other error, whenever the
// connection can still take an answer.
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';

interface Answer {
  status: number;
  reason: string;
  error: string;
}

const MALFORMED: Answer = { status: 400, reason: 'Bad Request', error: 'Malformed request' };

// llhttp has no separate code for a long URL: it counts toward the header limit (HPE_HEADER_OVERFLOW).
const BY_CODE: Record<string, Answer> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    error: 'Request header fields too large',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, reason: 'Payload Too Large', error: 'Chunk extensions too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', error: 'Request timeout' },
};

/** The answer to a client error, or none when it is not a request we could answer (a reset, say). */
export function clientErrorAnswer(code: string | undefined): Answer | undefined {
  if (!code) return undefined;
  return BY_CODE[code] ?? (code.startsWith('HPE_') ? MALFORMED : undefined);
}

/** A complete HTTP/1.1 response that closes the connection. */
export function clientErrorResponse(answer: Answer): string {
  const body = JSON.stringify({ error: answer.error });
  return (
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** Whether bytes written now would land between responses rather than inside one already begun. */
function canAnswer(socket: Duplex): boolean {
  // Node's own handler makes the same check: a pipelined request may fail while the response to
  // the one before it is being written.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return socket.writable && !inFlight?.headersSent;
}

export function onClientError(err: Error & { code?: string }, socket: Duplex, log?: Logger): void {
  const answer = clientErrorAnswer(err.code);
  if (!answer || !canAnswer(socket)) {
    socket.destroy();
    return;
  }
  log?.debug({ code: err.code, status: answer.status }, 'malformed request');
  // end() sends the answer and a FIN; the socket is destroyed once it is flushed, or at once if
  // the peer is gone (an error then is expected and has nothing left to tell).
  socket.on('error', () => socket.destroy());
  socket.end(clientErrorResponse(answer), () => socket.destroy());
}

/** Makes `server` answer parser errors with JSON instead of Node's empty-bodied replies. */
export function answerClientErrors(server: http.Server, log?: Logger): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => onClientError(err, socket, log));
}
