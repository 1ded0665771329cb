// One audit of one URL: fetch the page (half the deadline), then the site files (robots.txt,
// llms.txt, sitemap) in what time is left, evaluate every signal and score them. A page that
// cannot be audited (DNS, timeout, blocked address, HTTP error, not HTML, too large) throws an
// AuditFailure whose message is what the customer reads in `error`.
import { FetchError, MAX_BYTES, safeFetch, type SafeResponse } from './fetch.ts';
import { parsePage } from './page.ts';
import { fetchSiteFiles } from './site.ts';
import { evaluateSignals, type Signal } from './signals/index.ts';
import { scoreSignals, type AuditScore } from './score.ts';

export class AuditFailure extends Error {
  /** `detail` is for the server's log only (e.g. the address a refused host resolved to). */
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'AuditFailure';
  }
}

export interface AuditOptions {
  allowPrivate: boolean;
  /** Overall deadline (AUDIT_TIMEOUT_MS). */
  timeoutMs: number;
  /** AUDIT_FAST_MS: the first-byte time that still scores full marks. */
  fastMs?: number;
  signal?: AbortSignal;
  now?: Date;
  addressCheck?: (ip: string) => string | null;
}

export interface AuditResult extends AuditScore {
  finalUrl: string;
  signals: Signal[];
}

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

/** The body as text, in the charset the header or a <meta charset> declares (UTF-8 otherwise). */
function decode(body: Buffer, contentType: string): string {
  const declared =
    contentType.match(/charset\s*=\s*"?([\w-]+)/i)?.[1] ??
    body
      .subarray(0, 2048)
      .toString('latin1')
      .match(/<meta[^>]+charset\s*=\s*["']?([\w-]+)/i)?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/**
 * The page at `url` as HTML text, after the address rules of every hop; AuditFailure when it cannot
 * be fetched, answers other than 2xx, or is not HTML. Site audits and brand proposals share it.
 */
export async function fetchHtml(
  url: string,
  opts: Pick<AuditOptions, 'allowPrivate' | 'addressCheck' | 'signal'> & { timeoutMs: number },
): Promise<{ res: SafeResponse; html: string }> {
  let res: SafeResponse;
  try {
    res = await safeFetch(url, { ...opts, maxBytes: MAX_BYTES });
  } catch (err) {
    if (err instanceof FetchError && err.code !== 'aborted') throw new AuditFailure(err.message, err.detail);
    throw err;
  }
  if (res.status < 200 || res.status > 299) {
    throw new AuditFailure(
      `The page answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''} (${res.url})`,
    );
  }
  const contentType = String(res.headers['content-type'] ?? '');
  const sniffed =
    !contentType && /^\s*(<!doctype html|<html|<head|<body)/i.test(res.body.subarray(0, 512).toString('latin1'));
  if (!HTML_TYPES.test(contentType.trim()) && !sniffed) {
    throw new AuditFailure(`The page is not HTML (Content-Type: ${contentType || 'none'})`);
  }
  return { res, html: decode(res.body, contentType) };
}

export async function auditUrl(url: string, opts: AuditOptions): Promise<AuditResult> {
  const started = Date.now();
  const policy = { allowPrivate: opts.allowPrivate, addressCheck: opts.addressCheck, signal: opts.signal };
  const { res, html } = await fetchHtml(url, { ...policy, timeoutMs: Math.round(opts.timeoutMs / 2) });
  const page = parsePage(html, res.url);

  // The site files share what is left of the deadline, keeping a little for scoring.
  const left = opts.timeoutMs - (Date.now() - started) - 250;
  const site = await fetchSiteFiles(res.url, policy, Math.max(250, Math.min(left, opts.timeoutMs / 4)));
  if (opts.signal?.aborted) throw new FetchError('aborted', 'The audit was cancelled', url);

  const signals = evaluateSignals({
    page,
    site,
    fetch: {
      requestedUrl: url,
      redirects: res.redirects,
      firstByteMs: res.firstByteMs,
      totalMs: res.totalMs,
      bytes: res.body.length,
      headers: res.headers,
    },
    now: opts.now ?? new Date(),
    fastMs: opts.fastMs ?? 600,
  });
  return { finalUrl: res.url, signals, ...scoreSignals(signals) };
}
