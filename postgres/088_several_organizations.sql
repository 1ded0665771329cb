-- A person may belong to several organizations, with a role in each (docs/app.md, "People,
-- organizations, keys and grants"). Keys, sessions and invitations say which organization they
-- are for; everything that acted on the person's one organization keeps acting on it.

-- One row per (person, organization) instead of one per person.
ALTER TABLE memberships DROP CONSTRAINT memberships_pkey;
ALTER TABLE memberships ADD PRIMARY KEY (user_id, organization_id);

-- The organization a person's next sign-in opens: the one they used last.
ALTER TABLE users ADD COLUMN last_organization_id uuid REFERENCES organizations (id) ON DELETE SET NULL;
UPDATE users u SET last_organization_id = m.organization_id FROM memberships m WHERE m.user_id = u.id;

-- A key acts on its organization only, while its owner is a member of it. A key whose owner belongs
-- to no organization today acts on none, and stays so.
ALTER TABLE api_keys ADD COLUMN organization_id uuid REFERENCES organizations (id) ON DELETE CASCADE;
UPDATE api_keys k SET organization_id = m.organization_id FROM memberships m WHERE m.user_id = k.user_id;
CREATE INDEX api_keys_user_organization ON api_keys (user_id, organization_id);

-- A session's current organization (switched in the app), and what Settings > Account lists of it.
-- A session also ends 30 days after sign-in (created_at), whatever its use.
ALTER TABLE sessions ADD COLUMN organization_id uuid REFERENCES organizations (id) ON DELETE SET NULL;
ALTER TABLE sessions ADD COLUMN address text;
ALTER TABLE sessions ADD COLUMN user_agent text;
UPDATE sessions s SET organization_id = m.organization_id FROM memberships m WHERE m.user_id = s.user_id;

-- Invitations are listed and revoked by id; the link's token stays known only to its holder.
ALTER TABLE invitations ADD COLUMN id uuid;
UPDATE invitations SET id = gen_random_uuid();
ALTER TABLE invitations ALTER COLUMN id SET NOT NULL;
ALTER TABLE invitations ADD CONSTRAINT invitations_id UNIQUE (id);
ALTER TABLE invitations ADD COLUMN revoked_at timestamptz;

-- The per-account cap counts an email's failures from every address over an hour.
CREATE INDEX sign_in_failures_email ON sign_in_failures (email, failed_at);
