-- The first run (docs/app.md "First run"): while no person has a password, the address printed in
-- the server's log (or by `answerscope setup-link`) carries a one-time code. Only its SHA-256 is
-- stored, in the table's one row: a new code replaces the old, and using it deletes the row.
CREATE TABLE setup_codes (
  only_one   boolean PRIMARY KEY DEFAULT true CHECK (only_one),
  code_hash  text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
