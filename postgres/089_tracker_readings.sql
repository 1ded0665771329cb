-- What another tracker said of each answer imported from it (`answerscope import-tracker`,
-- docs/metrics.md "Agreement with another tracker"), beside what Answerscope's analysis said of
-- the same answer when it was imported: the agreement report compares the two. One row per
-- imported answer (its id is derived from the line, so an import run twice updates, never adds).
-- A reading the file did not map is null on the tool's side.
CREATE TABLE tracker_readings (
  answer_id uuid PRIMARY KEY,
  brand_id uuid NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
  source text NOT NULL,
  line integer NOT NULL,
  prompt_id uuid NOT NULL,
  platform text NOT NULL,
  collected_at timestamptz NOT NULL,
  tool_mentioned boolean,
  tool_position integer,
  tool_sentiment text,
  tool_cited boolean,
  own_mentioned boolean NOT NULL,
  own_position integer,
  own_sentiment text,
  own_cited boolean NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tracker_readings_brand_source ON tracker_readings (brand_id, source, collected_at, answer_id);
