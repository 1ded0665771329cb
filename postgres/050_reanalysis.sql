-- History follows the workspace (docs/api.md section 10). Every stored answer's analysis rows in
-- ClickHouse carry a generation; a brand's figures are read from its live one only. A re-analysis
-- writes the next generation from the stored answers and then switches the brand to it in one
-- UPDATE, so a read sees the old analysis or the new one, never a mix.
ALTER TABLE brands ADD COLUMN analysis_generation integer NOT NULL DEFAULT 0;

-- One row per brand: its last or pending re-analysis, as operators read it.
--   queued    a change of the brand's entities asked for one; the worker takes it soon
--   running   claimed (claimed_at); target_generation is being written; a stale claim was a crash
--             and is taken over (the partial generation is deleted first)
--   done      the brand reads target_generation now
--   failed    it stopped with `error`; the brand still reads its previous generation
-- A change while it runs sets requested_again, so it runs once more after.
CREATE TABLE reanalyses (
  brand_id          uuid PRIMARY KEY REFERENCES brands (id) ON DELETE CASCADE,
  status            text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
  reason            text NOT NULL,
  requested_at      timestamptz NOT NULL DEFAULT now(),
  requested_again   boolean NOT NULL DEFAULT false,
  claimed_at        timestamptz,
  target_generation integer,
  answers_total     integer,
  answers_done      integer NOT NULL DEFAULT 0,
  started_at        timestamptz,
  finished_at       timestamptz,
  error             text
);
CREATE INDEX reanalyses_queued ON reanalyses (requested_at) WHERE status = 'queued';
