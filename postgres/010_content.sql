-- Content: topic suggestions, keyword volumes and prompt volume analyses, content opportunities
-- with their saved brief and draft. The jobs that fill these tables are in jobs/ (suggest-topics,
-- analyze-volumes, generate-opportunities); docs/content.md explains the rules.

-- A suggestion is never proposed twice for a brand: the unique key is the normalised name, and
-- rows are kept after they are accepted (`added`) or `dismissed`.
CREATE TABLE topic_suggestions (
  id              uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  brand_id        uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  name            text NOT NULL,
  normalized_name text NOT NULL,
  reason          text NOT NULL,
  -- Which signal proposed it: prompts, citations or competitors (docs/content.md).
  source          text NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'added', 'dismissed')),
  topic_id        uuid REFERENCES topics (id) ON DELETE SET NULL,
  generated_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
  processed_at    timestamptz,
  UNIQUE (brand_id, normalized_name)
);
CREATE INDEX topic_suggestions_pending ON topic_suggestions (brand_id, generated_at DESC) WHERE status = 'pending';

-- Keyword search volumes imported with `answerscope volumes import` (average monthly Google
-- searches). Not tenant data: one table serves every brand. `region` '' means all regions.
CREATE TABLE keyword_volumes (
  keyword           text NOT NULL,
  region            text NOT NULL DEFAULT '',
  volume            integer NOT NULL CHECK (volume >= 0),
  competition_index integer CHECK (competition_index BETWEEN 0 AND 100),
  imported_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (keyword, region)
);

-- One analysis per prompt (analyze-volumes). `digest` is a hash of every derived value, so a re-run
-- on unchanged data writes nothing and `fetched_at` keeps the time of the last real change.
CREATE TABLE prompt_volumes (
  prompt_id            uuid PRIMARY KEY REFERENCES prompts (id) ON DELETE CASCADE,
  brand_id             uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  intent               text NOT NULL,
  keywords             text[] NOT NULL,
  google_volumes       jsonb NOT NULL,
  total_google_volume  integer NOT NULL,
  est_ai_volume        integer NOT NULL,
  ai_volume_multiplier double precision NOT NULL,
  competition_index    integer,
  competition          text CHECK (competition IN ('low', 'medium', 'high')),
  digest               text NOT NULL,
  fetched_at           timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX prompt_volumes_brand ON prompt_volumes (brand_id, est_ai_volume DESC);

CREATE TABLE content_opportunities (
  id                 uuid PRIMARY KEY,
  organization_id    uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  brand_id           uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  prompt_id          uuid NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
  type               text NOT NULL CHECK (type IN ('owned', 'earned')),
  title              text NOT NULL,
  description        text NOT NULL,
  impact             text NOT NULL CHECK (impact IN ('high', 'medium', 'low')),
  opportunity_score  double precision NOT NULL CHECK (opportunity_score BETWEEN 0 AND 100),
  status             text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'sent', 'in_progress', 'done', 'dismissed')),
  source_data        jsonb NOT NULL,
  brief              jsonb,
  brief_generated_at timestamptz,
  draft              jsonb,
  draft_generated_at timestamptz,
  created_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at         timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX content_opportunities_brand ON content_opportunities (brand_id, opportunity_score DESC);
CREATE INDEX content_opportunities_prompt ON content_opportunities (prompt_id, type);
