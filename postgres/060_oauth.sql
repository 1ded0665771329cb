-- OAuth 2.1 for the MCP endpoint (docs/api.md section 16, docs/oauth.md). A grant is one consent:
-- a person pasted an `ans_` key for a client; its authorization code and every token issued from
-- it hang off the grant, so revoking the grant (a replayed code or refresh token) kills them all.
-- Codes, tokens, client secrets and consent nonces are stored as their SHA-256 only.

-- Clients registered dynamically (RFC 7591). Public clients have no secret.
CREATE TABLE oauth_clients (
  id            text PRIMARY KEY,
  secret_hash   text,
  name          text,
  redirect_uris text[] NOT NULL,
  metadata      jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- An authorization request waiting on the consent page; the page's form carries the nonce.
-- key_id is set once the person has pasted a valid key (the page then shows the organization).
CREATE TABLE oauth_requests (
  nonce_hash     text PRIMARY KEY,
  client_id      text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  redirect_uri   text NOT NULL,
  state          text,
  code_challenge text NOT NULL,
  scope          text NOT NULL,
  resource       text,
  key_id         uuid REFERENCES api_keys (id) ON DELETE CASCADE,
  expires_at     timestamptz NOT NULL
);
CREATE INDEX oauth_requests_expiry ON oauth_requests (expires_at);

-- organization_id: the organization the key's owner belonged to at consent; a token works only
-- while the owner is still a member there, without having left in between (memberships.created_at).
CREATE TABLE oauth_grants (
  id              uuid PRIMARY KEY,
  client_id       text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  key_id          uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  scope           text NOT NULL,
  resource        text,
  code_hash       text NOT NULL UNIQUE,
  code_challenge  text NOT NULL,
  redirect_uri    text NOT NULL,
  code_expires_at timestamptz NOT NULL,
  code_used_at    timestamptz,
  revoked_at      timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_grants_key ON oauth_grants (key_id);

-- used_at: a refresh token once exchanged (rotation); presenting it again revokes its grant.
CREATE TABLE oauth_tokens (
  token_hash text PRIMARY KEY,
  grant_id   uuid NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  kind       text NOT NULL CHECK (kind IN ('access', 'refresh')),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
