// The transactional outbox: an event becomes one delivery row per subscribed endpoint, written with
// the caller's client so it commits or rolls back with the change that caused it. Nothing is sent
// here; the worker (worker.ts) picks the rows up once they are committed.
import type { Queryable } from '../stores/postgres.ts';

export const EVENT_TYPES = ['opportunity.sent', 'digest.daily', 'webhook.test', 'alert.fired'] as const;
export type WebhookEventType = (typeof EVENT_TYPES)[number];

/** How an endpoint receives events: Standard Webhooks, or Slack incoming-webhook messages (slack.ts). */
export const FORMATS = ['standard', 'slack'] as const;
export type WebhookFormat = (typeof FORMATS)[number];
/** The events a Slack endpoint may subscribe to: the ones a person in a channel reads. */
export const SLACK_EVENTS: readonly WebhookEventType[] = ['alert.fired', 'digest.daily', 'webhook.test'];

type Db = Queryable;
/** A transaction's client or the pool wrapper (src/stores/postgres.ts). */

/** The body every endpoint receives (Standard Webhooks: `{type, timestamp, data}`). */
function body(type: WebhookEventType, data: unknown): string {
  return JSON.stringify({ type, timestamp: new Date().toISOString(), data });
}

/**
 * Queues `event` for every endpoint of the organization subscribed to its type, inside the
 * caller's transaction. Returns the number of deliveries queued (0 when nobody listens).
 */
export async function enqueueEvent(
  db: Db,
  event: { organizationId: string; type: WebhookEventType; data: unknown },
): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_type, body)
     SELECT gen_random_uuid(), e.id, $2, $3
       FROM webhook_endpoints e
      WHERE e.organization_id = $1 AND $2 = ANY (e.events)`,
    [event.organizationId, event.type, body(event.type, event.data)],
  );
  return rowCount ?? 0;
}

/** Queues a `webhook.test` event for one endpoint, whatever it subscribed to. Returns the delivery id. */
export async function enqueueTestEvent(db: Queryable, endpoint: { id: string; url: string }): Promise<string> {
  const data = { endpoint_id: endpoint.id, url: endpoint.url, message: 'Test event from Answerscope' };
  const { rows } = await db.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_type, body)
     VALUES (gen_random_uuid(), $1, 'webhook.test', $2) RETURNING id`,
    [endpoint.id, body('webhook.test', data)],
  );
  return rows[0].id;
}
