// The process logger: pino JSON lines. Whatever a caller passes, a line never carries an API key, a
// webhook secret, a provider key, an Authorization header, a password in a URL or a full answer
// text: fields with such names are censored (pino's redact), and every string value, error message
// and stack is scrubbed of anything shaped like a credential and cut to MAX_STRING characters.
import pino, { type DestinationStream, type Logger } from 'pino';

const CENSOR = '[redacted]';
/** Longer strings are cut: an answer or page text never reaches a log line whole. */
export const MAX_STRING = 500;

// Field names whose values are secrets or customer content, at the top level and one level down
// (pino's redact paths do not recurse; scrub() below covers any depth by shape).
const SECRET_FIELDS = [
  'key',
  'apiKey',
  'api_key',
  'secret',
  'password',
  'token',
  'authorization',
  'cookie',
  'text',
  'answer',
  'content',
  'body',
  'prompt',
];
const REDACT_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((f) => `*.${f}`),
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'config.databaseUrl',
  'config.clickhouse.password',
];

// Credentials by shape: our API keys, webhook secrets, bearer tokens, provider keys, URL passwords.
const SHAPES: [RegExp, string][] = [
  [/\bans_[A-Za-z0-9_-]{6,}/g, `ans_${CENSOR}`],
  [/\bwhsec_[A-Za-z0-9+/=]{6,}/g, `whsec_${CENSOR}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${CENSOR}`],
  [/\b(sk|pk|xai|pplx)-[A-Za-z0-9_-]{12,}/g, `$1-${CENSOR}`],
  [/\bAIza[A-Za-z0-9_-]{20,}/g, CENSOR],
  [/([a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:)[^@\s]+@/gi, `$1${CENSOR}@`],
  [/([?&](?:key|api_key|apikey|token|secret|password)=)[^&\s]+/gi, `$1${CENSOR}`],
];

export function scrubText(s: string): string {
  let out = s;
  for (const [re, replacement] of SHAPES) out = out.replace(re, replacement);
  return out.length > MAX_STRING
    ? `${out.slice(0, MAX_STRING)}… [${out.length - MAX_STRING} more characters cut]`
    : out;
}

/** Scrubs every string in a plain value (objects and arrays to a small depth). */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (!value || typeof value !== 'object' || depth > 4) return value;
  if (value instanceof Error) return errorSerializer(value);
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrub(v, depth + 1);
  return out;
}

function errorSerializer(err: unknown) {
  const plain = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // An error can carry anything (a fetch error its URL). pg's `detail` quotes the row's values
  // ("Failing row contains (...)", "Key (keyword)=(...)"): it is left out, the message, code, table
  // and constraint say what failed.
  for (const [k, v] of Object.entries(plain)) {
    if (k === 'detail') continue;
    out[k] = k === 'stack' && typeof v === 'string' ? scrubStack(v) : scrub(v, 1);
  }
  return out;
}

/** A stack keeps all its frames; only its message part is cut. */
function scrubStack(stack: string): string {
  const at = stack.indexOf('\n    at ');
  return at < 0 ? scrubText(stack) : `${scrubText(stack.slice(0, at))}${stack.slice(at)}`;
}

/** The fields of one log call; `err`/`error` are left to their serializer, which scrubs them. */
function scrubFields(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj))
    out[k] = (k === 'err' || k === 'error') && v instanceof Error ? v : scrub(v, 1);
  return out;
}

// The process log (stdout) must never hold the process up, whatever its reader does. pino's default
// destination (sonic-boom) writes asynchronously, but registers an exit hook that flushes what it
// still holds synchronously, and when the reader has stopped reading a pipe (full: EAGAIN) that
// flush sleeps 100 ms and retries, forever, inside process.exit(): neither the shutdown deadline
// nor a second signal can run any more. So the sink below holds at most MAX_HELD_BYTES while the
// reader does not read (later lines are dropped whole, and counted in a line once it reads
// again), can be waited for with a bound (drain), and its exit flush gives up after EXIT_FLUSH_MS,
// or at once once abandon() was called.

