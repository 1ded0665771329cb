-- Site audits: each row is both the API resource and the durable job. A worker claims a `running`
-- row whose claim is missing or stale (claimed_at, claim_token, attempts), runs it and stores the
-- result; a row whose claims keep going stale is failed and its quota unit given back
-- (src/audits/runner.ts).
CREATE TABLE site_audits (
  id                uuid PRIMARY KEY,
  organization_id   uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  brand_id          uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  url               text NOT NULL,
  final_url         text,
  status            text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed', 'failed')),
  total_score       double precision,
  category_scores   jsonb,
  signals           jsonb,
  recommendations   jsonb,
  signals_evaluated integer,
  signals_total     integer,
  error             text,
  -- The quota month whose unit this audit used: a failure gives the unit back to that month.
  quota_period      date NOT NULL,
  attempts          integer NOT NULL DEFAULT 0,
  claimed_at        timestamptz,
  claim_token       uuid,
  created_at        timestamptz NOT NULL DEFAULT clock_timestamp(),
  completed_at      timestamptz
);
CREATE INDEX site_audits_brand ON site_audits (brand_id, created_at DESC);
-- The worker's queue: only running rows, oldest first.
CREATE INDEX site_audits_due ON site_audits (created_at) WHERE status = 'running';
