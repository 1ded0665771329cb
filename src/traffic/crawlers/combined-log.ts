// One line of an access log in the combined format of nginx and Apache, as the entry fields of
// docs/api.md section 14 (docs/crawlers.md, "Log formats"):
//
//   combined        203.0.113.7 - - [25/Nov/2026:10:00:00 +0000] "GET /p HTTP/1.1" 200 512 "-" "UA"
//   vhost combined  acme.example:443 203.0.113.7 - - [25/Nov/...] "GET /p HTTP/1.1" 200 512 "-" "UA"
//
// The standard combined format has no host; the vhost form (Apache's `vhost_combined`, `%v:%p`
// first, and the nginx log_format of docs/crawlers.md, `$host` first) carries one, otherwise the
// import's --host names it. One optional field may follow the user agent: the request time in
// seconds (nginx `$request_time`), read as duration_ms. Quoted fields may hold escaped quotes:
// nginx writes `\x22`, Apache `\"`; both are read back. A `-` is an absent value.
import type { RawEntry } from './entry.ts';

export class LogLineError extends Error {}

const MONTHS: Record<string, string> = {
  Jan: '01',
  Feb: '02',
  Mar: '03',
  Apr: '04',
  May: '05',
  Jun: '06',
  Jul: '07',
  Aug: '08',
  Sep: '09',
  Oct: '10',
  Nov: '11',
  Dec: '12',
};
// 25/Nov/2026:10:00:00 +0000
const CLF_TIME = /^(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}:\d{2}:\d{2}) ([+-]\d{2})(\d{2})$/;

const fail = (message: string): never => {
  throw new LogLineError(message);
};

/** The log's time as ISO 8601 (the entry checks the calendar); undefined when it is not CLF's. */
function isoTime(clf: string): string | undefined {
  const m = CLF_TIME.exec(clf);
  const month = m && MONTHS[m[2]];
  return month ? `${m[3]}-${month}-${m[1]}T${m[4]}${m[5]}:${m[6]}` : undefined;
}

const HEX = /^[0-9A-Fa-f]{2}$/;

/** Reads a quoted field starting at `at` (a `"`); returns its text, unescaped, and the index after it. */
function quoted(line: string, at: number, name: string): [string, number] {
  if (line[at] !== '"') fail(`${name} must be a quoted field`);
  let out = '';
  let i = at + 1;
  let start = i;
  for (;;) {
    const q = line.indexOf('"', i);
    const b = line.indexOf('\\', i);
    if (q < 0) return fail(`${name} has no closing quote`);
    if (b < 0 || q < b) return [out + line.slice(start, q), q + 1];
    out += line.slice(start, b);
    const c = line[b + 1];
    if (c === 'x' && HEX.test(line.slice(b + 2, b + 4))) {
      out += String.fromCharCode(Number.parseInt(line.slice(b + 2, b + 4), 16));
      i = b + 4;
    } else if (c === '"' || c === '\\') {
      out += c;
      i = b + 2;
    } else {
      out += '\\';
      i = b + 1;
    }
    start = i;
  }
}

/** The next space-separated token from `at`: its text and the index after the space. */
function token(line: string, at: number, name: string): [string, number] {
  if (at >= line.length) fail(`${name} is missing`);
  const end = line.indexOf(' ', at);
  return end < 0 ? [line.slice(at), line.length] : [line.slice(at, end), end + 1];
}

const orNull = (s: string) => (s === '-' ? null : s);

/**
 * The entry a combined-format line holds. `host`: the host of lines that carry none (the import's
 * --host). Throws a LogLineError saying what is wrong with the line.
 */
export function parseCombinedLine(line: string, host?: string): RawEntry {
  const open = line.indexOf(' [');
  if (open < 0) fail('the line is not in the combined log format (no [time])');
  // Before the time: `client ident user`, or `vhost client ident user`.
  const head = line.slice(0, open).split(' ');
  if (head.length !== 3 && head.length !== 4) fail('the line is not in the combined log format');
  const vhost = head.length === 4 ? head[0] : undefined;
  const ip = head[head.length - 3];
  const close = line.indexOf('] ', open);
  if (close < 0) fail('the time has no closing ]');
  const timestamp = isoTime(line.slice(open + 2, close));
  if (!timestamp) fail('time must be [dd/Mon/yyyy:hh:mm:ss +zzzz]');
  const [request, afterRequest] = quoted(line, close + 2, 'request');
  if (line[afterRequest] !== ' ') fail('request must be followed by the status');
  const [status, afterStatus] = token(line, afterRequest + 1, 'status');
  const [bytes, afterBytes] = token(line, afterStatus, 'bytes sent');
  const [referer, afterReferer] = quoted(line, afterBytes, 'referer');
  if (line[afterReferer] !== ' ') fail('user agent is missing');
  const [userAgent, at] = quoted(line, afterReferer + 1, 'user agent');
  const rest = line.slice(at).trim();
  let durationMs: number | null = null;
  if (rest && rest !== '-') {
    const seconds = /^\d+(\.\d+)?$/.test(rest) ? Number(rest) : Number.NaN;
    if (Number.isNaN(seconds)) fail('only the request time in seconds may follow the user agent');
    durationMs = Math.round(seconds * 1e6) / 1e3;
  }
  const parts = request.split(' ');
  if (parts.length < 2 || parts.length > 3) fail('request must be "METHOD PATH PROTOCOL"');
  const entryHost = vhost ?? host;
  if (!entryHost) fail('the line names no host: give --host or log the vhost form (docs/crawlers.md)');
  return {
    timestamp,
    method: parts[0],
    host: entryHost,
    path: parts[1],
    status_code: /^\d{3}$/.test(status) ? Number(status) : status,
    ip,
    user_agent: userAgent === '-' ? '' : userAgent,
    referer: orNull(referer),
    bytes_sent: bytes === '-' ? null : /^\d+$/.test(bytes) ? Number(bytes) : bytes,
    duration_ms: durationMs,
  };
}
