// The one way adapters call a provider: JSON over fetch with a deadline, and retries with
// exponential back-off (with jitter) on 429, 408, 5xx, network errors and timeouts, honouring
// Retry-After. A small loop rather than p-retry: the wait must come from the provider's Retry-After
// when it sends one, and a wait too long to be worth it must end the capture as rate_limited;
// p-retry's delay is its own schedule only.
// Failure messages name the provider and the status, never the URL (SerpApi's carries the key).
import { setTimeout as sleep } from 'node:timers/promises';
import type { EngineFailure, HttpPolicy } from './types.ts';

export interface JsonRequest {
  /** How messages name the provider, e.g. "OpenAI". */
  provider: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
}

// biome-ignore lint/suspicious/noExplicitAny: provider JSON as parsed; each adapter checks the fields it reads
export type JsonResult = { ok: true; json: any } | { ok: false; failure: EngineFailure };

const MAX_BACKOFF_MS = 60_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/** Sends the request, retrying what may succeed on a later try. */
export async function requestJson(req: JsonRequest, policy: HttpPolicy): Promise<JsonResult> {
  const maxWait = policy.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  for (let attempt = 1; ; attempt++) {
    const result = await once(req, policy.timeoutMs);
    if (result.ok || !result.failure.retryable || req.signal?.aborted) return result;
    const f = result.failure;
    if (attempt >= policy.maxAttempts) {
      return {
        ok: false,
        failure: { ...f, message: `${f.message} (after ${attempt} attempt${attempt > 1 ? 's' : ''})` },
      };
    }
    const wait = f.retryAfterMs ?? backoff(policy.retryBaseMs, attempt);
    if (wait > maxWait) {
      return {
        ok: false,
        failure: {
          ...f,
          message: `${f.message}; Retry-After ${Math.ceil(wait / 1000)} s is longer than worth waiting`,
        },
      };
    }
    await sleep(wait, undefined, { signal: req.signal }).catch(() => {});
  }
}

/** base x 2^(attempt-1), scaled by a random factor in [0.5, 1) so that many captures do not retry in step. */
export function backoff(baseMs: number, attempt: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
}

async function once(req: JsonRequest, timeoutMs: number): Promise<JsonResult> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  let text: string;
  try {
    res = await fetch(req.url, {
      method: req.method ?? (req.body === undefined ? 'GET' : 'POST'),
      headers,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal,
    });
    // The deadline covers the body too: a provider that stalls mid-answer is a timeout.
    text = await res.text();
  } catch (err) {
    if (timeout.aborted) return fail('timeout', `${req.provider} did not answer within ${timeoutMs} ms`, true);
    if (req.signal?.aborted) return fail('timeout', `the capture was cancelled`, false);
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return fail(
      'http_error',
      `${req.provider} could not be reached (${cause?.code ?? cause?.message ?? (err as Error).message})`,
      true,
    );
  }
  const retryAfterMs = retryAfter(res.headers);
  if (res.status === 429) {
    return fail('rate_limited', `${req.provider} rate limit (HTTP 429)${detail(text)}`, true, retryAfterMs);
  }
  if (res.status === 408 || res.status >= 500) {
    return fail('http_error', `${req.provider} answered HTTP ${res.status}${detail(text)}`, true, retryAfterMs);
  }
  if (res.status < 200 || res.status >= 300) {
    return fail('http_error', `${req.provider} answered HTTP ${res.status}${detail(text)}`, false);
  }
  try {
    return { ok: true, json: JSON.parse(text) };
  } catch {
    return fail('malformed', `${req.provider} sent a response that is not JSON (${text.length} bytes)`, false);
  }
}

function fail(kind: EngineFailure['kind'], message: string, retryable: boolean, retryAfterMs?: number): JsonResult {
  return { ok: false, failure: { kind, message, retryable, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) } };
}

/** Retry-After in seconds or as an HTTP date; OpenAI also sends retry-after-ms. */
export function retryAfter(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const v = headers.get('retry-after')?.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.ceil(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The provider's own error message, shortened: `: Invalid API key`. */
function detail(body: string): string {
  let message: unknown;
  try {
    const j = JSON.parse(body);
    message = j?.error?.message ?? (typeof j?.error === 'string' ? j.error : undefined) ?? j?.message ?? j?.detail;
  } catch {
    message = undefined;
  }
  if (typeof message !== 'string' || !message.trim()) return '';
  const m = message.replace(/\s+/g, ' ').trim();
  return `: ${m.length > 200 ? `${m.slice(0, 200)}...` : m}`;
}
