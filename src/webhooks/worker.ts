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
import { slackMessage } from './slack.ts';
import { brandById } from '../tenancy/brands.ts';
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

/**
 * What an attempt sends: the stored body signed with Standard Webhooks' headers, or, to a Slack
 * endpoint, the event's Slack message unsigned (slack.ts); `brandName` names an alert's brand there.
 */
function request(config: Config, claim: Claim, at: Date, brandName?: string) {
  if (claim.format === 'slack') return { body: JSON.stringify(slackMessage(claim.body, brandName)), headers: {} };
  if (claim.secret === null) throw new Error('The endpoint has no signing secret');
  const headers = signedHeaders(openSecret(claim.secret, config.webhooks.secretKey), claim.id, at, claim.body);
  return { body: claim.body, headers };
}

/** Sends one attempt; never throws (a refusal or transport failure is an outcome too). */
async function attempt(config: Config, claim: Claim, brandName?: string): Promise<Outcome> {
  const schedule = config.webhooks.retryScheduleMs;
  const startedAt = new Date();
  const t0 = performance.now();
  let statusCode: number | null = null;
  let excerpt: string | null = null;
  let error: string | null = null;
  let detail: string | undefined;
  try {
    const { body, headers } = request(config, claim, startedAt, brandName);
    const res = await safeFetch(claim.url, {
      method: 'POST',
      body,
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

  /** The name of an alert's brand, for its Slack message (the event names the brand by id). */
  async function alertBrandName(claim: Claim): Promise<string | undefined> {
    if (claim.format !== 'slack' || claim.event_type !== 'alert.fired') return undefined;
    const { brand_id } = (JSON.parse(claim.body) as { data: { brand_id: string } }).data;
    return (await brandById(stores.pg, brand_id))?.name;
  }

  async function send(claim: Claim): Promise<void> {
    if (claim.attempts > maxAttempts) {
      log.warn({ deliveryId: claim.id, attempts: claim.attempts }, 'webhook delivery abandoned after lost claims');
      return giveUp(stores.pg, claim);
    }
    const outcome = await attempt(config, claim, await alertBrandName(claim));
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
