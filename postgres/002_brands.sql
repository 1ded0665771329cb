-- Brands and what is tracked for them: competitors, topics and prompts.
-- created_at uses clock_timestamp(): rows made in one transaction (an apply) keep their order.

CREATE TABLE brands (
  id              uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name            text NOT NULL,
  slug            text NOT NULL,
  industry        text NOT NULL DEFAULT '',
  region          text NOT NULL DEFAULT '',
  domains         text[] NOT NULL DEFAULT '{}',
  aliases         text[] NOT NULL DEFAULT '{}',
  -- Names the brand in the AI-traffic beacon (`data-site`); public, so not a secret.
  tracking_id     text NOT NULL UNIQUE,
  -- Bumped by every ingest into the brand: the result cache keys on it.
  data_version    bigint NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (organization_id, slug)
);
CREATE INDEX brands_organization ON brands (organization_id, created_at DESC);

CREATE TABLE competitors (
  id         uuid PRIMARY KEY,
  brand_id   uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  name       text NOT NULL,
  domains    text[] NOT NULL DEFAULT '{}',
  aliases    text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (brand_id, name)
);

CREATE TABLE topics (
  id         uuid PRIMARY KEY,
  brand_id   uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  name       text NOT NULL,
  is_active  boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (brand_id, name)
);

CREATE TABLE prompts (
  id         uuid PRIMARY KEY,
  brand_id   uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  topic_id   uuid REFERENCES topics (id) ON DELETE SET NULL,
  text       text NOT NULL,
  platforms  text[] NOT NULL DEFAULT '{}',
  models     text[] NOT NULL DEFAULT '{}',
  regions    text[] NOT NULL DEFAULT '{}',
  is_active  boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (brand_id, text)
);
CREATE INDEX prompts_topic ON prompts (topic_id);
