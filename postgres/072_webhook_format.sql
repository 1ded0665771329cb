-- A webhook endpoint's format (docs/api.md section 21, docs/webhooks.md): `standard` (Standard
-- Webhooks: signed `{type, timestamp, data}`) or `slack` (a Slack incoming-webhook message, unsigned,
-- so such an endpoint has no secret).
ALTER TABLE webhook_endpoints
  ADD COLUMN format text NOT NULL DEFAULT 'standard' CHECK (format IN ('standard', 'slack')),
  ALTER COLUMN secret DROP NOT NULL;
