-- One row per (job, slot, scope): the unique key makes a scheduled tick run on exactly one instance
-- and makes a job idempotent per slot (a day, for daily jobs).
CREATE TABLE job_runs (
  job         text NOT NULL,
  slot        text NOT NULL,
  scope       text NOT NULL,   -- a brand id, or 'all'
  status      text NOT NULL CHECK (status IN ('running', 'succeeded', 'failed')),
  started_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  result      jsonb,
  error       text,
  PRIMARY KEY (job, slot, scope)
);
