-- The set-up checklist's "connect an assistant" (docs/app.md "A checklist"): when an assistant first
-- spoke to the organization over MCP (/api/mcp, with an API key or an OAuth token). An OAuth grant in
-- force counts too, read from oauth_grants; an API key used only on REST does not.
ALTER TABLE organizations ADD COLUMN assistant_connected_at timestamptz;
