// The delivery rows: claiming due ones, recording an attempt's outcome, and listing them for the
// customer. Claims are single statements (no transaction is held while a request is in flight):
// `FOR UPDATE SKIP LOCKED` keeps instances on one Postgres server from taking the same row, and
// the row conditions repeated in the outer UPDATE keep it exclusive on the embedded PGlite too.
import type { Postgres } from '../stores/postgres.ts';
import type { WebhookEventType, WebhookFormat } from './outbox.ts';
import { webhookAttempts } from '../runtime/metrics.ts';

export interface Claim {
  id: string;
  endpoint_id: string;
  event_type: string;
  body: string;
  /** The number of this attempt, 1-based (claims that died without recording count too). */
  attempts: number;
  claim_token: string;
  url: string;
  /** Null for a Slack endpoint, which is sent unsigned. */
  secret: string | null;
  format: WebhookFormat;
}

/**
 * Claims up to `limit` due deliveries: pending ones whose time has come and `delivering` ones whose
 * lease ran out (their worker died). The lease becomes the row's `next_attempt_at`.
 */
export async function claimDue(pg: Postgres, limit: number, leaseMs: number): Promise<Claim[]> {
  const { rows } = await pg.query<Claim>(
    `UPDATE webhook_deliveries d
        SET status = 'delivering', attempts = d.attempts + 1, claim_token = gen_random_uuid(),
            next_attempt_at = now() + $2 * interval '1 millisecond'
       FROM webhook_endpoints e
      WHERE e.id = d.endpoint_id
        AND d.status IN ('pending', 'delivering') AND d.next_attempt_at <= now()
        AND d.id IN (SELECT id FROM webhook_deliveries
                      WHERE status IN ('pending', 'delivering') AND next_attempt_at <= now()
                      ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING d.id, d.endpoint_id, d.event_type, d.body, d.attempts, d.claim_token, e.url, e.secret, e.format`,
    [limit, leaseMs],
  );
  return rows;
}

export interface Outcome {
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  excerpt: string | null;
  /** Stored, and read by the customer: never names the address a host resolved to. */
  error: string | null;
  /** For the server's log only, never stored (e.g. the address a refused host resolved to). */
  detail?: string;
  /** What becomes of the delivery: done, or retried after `retryInMs`. */
  next: { status: 'succeeded' | 'failed' } | { status: 'pending'; retryInMs: number };
}

/**
 * Records an attempt and moves the delivery on, if this worker still holds the claim (a worker
 * whose lease ran out and was re-claimed elsewhere only adds its attempt to the history).
 */
export async function recordAttempt(pg: Postgres, claim: Claim, o: Outcome): Promise<void> {
  await pg.tx(async (client) => {
    const retryMs = o.next.status === 'pending' ? o.next.retryInMs : 0;
    await client.query(
      `UPDATE webhook_deliveries
          SET status = $3, claim_token = NULL,
              next_attempt_at = CASE WHEN $3 = 'pending' THEN now() + $4 * interval '1 millisecond' ` +
        `ELSE next_attempt_at END,
              completed_at = CASE WHEN $3 = 'pending' THEN NULL ELSE now() END
        WHERE id = $1 AND claim_token = $2 AND status = 'delivering'`,
      [claim.id, claim.claim_token, o.next.status, retryMs],
    );
    // The delivery may be gone with its endpoint: then there is nothing to add the attempt to.
    await client.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, response_excerpt, error)
       SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = $1)
       ON CONFLICT DO NOTHING`,
      [claim.id, claim.attempts, o.startedAt, o.statusCode, o.latencyMs, o.excerpt, o.error],
    );
  });
  webhookAttempts.inc({ outcome: o.next.status === 'pending' ? 'retry' : o.next.status });
}

/** Fails a delivery whose claims kept dying before any outcome was recorded. */
export async function giveUp(pg: Postgres, claim: Claim): Promise<void> {
  await pg.query(
    `UPDATE webhook_deliveries SET status = 'failed', claim_token = NULL, completed_at = now()
      WHERE id = $1 AND claim_token = $2`,
    [claim.id, claim.claim_token],
  );
  webhookAttempts.inc({ outcome: 'failed' });
}

export interface DeliveryView {
  id: string;
  type: WebhookEventType;
  status: 'pending' | 'delivering' | 'succeeded' | 'failed';
  created_at: string;
  completed_at: string | null;
  next_attempt_at: string | null;
  attempt_count: number;
  attempts: {
    attempt: number;
    started_at: string;
    status_code: number | null;
    latency_ms: number;
    response_excerpt: string | null;
    error: string | null;
  }[];
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The endpoint's most recent deliveries, newest first, each with its attempts in order. */
export async function listDeliveries(pg: Postgres, endpointId: string, limit: number): Promise<DeliveryView[]> {
  const { rows } = await pg.query<{
    id: string;
    event_type: WebhookEventType;
    status: DeliveryView['status'];
    created_at: Date;
    completed_at: Date | null;
    next_attempt_at: Date | null;
    attempts: number;
    history: DeliveryView['attempts'];
  }>(
    `SELECT d.id, d.event_type, d.status, d.created_at, d.completed_at, d.next_attempt_at, d.attempts,
            coalesce((SELECT json_agg(json_build_object(
                        'attempt', a.attempt, 'started_at', a.started_at, 'status_code', a.status_code,
                        'latency_ms', a.latency_ms, 'response_excerpt', a.response_excerpt, 'error', a.error)
                      ORDER BY a.attempt)
                      FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS history
       FROM webhook_deliveries d WHERE d.endpoint_id = $1
      ORDER BY d.created_at DESC, d.id LIMIT $2`,
    [endpointId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    type: r.event_type,
    status: r.status,
    created_at: iso(r.created_at)!,
    completed_at: iso(r.completed_at),
    // Pending: the next try; delivering: when the claim lapses (a retry after a dead worker).
    next_attempt_at: r.status === 'pending' || r.status === 'delivering' ? iso(r.next_attempt_at) : null,
    attempt_count: r.attempts,
    attempts: r.history.map((a) => ({ ...a, started_at: new Date(a.started_at).toISOString() })),
  }));
}
