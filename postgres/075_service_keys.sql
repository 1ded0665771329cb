-- Keys the service makes for itself, once, and every instance then shares (src/stores/service-keys.ts):
-- `cursor` signs paging cursors (src/cursor.ts), so a cursor one instance issued pages on another.
-- Deleting a row makes a new key at the next start; what the old one signed is refused from then on.
CREATE TABLE service_keys (
  name       text PRIMARY KEY,
  key        bytea NOT NULL CHECK (length(key) >= 32),
  created_at timestamptz NOT NULL DEFAULT now()
);
