-- People sign in to the app (docs/app.md): passwords, roles, sessions, invitations, the throttle of
-- failed sign-ins, and OAuth grants a signed-in person gives without a key.

-- scrypt hash in the PHC-like form `scrypt$N$r$p$salt$hash` (tenancy/passwords.ts); NULL: cannot sign in.
ALTER TABLE users ADD COLUMN password_hash text;

ALTER TABLE memberships ADD COLUMN role text NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member'));
-- Each organization's first member (the earliest to join) becomes its admin.
UPDATE memberships SET role = 'admin'
 WHERE user_id IN (SELECT DISTINCT ON (organization_id) user_id FROM memberships
                    ORDER BY organization_id, created_at, user_id);

-- Only the SHA-256 of the cookie's token is stored. A session is idle-expired from last_seen_at.
CREATE TABLE sessions (
  token_hash   text PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_last_seen ON sessions (last_seen_at);

-- One row per failed sign-in, by the email as typed (lower-cased) and the client address.
CREATE TABLE sign_in_failures (
  email      text NOT NULL,
  address    text NOT NULL,
  failed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_failures_key ON sign_in_failures (email, address, failed_at);
CREATE INDEX sign_in_failures_at ON sign_in_failures (failed_at);

-- An invitation's link holds a token whose SHA-256 is stored; good once and until expires_at.
CREATE TABLE invitations (
  token_hash      text PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  email           text NOT NULL CHECK (email = lower(email)),
  role            text NOT NULL CHECK (role IN ('admin', 'member')),
  invited_by      uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz
);
CREATE INDEX invitations_organization ON invitations (organization_id);

-- A grant is a person's: given with a key (key_id set: it dies with the key) or by a signed-in
-- person on the consent page (key_id NULL). Either way it dies when the person leaves.
ALTER TABLE oauth_grants ADD COLUMN user_id uuid REFERENCES users (id) ON DELETE CASCADE;
UPDATE oauth_grants g SET user_id = k.user_id FROM api_keys k WHERE k.id = g.key_id;
ALTER TABLE oauth_grants ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE oauth_grants ALTER COLUMN key_id DROP NOT NULL;
CREATE INDEX oauth_grants_user ON oauth_grants (user_id);
