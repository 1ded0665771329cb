// The migration to memberships per organization (postgres/088_several_organizations.sql) on data
// made under the rule before it (a person in at most one organization): every key, session and
// OAuth grant keeps acting on the organization it acted on, and a key whose owner belonged to none
// still acts on none. Run on an in-process PGlite, migration files applied one by one.
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { PGlite } from '@electric-sql/pglite';

const DIR = 'postgres';
const MIGRATION = '088_several_organizations.sql';

test('keys, sessions and grants keep their organization across the migration', async (t) => {
  const db = new PGlite();
  t.teardown(() => db.close());
  const files = fs
    .readdirSync(DIR)
    .filter((f) => /^\d+_[\w-]+\.sql$/.test(f))
    .sort();
  for (const f of files.filter((f) => f < MIGRATION)) await db.exec(fs.readFileSync(path.join(DIR, f), 'utf8'));

  const org = '11111111-1111-4111-8111-111111111111';
  const ana = '22222222-2222-4222-8222-222222222222';
  const lone = '33333333-3333-4333-8333-333333333333';
  await db.exec(`
    INSERT INTO organizations (id, name, plan, trial_ends_at) VALUES ('${org}', 'Acme', 'growth', now());
    INSERT INTO users (id, email) VALUES ('${ana}', 'ana@acme.example'), ('${lone}', 'lone@acme.example');
    INSERT INTO memberships (user_id, organization_id, role) VALUES ('${ana}', '${org}', 'admin');
    INSERT INTO api_keys (id, user_id, key_hash, prefix) VALUES
      ('44444444-4444-4444-8444-444444444444', '${ana}', 'h1', 'ans_x'),
      ('55555555-5555-4555-8555-555555555555', '${lone}', 'h2', 'ans_y');
    INSERT INTO sessions (token_hash, user_id) VALUES ('s1', '${ana}');
    INSERT INTO invitations (token_hash, organization_id, email, role, invited_by, expires_at)
      VALUES ('i1', '${org}', 'new@acme.example', 'member', '${ana}', now() + interval '1 day');
    INSERT INTO oauth_clients (id, name, redirect_uris, metadata)
      VALUES ('client-1', 'Assistant', ARRAY['http://127.0.0.1:9/callback'], '{}');
    -- One grant made with a pasted key, one made signed in (no key).
    INSERT INTO oauth_grants (id, client_id, key_id, user_id, organization_id, scope, code_hash, code_challenge,
                              redirect_uri, code_expires_at)
      VALUES ('77777777-7777-4777-8777-777777777777', 'client-1', '44444444-4444-4444-8444-444444444444', '${ana}',
              '${org}', 'mcp', 'c1', 'x', 'http://127.0.0.1:9/callback', now()),
             ('88888888-8888-4888-8888-888888888888', 'client-1', NULL, '${ana}',
              '${org}', 'mcp', 'c2', 'x', 'http://127.0.0.1:9/callback', now());
  `);
  await db.exec(fs.readFileSync(path.join(DIR, MIGRATION), 'utf8'));

  const keys = await db.query<{ prefix: string; organization_id: string | null }>(
    'SELECT prefix, organization_id FROM api_keys ORDER BY prefix',
  );
  t.deepEqual(keys.rows, [
    { prefix: 'ans_x', organization_id: org },
    { prefix: 'ans_y', organization_id: null },
  ]);
  const sessions = await db.query<{ organization_id: string }>('SELECT organization_id FROM sessions');
  t.deepEqual(sessions.rows, [{ organization_id: org }]);
  const users = await db.query<{ email: string; last_organization_id: string | null }>(
    'SELECT email, last_organization_id FROM users ORDER BY email',
  );
  t.deepEqual(users.rows, [
    { email: 'ana@acme.example', last_organization_id: org },
    { email: 'lone@acme.example', last_organization_id: null },
  ]);
  const invitations = await db.query<{ id: string | null }>('SELECT id FROM invitations');
  t.truthy(invitations.rows[0].id);
  // And a second membership is now possible.
  await db.exec(`INSERT INTO organizations (id, name, plan, trial_ends_at)
                 VALUES ('66666666-6666-4666-8666-666666666666', 'Beta', 'starter', now());
                 INSERT INTO memberships (user_id, organization_id) VALUES ('${ana}', '66666666-6666-4666-8666-666666666666');`);
  t.is((await db.query('SELECT 1 FROM memberships WHERE user_id = $1', [ana])).rows.length, 2);
  // The grants stay on the organization they were made for, whatever else the person joins.
  const grants = await db.query<{ id: string; organization_id: string; user_id: string; revoked_at: Date | null }>(
    'SELECT id, organization_id, user_id, revoked_at FROM oauth_grants ORDER BY id',
  );
  t.deepEqual(grants.rows, [
    { id: '77777777-7777-4777-8777-777777777777', organization_id: org, user_id: ana, revoked_at: null },
    { id: '88888888-8888-4888-8888-888888888888', organization_id: org, user_id: ana, revoked_at: null },
  ]);
});
