-- The first run (docs/app.md "First run"): while no person has a password, the address printed in
-- the server's log (or by `answerscope setup-link`) carries a one-time code. Only its SHA-256 is
-- stored, in the table's one row: a new code replaces the old, and using it deletes the row.
CREATE TABLE setup_codes (
  only_one   boolean PRIMARY KEY DEFAULT true CHECK (only_one),
  code_hash  text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- `Capture now` (docs/app.md): at most one per brand per UTC day; the row is the claim, so two
-- requests at once start one capture. finished_at and error say how the background run ended.
CREATE TABLE capture_requests (
  brand_id     uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  day          date NOT NULL,
  requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
  started_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz,
  error        text,
  PRIMARY KEY (brand_id, day)
);

-- The set-up checklist on a new organization's overview, until every item is done or it is dismissed.
ALTER TABLE organizations ADD COLUMN checklist_dismissed_at timestamptz;
