-- Webhooks: endpoints registered per organization, and the outbox of deliveries to them.
-- A delivery row is written in the same transaction as the change that caused it
-- (src/webhooks/outbox.ts) and is the durable job of the delivery worker (src/webhooks/worker.ts).
CREATE TABLE webhook_endpoints (
  id              uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  url             text NOT NULL,
  events          text[] NOT NULL,
  -- `whsec_...`, or `enc:v1:...` (AES-256-GCM) when WEBHOOK_SECRET_KEY is set (src/webhooks/signing.ts).
  -- Returned once, at registration; never listed or logged.
  secret          text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX webhook_endpoints_organization ON webhook_endpoints (organization_id, created_at);

-- One row per (event, endpoint). `id` is the `webhook-id` header and `body` the exact bytes signed:
-- both stay the same on every attempt, so receivers can drop a repeated delivery.
-- `next_attempt_at` is when the row is due: for `pending` the next try, for `delivering` the end of
-- the claiming worker's lease (a worker that died mid-send leaves the row to be claimed again).
CREATE TABLE webhook_deliveries (
  id              uuid PRIMARY KEY,
  endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_type      text NOT NULL,
  body            text NOT NULL,
  status          text NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'delivering', 'succeeded', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claim_token     uuid,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  completed_at    timestamptz
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
  WHERE status IN ('pending', 'delivering');
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC);

-- What each try got back, for customers debugging their receivers.
CREATE TABLE webhook_attempts (
  delivery_id      uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt          integer NOT NULL,
  started_at       timestamptz NOT NULL,
  status_code      integer,
  latency_ms       integer NOT NULL,
  response_excerpt text,
  error            text,
  PRIMARY KEY (delivery_id, attempt)
);

-- One digest per brand and UTC day: the unique key makes the daily-digest job idempotent.
CREATE TABLE webhook_digests (
  brand_id   uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  day        date NOT NULL,
  deliveries integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (brand_id, day)
);