/** What the sink holds for a reader that does not read; lines past it are dropped whole. */
const MAX_HELD_BYTES = 16 * 1024 * 1024;
/** How long the synchronous flush at exit may wait for a full pipe to take the rest. */
const EXIT_FLUSH_MS = 2000;

export interface LogSink {
  stream: ReturnType<typeof pino.destination>;
  /** Resolves true once everything written so far reached the destination, false after `timeoutMs`. */
  drain(timeoutMs: number): Promise<boolean>;
  /** The process exits now: the flush at exit writes what the destination takes without waiting. */
  abandon(): void;
}

/** An asynchronous, bounded log sink on a file descriptor or file (stdout for the process). */
export function openLogSink(dest: number | string = 1, opts: { maxHeldBytes?: number } = {}): LogSink {
  let exitFlushMs = EXIT_FLUSH_MS;
  let giveUpAt = Infinity;
  let idle = true;
  let dropped = 0;
  const stream = pino.destination({
    dest,
    sync: false,
    maxLength: opts.maxHeldBytes ?? MAX_HELD_BYTES,
    // Asynchronous writes retry a full pipe from a timer, which costs nothing: always. Only the
    // synchronous flush below (which blocks the thread between attempts) has a deadline.
    retryEAGAIN: () => Date.now() < giveUpAt,
  });
  const write = stream.write.bind(stream);
  const ownWrite = (line: string) => {
    idle = false;
    return write(line);
  };
  stream.write = ownWrite;
  const flushSync = stream.flushSync.bind(stream);
  stream.flushSync = () => {
    giveUpAt = Date.now() + exitFlushMs;
    try {
      flushSync();
    } catch {
      // The reader did not take the rest in time (or the stream never opened): it is dropped.
    } finally {
      giveUpAt = Infinity;
    }
  };
  const notes = pino({}, stream);
  stream.on('drop', () => dropped++);
  // Emitted each time the stream has written all it held.
  stream.on('drain', () => {
    idle = true;
    if (!dropped) return;
    notes.warn({ dropped }, 'log lines dropped: the log reader was not reading');
    dropped = 0;
  });
  // pino replaces write with a no-op once the reader is gone (EPIPE): nothing is left to wait for.
  const settled = () => idle || stream.write !== ownWrite;
  return {
    stream,
    drain(timeoutMs) {
      return new Promise((resolve) => {
        const finish = (drained: boolean) => {
          clearTimeout(timer);
          stream.off('drain', check);
          resolve(drained);
        };
        // A 'drain' may be followed at once by another write (the dropped-lines note): wait on.
        const check = () => {
          if (settled()) finish(true);
        };
        const timer = setTimeout(() => finish(settled()), timeoutMs);
        stream.on('drain', check);
        check();
      });
    },
    abandon() {
      exitFlushMs = 0;
    },
  };
}

/** stdout, opened by the first logger that needs it and shared by all (one writer on the fd). */
let processSink: LogSink | undefined;

function processStream(): LogSink['stream'] {
  processSink ??= openLogSink(1);
  return processSink.stream;
}

/** Waits, at most `timeoutMs`, for the process log to reach stdout (before an exit). */
export function drainProcessLog(timeoutMs: number): Promise<boolean> {
  return processSink ? processSink.drain(timeoutMs) : Promise.resolve(true);
}

/** The process exits now: whatever stdout's reader has not taken is dropped, not waited for. */
export function abandonProcessLog(): void {
  processSink?.abandon();
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    serializers: { err: errorSerializer, error: errorSerializer },
    formatters: { log: scrubFields },
    hooks: {
      // The message string and printf-style arguments.
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? scrubText(a) : a)) as Parameters<typeof method>);
      },
    },
  };
  return pino(options, destination ?? processStream());
}
