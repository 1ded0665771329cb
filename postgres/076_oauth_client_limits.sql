-- Bounds on dynamic client registration (docs/oauth.md): registrations are counted per client
-- address (stored as its SHA-256, never the address), and a client never used expires.
ALTER TABLE oauth_clients ADD COLUMN registered_from text;
CREATE INDEX oauth_clients_registered_from ON oauth_clients (registered_from, created_at);
CREATE INDEX oauth_clients_created ON oauth_clients (created_at);
CREATE INDEX oauth_grants_client ON oauth_grants (client_id);
