// An outbound HTTP client for URLs chosen by customers (site audits, and later webhooks). It
// refuses non-public addresses after DNS resolution and again on every redirect hop, connects to
// exactly the address it checked (the check runs inside the socket's own `lookup`, so a DNS
// answer cannot change between check and connect), and caps redirects, body size and time.
import http from 'node:http';
import https from 'node:https';
import dns from 'node:dns';
import type net from 'node:net';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import { blockedReason, isIpLiteral, refusedAs } from './addresses.ts';

export const USER_AGENT = 'AnswerscopeAudit/0.1 (+https://github.com/answerscope/answerscope/blob/main/docs/audits.md)';
export const MAX_BYTES = 5 * 1024 * 1024;
export const MAX_REDIRECTS = 5;

export type FetchErrorCode =
  | 'invalid_url'
  | 'blocked'
  | 'dns'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'connection'
  | 'aborted';

/**
 * A refusal or transport failure, with a message meant for the customer. `detail` is for the
 * server's logs only: it may name the address a host resolved to, which the message never does.
 */
export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    readonly url: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

export interface SafeFetchOptions {
  /** ALLOW_PRIVATE_URLS: skip the address policy (tests and local development only). */
  allowPrivate: boolean;
  /** The whole exchange, redirects and body included. */
  timeoutMs: number;
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Decompressed body cap; default 5 MB. */
  maxBytes?: number;
  /** Followed for GET and HEAD only (a POST returns its 3xx as is); default 5. */
  maxRedirects?: number;
  signal?: AbortSignal;
  /** Address policy (why an IP is refused, or null); default: public unicast only. */
  addressCheck?: (ip: string) => string | null;
}

export interface SafeResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Every URL requested before `url`, in order. */
  redirects: string[];
  /** The IP address the final response came from. */
  address: string;
  /** Time to the final response's headers, and to its last byte, from the first request. */
  firstByteMs: number;
  totalMs: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_FAIL', 'ENODATA', 'ESERVFAIL']);

function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** The refusal of `host` because of `ip`: the class of the address for the customer, the address for the logs. */
function blocked(host: string, ip: string, why: string, url: string): FetchError {
  const message = `Blocked address: ${refusedAs(host, ip)}; only public addresses can be fetched`;
  const detail = host === ip ? `${ip} is ${why}` : `${host} resolves to ${ip}, which is ${why}`;
  return new FetchError('blocked', message, url, detail);
}

/** How a `lookup` answers: with the error alone, or with the address (and family) or all addresses. */
type LookupCallback = (err: Error | null, address?: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the socket that resolves, checks every address, and hands over only checked ones.
 * (net.LookupFunction types its callback as always taking an address, even after an error.)
 */
function guardedLookup(check: (ip: string) => string | null, url: string): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { all: true, family: options.family, hints: options.hints }, (err, addresses) => {
      if (err) return callback(err);
      // One refused address refuses the host: a name that also points inward is not trusted.
      for (const a of addresses) {
        const why = check(a.address);
        if (why) return callback(blocked(hostname, a.address, why, url));
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  }) as net.LookupFunction;
}

function transportError(err: unknown, url: string): FetchError {
  if (err instanceof FetchError) return err;
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  // Node's error code, on the error itself or on its cause.
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown } } | null | undefined;
  const code = e?.code ?? e?.cause?.code;
  if (typeof code === 'string' && DNS_CODES.has(code)) {
    return new FetchError('dns', `DNS lookup failed for ${hostOf(new URL(url))} (${code})`, url);
  }
  if (typeof code === 'string' && (/CERT|SSL|TLS/.test(code) || code === 'EPROTO')) {
    return new FetchError('connection', `TLS handshake with ${host} failed (${code})`, url);
  }
  return new FetchError('connection', `Could not connect to ${host} (${code ?? e?.message ?? 'unknown error'})`, url);
}

interface Hop {
  res: http.IncomingMessage;
  address: string;
}

