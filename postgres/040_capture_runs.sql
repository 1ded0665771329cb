-- One row per answer the daily capture owes: (prompt, platform, region, day, sample). The row is
-- both the coverage record operators read and the durable claim that makes the job idempotent and
-- crash-safe (src/tracking/capture-runs.ts):
--   pending         planned, not tried yet
--   running         claimed by a worker (claim_token); a stale claim (claimed_at long ago) is
--                   taken over by the next run: that worker died
--   succeeded       captured and ingested; answer_id is the stored answer (the same id as the row,
--                   so a re-capture replaces the answer instead of adding one)
--   failed          the capture failed (error_kind, error); nothing was ingested, so a failure never
--                   counts as "not visible"; a later run of the same day tries again
--   no_answer       the platform showed no AI answer for the query (Google without an AI Overview);
--                   nothing is ingested
--   not_configured  the platform's provider key is unset; tried again once it is set
CREATE TABLE capture_runs (
  id              uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  brand_id        uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  prompt_id       uuid NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
  platform        text NOT NULL,
  region          text NOT NULL,
  day             date NOT NULL,
  sample          integer NOT NULL CHECK (sample >= 0),
  status          text NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'running', 'succeeded', 'failed', 'no_answer', 'not_configured')),
  -- Who answered: a provider (openai, perplexity, gemini, anthropic, xai, serpapi) or `simulated`.
  engine          text,
  model           text,
  attempts        integer NOT NULL DEFAULT 0,
  error_kind      text,
  error           text,
  answer_id       uuid,
  claim_token     uuid,
  claimed_at      timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz,
  UNIQUE (prompt_id, platform, region, day, sample)
);
CREATE INDEX capture_runs_brand_day ON capture_runs (brand_id, day);
-- Operators look for what is failing or stuck.
CREATE INDEX capture_runs_open ON capture_runs (day, status) WHERE status <> 'succeeded';
