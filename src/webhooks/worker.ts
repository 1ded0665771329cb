// The delivery worker, started by the server beside the scheduler (unless WEBHOOK_WORKER=0). It
// claims due deliveries (delivery.ts), signs and POSTs each one, and records the outcome. The row
// is the durable state: a restart loses nothing (pending rows wait in Postgres), and a delivery
// that succeeded is never claimed again. stop() lets in-flight requests finish and be recorded,
// so a restart does not resend them; a worker that dies mid-send leaves its claim to lapse after
// the lease, and the delivery is sent again with the same `webhook-id` (receivers dedupe on it).
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Stores } from '../stores/index.ts';
import { FetchError, safeFetch } from '../audits/fetch.ts';
import { claimDue, giveUp, recordAttempt, type Claim, type Outcome } from './delivery.ts';
import { openSecret, signedHeaders } from './signing.ts';
import { startClaimWorker, WakeGroup, type ClaimWorker } from '../runtime/claim-worker.ts';

export const POLL_MS = 1_000;
const CONCURRENCY = 8;
/** Kept of a receiver's answer, for the deliveries list. */
const EXCERPT_CHARS = 500;
/** A receiver's answer body is read up to this size (it only serves the excerpt). */
const MAX_RESPONSE_BYTES = 1024 * 1024;
export const USER_AGENT = 'Answerscope-Webhooks/0.1 (+https://www.standardwebhooks.com/)';

export interface WebhookWorkerDeps {
  stores: Stores;
  config: Config;
  log: Logger;
}

/** tick() claims and sends what is due now (also run every poll). */
export type WebhookWorker = ClaimWorker;

const workers = new WakeGroup();

/** Tells this process's workers that deliveries were committed, so they go out without waiting for a poll. */
export function deliveriesQueued(): void {
  workers.wakeAll();
}

/** Sends one attempt; never throws (a refusal or transport failure is an outcome too). */
async function attempt(config: Config, claim: Claim): Promise<Outcome> {
  const schedule = config.webhooks.retryScheduleMs;
  const startedAt = new Date();
  const t0 = performance.now();
  let statusCode: number | null = null;
  let excerpt: string | null = null;
  let error: string | null = null;
  let detail: string | undefined;
  try {
    const headers = signedHeaders(openSecret(claim.secret, config.webhooks.secretKey), claim.id, startedAt, claim.body);
    const res = await safeFetch(claim.url, {
      method: 'POST',
      body: claim.body,
      headers: { ...headers, 'content-type': 'application/json', accept: '*/*', 'user-agent': USER_AGENT },
      allowPrivate: config.allowPrivateUrls,
      timeoutMs: config.webhooks.timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
    });
    statusCode = res.status;
    // Postgres text cannot hold NUL: a receiver answering one must not make the outcome unrecordable.
    excerpt = res.body.toString('utf8').replaceAll('\u0000', '').slice(0, EXCERPT_CHARS);
    if (res.status < 200 || res.status > 299) error = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
  } catch (err) {
    error = (err as Error).message;
    if (err instanceof FetchError) detail = err.detail;
  }
  const latencyMs = Math.round(performance.now() - t0);
  // attempts is 1-based: after attempt k fails, wait schedule[k - 1]; past the schedule, give up.
  const next: Outcome['next'] = !error
    ? { status: 'succeeded' }
    : claim.attempts <= schedule.length
      ? { status: 'pending', retryInMs: schedule[claim.attempts - 1] }
      : { status: 'failed' };
  return { startedAt, latencyMs, statusCode, excerpt, error, detail, next };
}

export function startWebhookWorker(deps: WebhookWorkerDeps, opts: { pollMs?: number } = {}): WebhookWorker {
  const { stores, config, log } = deps;
  const maxAttempts = config.webhooks.retryScheduleMs.length + 1;
  // Long enough for the request and its recording; a claim older than this belongs to a dead worker.
  const leaseMs = config.webhooks.timeoutMs + 30_000;

  async function send(claim: Claim): Promise<void> {
    if (claim.attempts > maxAttempts) {
      log.warn({ deliveryId: claim.id, attempts: claim.attempts }, 'webhook delivery abandoned after lost claims');
      return giveUp(stores.pg, claim);
    }
    const outcome = await attempt(config, claim);
    await recordAttempt(stores.pg, claim, outcome);
    const fields = {
      deliveryId: claim.id,
      endpointId: claim.endpoint_id,
      attempt: claim.attempts,
      status: outcome.statusCode,
    };
    if (outcome.error) {
      const failure = { ...fields, error: outcome.error, detail: outcome.detail, next: outcome.next.status };
      log.warn(failure, 'webhook delivery attempt failed');
    } else log.debug(fields, 'webhook delivered');
  }

  // No grace: stop() waits for every request (they end within WEBHOOK_TIMEOUT_MS), so nothing is
  // sent twice.
  return startClaimWorker<Claim>({
    name: 'webhook worker',
    pollMs: opts.pollMs ?? POLL_MS,
    log,
    concurrency: CONCURRENCY,
    group: workers,
    claim: (room) => claimDue(stores.pg, room, leaseMs),
    work: send,
    onError: (err, claim) => log.error({ err, deliveryId: claim.id }, 'could not record a webhook delivery attempt'),
  });
}
