-- Organizations, users, memberships and API keys: who may read what.

CREATE TABLE organizations (
  id            uuid PRIMARY KEY,
  name          text NOT NULL UNIQUE,
  plan          text NOT NULL CHECK (plan IN ('starter', 'growth', 'business')),
  -- Per-organization overrides of the plan's monthly quotas; NULL means the plan's default.
  quota_briefs  integer CHECK (quota_briefs >= -1),
  quota_drafts  integer CHECK (quota_drafts >= -1),
  quota_audits  integer CHECK (quota_audits >= -1),
  trial_ends_at timestamptz NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id         uuid PRIMARY KEY,
  email      text NOT NULL UNIQUE CHECK (email = lower(email)),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A user belongs to at most one organization: the primary key is the user.
CREATE TABLE memberships (
  user_id         uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX memberships_organization ON memberships (organization_id);

-- Only the SHA-256 of a key is stored; the prefix is for display ("ans_AbC1...").
CREATE TABLE api_keys (
  id           uuid PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key_hash     text NOT NULL UNIQUE,
  prefix       text NOT NULL,
  name         text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at   timestamptz
);
CREATE INDEX api_keys_user ON api_keys (user_id);