function requestOnce(
  url: URL,
  opts: SafeFetchOptions,
  method: string,
  body: string | Buffer | undefined,
  check: (ip: string) => string | null,
  signal: AbortSignal,
): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const host = hostOf(url);
    // An IP literal never goes through `lookup`: judge it here.
    if (isIpLiteral(host)) {
      const why = check(host);
      if (why) return reject(blocked(host, host, why, url.href));
    }
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(url, {
      method,
      signal,
      agent: false,
      lookup: guardedLookup(check, url.href),
      headers: {
        'user-agent': USER_AGENT,
        accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
        ...opts.headers,
        ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
      },
    });
    let address = '';
    req.on('socket', (socket) => {
      // Belt and braces: the address actually connected to passes the same check.
      socket.once('connect', () => {
        address = socket.remoteAddress ?? '';
        const why = address ? check(address) : null;
        if (why) req.destroy(blocked(host, address, why, url.href));
      });
    });
    req.on('response', (res) => resolve({ res, address: address || req.socket?.remoteAddress || '' }));
    req.on('error', reject);
    req.end(body);
  });
}

/** The decompressed body, refused past maxBytes (a small gzip can expand enormously). */
async function readBody(res: http.IncomingMessage, maxBytes: number, url: string): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const tooLarge = () =>
    new FetchError(
      'too_large',
      `The response is larger than ${Math.round((maxBytes / 1024 / 1024) * 10) / 10} MB`,
      url,
    );
  if (!encoding && Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw tooLarge();
  }
  let stream: Readable = res;
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(zlib.createGunzip());
  else if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
  else if (encoding === 'br') stream = res.pipe(zlib.createBrotliDecompress());
  res.on('error', (err) => stream.destroy(err));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      res.destroy();
      stream.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Fetches a URL under the address policy and the caps; throws FetchError on refusal or failure. */
export async function safeFetch(rawUrl: string, opts: SafeFetchOptions): Promise<SafeResponse> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new FetchError('invalid_url', `Not a valid URL: ${rawUrl}`, rawUrl);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError('invalid_url', `Only http and https URLs can be fetched, not ${url.protocol}`, rawUrl);
  }
  const check = opts.allowPrivate ? () => null : (opts.addressCheck ?? blockedReason);
  const maxRedirects = opts.maxRedirects ?? MAX_REDIRECTS;
  const started = performance.now();
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timer.signal, opts.signal]) : timer.signal;
  const redirects: string[] = [];
  let method = opts.method ?? 'GET';
  let body = opts.body;
  try {
    for (;;) {
      if (signal.aborted) throw new Error('aborted');
      const { res, address } = await requestOnce(url, opts, method, body, check, signal);
      const firstByteMs = performance.now() - started;
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode ?? 0) && location && method !== 'POST') {
        res.resume();
        if (redirects.length >= maxRedirects) {
          throw new FetchError(
            'too_many_redirects',
            `More than ${maxRedirects} redirects (last: ${url.href} -> ${location})`,
            url.href,
          );
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new FetchError('invalid_url', `Redirect to an invalid URL: ${location}`, url.href);
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new FetchError('invalid_url', `Redirect to a non-HTTP URL: ${next.href}`, url.href);
        }
        redirects.push(url.href);
        // 303 always, and 301/302 after a POST by browser custom, turn into a body-less GET.
        if (res.statusCode === 303) {
          method = method === 'HEAD' ? 'HEAD' : 'GET';
          body = undefined;
        }
        url = next;
        continue;
      }
      let buf: Buffer;
      if (method === 'HEAD') {
        res.resume();
        buf = Buffer.alloc(0);
      } else {
        buf = await readBody(res, opts.maxBytes ?? MAX_BYTES, url.href);
      }
      return {
        url: url.href,
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? '',
        headers: res.headers,
        body: buf,
        redirects,
        address,
        firstByteMs: Math.round(firstByteMs),
        totalMs: Math.round(performance.now() - started),
      };
    }
  } catch (err) {
    if (timer.signal.aborted) {
      throw new FetchError(
        'timeout',
        `Timed out after ${Math.round(opts.timeoutMs / 100) / 10} s fetching ${url.href}`,
        url.href,
      );
    }
    if (opts.signal?.aborted) throw new FetchError('aborted', `Fetching ${url.href} was cancelled`, url.href);
    throw transportError(err, url.href);
  } finally {
    clearTimeout(timeout);
  }
}
