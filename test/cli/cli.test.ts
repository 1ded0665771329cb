// The command line against a running server on the same DATA_DIR: commands reach the server's
// stores through its admin channel, and what they change applies to the next API request.
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { get, seedTenant, startTestServer, uniq, type TestServer } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

function workspaceFile(name: string, email: string) {
  const file = path.join(server.dataDir, `${uniq('ws')}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      organizations: [
        {
          name,
          plan: 'starter',
          quotas: { briefs: 3 },
          members: [{ email }],
          brands: [
            {
              name: 'Café Noir',
              slug: 'cafe-noir',
              industry: 'Coffee',
              region: 'FR',
              domains: ['cafenoir.example'],
              aliases: ['Cafe Noir'],
              competitors: [
                { name: 'Brûlerie', domains: ['brulerie.example'] },
                { name: 'Globex', domains: [] },
              ],
              topics: [
                {
                  name: 'Espresso',
                  prompts: [{ text: 'best espresso beans', platforms: ['chatgpt'], regions: ['FR', 'US'] }],
                },
                { name: 'Grinders', prompts: [{ text: 'best burr grinder', platforms: ['perplexity', 'gemini'] }] },
              ],
            },
          ],
        },
      ],
    }),
  );
  return file;
}

test('apply is idempotent: the same file twice prints the same ids and changes nothing', async (t) => {
  const email = `${uniq('u')}@example.test`;
  const file = workspaceFile(uniq('Org'), email);
  const first = await cli(['apply', file], server.env);
  t.is(first.code, 0, first.stderr);
  const second = await cli(['apply', file], server.env);
  t.is(second.code, 0, second.stderr);
  t.deepEqual(second.json, first.json);
  const org = first.json.organizations[0];
  t.is(org.members[0].email, email);
  const brand = org.brands[0];
  t.deepEqual(
    brand.competitors.map((c: any) => c.name),
    ['Brûlerie', 'Globex'],
  );
  t.deepEqual(
    brand.topics.map((x: any) => [x.name, x.prompts.map((p: any) => p.text)]),
    [
      ['Espresso', ['best espresso beans']],
      ['Grinders', ['best burr grinder']],
    ],
  );
  const counts = await server.stores.pg.query(
    `SELECT (SELECT count(*) FROM brands WHERE organization_id = $1) AS brands,
            (SELECT count(*) FROM competitors c JOIN brands b ON b.id = c.brand_id WHERE b.organization_id = $1) AS competitors,
            (SELECT count(*) FROM prompts p JOIN brands b ON b.id = p.brand_id WHERE b.organization_id = $1) AS prompts`,
    [org.id],
  );
  t.deepEqual(counts.rows[0], { brands: 1, competitors: 2, prompts: 2 });
});

test('keys create and revoke from the command line while the server runs', async (t) => {
  const tenant = await seedTenant(server);
  const created = await cli(['keys', 'create', '--email', tenant.email, '--name', 'reporting'], server.env);
  t.is(created.code, 0, created.stderr);
  t.deepEqual(Object.keys(created.json).sort(), ['id', 'key', 'organizationId', 'userId']);
  t.true(created.json.key.startsWith('ans_'));
  t.is(created.json.organizationId, tenant.organizationId);
  const who = await get(server, '/api/v1/whoami', created.json.key);
  t.is(who.status, 200);
  t.is(who.body.email, tenant.email);

  const revoked = await cli(['keys', 'revoke', created.json.id], server.env);
  t.is(revoked.code, 0, revoked.stderr);
  t.is(revoked.json.id, created.json.id);
  t.false(Number.isNaN(Date.parse(revoked.json.revoked_at)));
  const after = await get(server, '/api/v1/whoami', created.json.key);
  t.is(after.status, 401);
  t.deepEqual(after.body, { error: 'Invalid API key' });
  // The tenant's other key is untouched.
  t.is((await get(server, '/api/v1/whoami', tenant.key)).status, 200);
});

test('members remove and add from the command line take effect on the next request; keys name their organization', async (t) => {
  const a = await seedTenant(server);
  const b = await seedTenant(server);
  const removed = await cli(['members', 'remove', '--email', a.email, '--org', a.organizationId], server.env);
  t.is(removed.code, 0, removed.stderr);
  t.deepEqual(removed.json, {
    userId: (await get(server, '/api/v1/whoami', a.key)).body.userId,
    organizationId: a.organizationId,
  });
  t.deepEqual((await get(server, '/api/v1/brands', a.key)).body, []);

  const added = await cli(['members', 'add', '--email', a.email, '--org', b.organizationId], server.env);
  t.is(added.code, 0, added.stderr);
  t.is(added.json.organizationId, b.organizationId);
  // The old key stays with the organization it was made in; a key made now acts on the new one.
  t.deepEqual((await get(server, '/api/v1/brands', a.key)).body, []);
  const key = await cli(['keys', 'create', '--email', a.email], server.env);
  t.is(key.code, 0, key.stderr);
  t.is(key.json.organizationId, b.organizationId);
  t.deepEqual(
    (await get(server, '/api/v1/brands', key.json.key)).body.map((x: any) => x.id),
    [b.brandId],
  );
  // In two organizations, a key must say which; adding never removed the other membership.
  t.is((await cli(['members', 'add', '--email', a.email, '--org', a.organizationId], server.env)).code, 0);
  const ambiguous = await cli(['keys', 'create', '--email', a.email], server.env);
  t.is(ambiguous.code, 1);
  t.regex(ambiguous.stderr, /belongs to 2 organizations: name one with --org ORG_ID/);
  const named = await cli(['keys', 'create', '--email', a.email, '--org', a.organizationId], server.env);
  t.deepEqual(
    (await get(server, '/api/v1/brands', named.json.key)).body.map((x: any) => x.id),
    [a.brandId],
  );
  t.deepEqual(
    (await get(server, '/api/v1/brands', key.json.key)).body.map((x: any) => x.id),
    [b.brandId],
  );
});

test('failures print one line on stderr, nothing on stdout, and exit non-zero', async (t) => {
  const cases: [string[], RegExp][] = [
    [['keys', 'create', '--email', 'nobody@example.test'], /^No user with email nobody@example\.test/],
    [['keys', 'revoke', 'not-a-uuid'], /^ID must be a UUID/],
    [['keys', 'revoke', '00000000-0000-4000-8000-000000000000'], /^No API key with id/],
    [
      ['members', 'remove', '--email', 'x@example.test', '--org', '00000000-0000-4000-8000-000000000000'],
      /is not a member/,
    ],
    [['apply', path.join(server.dataDir, 'missing.json')], /^Cannot read .*missing\.json: ENOENT/],
    [['frobnicate'], /^Unknown command: frobnicate/],
    [['jobs', 'run', 'no-such-job'], /^Unknown job no-such-job/],
  ];
  for (const [args, pattern] of cases) {
    const r = await cli(args, server.env);
    t.not(r.code, 0, args.join(' '));
    t.is(r.stdout, '', args.join(' '));
    t.regex(r.stderr, pattern, args.join(' '));
    t.is(r.stderr.trim().split('\n').length, 1, args.join(' '));
  }
});

test('a workspace file with an error names the place and writes nothing', async (t) => {
  const name = uniq('Org');
  const file = path.join(server.dataDir, `${uniq('bad')}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      organizations: [
        {
          name,
          plan: 'growth',
          brands: [
            { name: 'Ok', slug: 'ok' },
            { name: 'Bad', slug: 'bad', topics: [{ name: 'T', prompts: [{ text: 'q', platforms: ['altavista'] }] }] },
          ],
        },
      ],
    }),
  );
  const r = await cli(['apply', file], server.env);
  t.not(r.code, 0);
  t.regex(r.stderr, /organizations\.0\.brands\.1\.topics\.0\.prompts\.0\.platforms\.0/);
  const { rowCount } = await server.stores.pg.query('SELECT 1 FROM organizations WHERE name = $1', [name]);
  t.is(rowCount, 0);
});

test('a quota past its integer column names the field instead of failing in Postgres', async (t) => {
  const file = path.join(server.dataDir, `${uniq('quota')}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({ organizations: [{ name: uniq('Org'), plan: 'growth', quotas: { briefs: 2 ** 40 } }] }),
  );
  const r = await cli(['apply', file], server.env);
  t.not(r.code, 0);
  t.regex(r.stderr, /organizations\.0\.quotas\.briefs.*must be an integer from -1 to 2147483647/);
});
