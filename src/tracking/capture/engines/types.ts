// The capture engine interface: ask one platform one prompt, get its answer or a typed failure.
// Adapters (one file per provider) turn each provider's documented response into a Capture; the
// capture job (../capture.ts) never sees a provider's own shapes.
import type { AnswerMode, CitationInput, ProductInput } from '../../types.ts';
import type { Platform } from '../../../tenancy/tracked.ts';

export interface CaptureRequest {
  /** The prompt text, asked as a user would. */
  prompt: string;
  platform: Platform;
  /** The prompt's region (a two-letter country code such as US; other values are passed on as hints only). */
  region: string;
  /** `shopping` asks for product cards where the platform has them; the daily job asks `standard`. */
  mode: AnswerMode;
  /** Where the answer goes: deterministic engines (the simulated one) derive their output from it. */
  slot: { promptId: string; day: string; sample: number };
  signal?: AbortSignal;
}

export interface Capture {
  text: string;
  citations: CitationInput[];
  /** The model the provider reports (free text), else the configured one. */
  model: string;
  mode: AnswerMode;
  products: ProductInput[];
  /**
   * The web searches the platform ran for this answer, where the provider's response says:
   * null when it does not (unknown), [] when it answered without searching (docs/api.md section 12).
   */
  searchQueries: string[] | null;
  /** Only the simulated engine sets it: the deterministic time of its answer within the day. */
  collectedAt?: string;
}

export type FailureKind =
  | 'not_configured' // the provider's key is unset
  | 'rate_limited' // 429 after the retries, or a Retry-After too long to wait
  | 'timeout' // no complete answer within TRACKING_TIMEOUT_MS
  | 'http_error' // a non-2xx answer (or a network error) that retrying did not cure
  | 'malformed' // a 2xx answer without the documented shape, or without answer text
  | 'no_answer'; // the platform showed no AI answer for this query (not an error; nothing to store)

export interface EngineFailure {
  kind: FailureKind;
  /** Safe to show and store: never holds a key or a request URL. */
  message: string;
  retryable: boolean;
  /** From a Retry-After header, when the provider sent one. */
  retryAfterMs?: number;
}

export type CaptureOutcome = { ok: true; capture: Capture } | { ok: false; failure: EngineFailure };

export interface Engine {
  /** The provider (openai, ..., serpapi) or `simulated`: recorded on each capture run. */
  name: string;
  /**
   * The adapter's version, stored with every answer it captures (`engine_version`): raised when a
   * change to the adapter changes what it makes of a provider's response, so answers taken before
   * and after can be told apart.
   */
  version: string;
  /** False when the provider's key is unset: capture() then always answers not_configured. */
  configured: boolean;
  capture(req: CaptureRequest): Promise<CaptureOutcome>;
}

/** How adapters call their provider: the shared HTTP policy (http.ts). */
export interface HttpPolicy {
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  /** The longest Retry-After worth waiting for; beyond it the capture fails as rate_limited. */
  maxRetryAfterMs?: number;
}

export const failure = (
  kind: FailureKind,
  message: string,
  retryable = false,
  retryAfterMs?: number,
): CaptureOutcome => ({
  ok: false,
  failure: { kind, message, retryable, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
});

export const captured = (capture: Capture): CaptureOutcome => ({ ok: true, capture });
