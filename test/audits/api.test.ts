// The site-audit API: every error message of docs/api.md for audits, tenancy, the quota (including
// concurrent starts at the edge), the list, the state machine and restart recovery.
// test-process: shared
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { call, get, seedTenant, startTestServer, type TestServer, type Tenant } from '../helpers/server.ts';
import { startSite, type TestSite } from './fixtures/site.ts';
import { quota, startAudit, waitForAudit } from './helpers.ts';
import { completeAudit, failAudit } from '../../src/audits/store.ts';
import { quotaPeriod } from '../../src/tenancy/quotas.ts';

let server: TestServer;
let site: TestSite;
const PAGE =
  '<!doctype html><html lang="en"><head><title>A small test page</title></head><body><h1>Hello</h1><p>Some text.</p></body></html>';

test.before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_URLS: '1', AUDIT_TIMEOUT_MS: '3000' });
  site = await startSite({ '/': { body: PAGE }, '/gone': { status: 410, body: 'gone' } });
});

test.after.always(async () => {
  await site?.close();
  await server?.stop();
});

const post = (tenant: Tenant, body: unknown) => call(server, 'POST', '/api/mcp/site-audits', { key: tenant.key, body });
const setOverride = (tenant: Tenant, n: number | null) =>
  server.stores.pg.query('UPDATE organizations SET quota_audits = $2 WHERE id = $1', [tenant.organizationId, n]);
const setUsed = (tenant: Tenant, used: number) =>
  server.stores.pg.query(
    `INSERT INTO quota_usage (organization_id, kind, period, used) VALUES ($1, 'audits', $2, $3)
     ON CONFLICT (organization_id, kind, period) DO UPDATE SET used = $3`,
    [tenant.organizationId, quotaPeriod(), used],
  );
const auditCount = async (tenant: Tenant) =>
  Number(
    (await server.stores.pg.query('SELECT count(*) AS n FROM site_audits WHERE brand_id = $1', [tenant.brandId]))
      .rows[0].n,
  );

test('POST validation errors name the parameter, and use no quota', async (t) => {
  const tenant = await seedTenant(server, undefined, 'starter');
  const cases: [unknown, string][] = [
    [{}, 'brand_id is required'],
    [{ url: site.url('/') }, 'brand_id is required'],
    [{ brand_id: tenant.brandId }, 'url is required'],
    [{ brand_id: tenant.brandId, url: '' }, 'url is required'],
    [{ brand_id: tenant.brandId, url: '   ' }, 'url is required'],
    [{ brand_id: tenant.brandId, url: 'ftp://example.com/file' }, 'url must be an http(s) URL'],
    [{ brand_id: tenant.brandId, url: 'javascript:alert(1)' }, 'url must be an http(s) URL'],
    [{ brand_id: tenant.brandId, url: 'example.com/page' }, 'url must be an http(s) URL'],
    [{ brand_id: tenant.brandId, url: 42 }, 'url must be a string'],
    [
      { brand_id: tenant.brandId, url: `https://example.com/${'a'.repeat(2100)}` },
      'url must be at most 2048 characters',
    ],
    [
      { brand_id: tenant.brandId, url: 'https://user:secret@example.com/' },
      'url must not contain a user name or password',
    ],
    [{ brand_id: 'acme', url: site.url('/') }, 'brand_id must be a UUID'],
  ];
  for (const [body, message] of cases) {
    const res = await post(tenant, body);
    t.is(res.status, 400, JSON.stringify(body));
    t.deepEqual(res.body, { error: message });
  }
  t.deepEqual((await call(server, 'POST', '/api/mcp/site-audits', { key: tenant.key, body: '{"brand_id":' })).body, {
    error: 'Malformed JSON body',
  });
  t.deepEqual(await quota(server, tenant), { used: 0, limit: 100, remaining: 100 });
  t.is(await auditCount(tenant), 0);
});

test("another organization's brand and audit do not exist", async (t) => {
  const mine = await seedTenant(server);
  const theirs = await seedTenant(server);
  const foreignBrand = await post(mine, { brand_id: theirs.brandId, url: site.url('/') });
  t.is(foreignBrand.status, 404);
  t.deepEqual(foreignBrand.body, { error: 'Brand not found' });
  t.deepEqual((await get(server, `/api/mcp/site-audits?brand_id=${theirs.brandId}`, mine.key)).body, {
    error: 'Brand not found',
  });
  t.deepEqual(await quota(server, mine), { used: 0, limit: 500, remaining: 500 });

  const started = await startAudit(server, theirs, site.url('/'));
  t.is(started.status, 200);
  const foreign = await get(server, `/api/mcp/site-audits/${started.body.id}`, mine.key);
  t.is(foreign.status, 404);
  t.deepEqual(foreign.body, { error: 'Audit not found' });
  // Theirs is still theirs.
  t.is((await get(server, `/api/mcp/site-audits/${started.body.id}`, theirs.key)).status, 200);
});

test('unknown and malformed audit ids are 404 Audit not found; the quota path is not an id', async (t) => {
  const tenant = await seedTenant(server);
  for (const id of [randomUUID(), 'not-a-uuid', '123', randomUUID().toUpperCase()]) {
    const res = await get(server, `/api/mcp/site-audits/${id}`, tenant.key);
    t.is(res.status, 404, id);
    t.deepEqual(res.body, { error: 'Audit not found' });
  }
  const q = await get(server, '/api/mcp/site-audits/quota', tenant.key);
  t.is(q.status, 200);
  t.deepEqual(q.body, { used: 0, limit: 500, remaining: 500 });
});

test('list requires brand_id; keys are required everywhere', async (t) => {
  const tenant = await seedTenant(server);
  const res = await get(server, '/api/mcp/site-audits', tenant.key);
  t.is(res.status, 400);
  t.deepEqual(res.body, { error: 'brand_id is required' });
  for (const [method, path] of [
    ['GET', `/api/mcp/site-audits?brand_id=${tenant.brandId}`],
    ['POST', '/api/mcp/site-audits'],
    ['GET', '/api/mcp/site-audits/quota'],
    ['GET', `/api/mcp/site-audits/${randomUUID()}`],
  ]) {
    const anon = await call(server, method, path, {
      body: method === 'POST' ? { brand_id: tenant.brandId, url: site.url('/') } : undefined,
    });
    t.is(anon.status, 401, path);
    t.deepEqual(anon.body, { error: 'Missing or malformed API key' });
  }
  // Not on the Metrics API.
  t.is((await get(server, `/api/v1/site-audits?brand_id=${tenant.brandId}`, tenant.key)).status, 404);
});

test('402 names the limit: plan default and override', async (t) => {
  const starter = await seedTenant(server, undefined, 'starter');
  await setUsed(starter, 100);
  const res = await post(starter, { brand_id: starter.brandId, url: site.url('/') });
  t.is(res.status, 402);
  t.deepEqual(res.body, { error: 'Monthly site audit limit reached (100 on the starter plan)' });
  t.deepEqual(await quota(server, starter), { used: 100, limit: 100, remaining: 0 });

  const growth = await seedTenant(server, undefined, 'growth');
  await setUsed(growth, 500);
  t.deepEqual((await post(growth, { brand_id: growth.brandId, url: site.url('/') })).body, {
    error: 'Monthly site audit limit reached (500 on the growth plan)',
  });

  const custom = await seedTenant(server, undefined, 'business');
  await setOverride(custom, 2);
  await setUsed(custom, 2);
  t.deepEqual((await post(custom, { brand_id: custom.brandId, url: site.url('/') })).body, {
    error: "Monthly site audit limit reached (2 on your organization's custom limit)",
  });
  t.is(await auditCount(custom), 0);
});

test('business is unlimited: limit and remaining -1, use still counted', async (t) => {
  const tenant = await seedTenant(server, undefined, 'business');
  t.deepEqual(await quota(server, tenant), { used: 0, limit: -1, remaining: -1 });
  const res = await startAudit(server, tenant, site.url('/'));
  t.is(res.status, 200);
  t.deepEqual(await quota(server, tenant), { used: 1, limit: -1, remaining: -1 });
  await waitForAudit(server, tenant, res.body.id);
});

test('N concurrent starts with one unit left: exactly one succeeds, the rest get 402', async (t) => {
  const tenant = await seedTenant(server, undefined, 'starter');
  await setOverride(tenant, 1);
  const results = await Promise.all(
    Array.from({ length: 8 }, () => post(tenant, { brand_id: tenant.brandId, url: site.url('/') })),
  );
  const statuses = results.map((r) => r.status).sort();
  t.deepEqual(statuses, [200, 402, 402, 402, 402, 402, 402, 402]);
  for (const r of results.filter((x) => x.status === 402)) {
    t.deepEqual(r.body, { error: "Monthly site audit limit reached (1 on your organization's custom limit)" });
  }
  t.deepEqual(await quota(server, tenant), { used: 1, limit: 1, remaining: 0 });
  t.is(await auditCount(tenant), 1);
  await waitForAudit(server, tenant, results.find((r) => r.status === 200)!.body.id);
});

test('three units left, ten concurrent starts: exactly three succeed', async (t) => {
  const tenant = await seedTenant(server, undefined, 'growth');
  await setUsed(tenant, 497);
  const results = await Promise.all(
    Array.from({ length: 10 }, () => post(tenant, { brand_id: tenant.brandId, url: site.url('/') })),
  );
  t.is(results.filter((r) => r.status === 200).length, 3);
  t.is(results.filter((r) => r.status === 402).length, 7);
  t.deepEqual(await quota(server, tenant), { used: 500, limit: 500, remaining: 0 });
  for (const r of results.filter((x) => x.status === 200)) await waitForAudit(server, tenant, r.body.id);
});

test('a failed audit gives its unit back, so the last unit can be used again', async (t) => {
  const tenant = await seedTenant(server, undefined, 'starter');
  await setOverride(tenant, 1);
  const first = await startAudit(server, tenant, site.url('/gone'));
  t.is(first.status, 200);
  const failed = await waitForAudit(server, tenant, first.body.id);
  t.is(failed.status, 'failed');
  t.is(failed.error, `The page answered HTTP 410 Gone (${site.url('/gone')})`);
  t.deepEqual(await quota(server, tenant), { used: 0, limit: 1, remaining: 1 });
  const second = await startAudit(server, tenant, site.url('/'));
  t.is(second.status, 200);
  t.is((await post(tenant, { brand_id: tenant.brandId, url: site.url('/') })).status, 402);
  t.is((await waitForAudit(server, tenant, second.body.id)).status, 'completed');
  t.deepEqual(await quota(server, tenant), { used: 1, limit: 1, remaining: 0 });
});

test('state machine: running at once, then completed; a finished audit never changes again', async (t) => {
  const tenant = await seedTenant(server);
  const started = await startAudit(server, tenant, site.url('/'));
  t.deepEqual(started.body, { id: started.body.id, brandId: tenant.brandId, url: site.url('/'), status: 'running' });
  const done = await waitForAudit(server, tenant, started.body.id);
  t.is(done.status, 'completed');
  t.deepEqual(
    Object.keys(done).sort(),
    [
      'brandId',
      'categoryScores',
      'completedAt',
      'createdAt',
      'error',
      'finalUrl',
      'id',
      'recommendations',
      'signals',
      'signalsEvaluated',
      'signalsTotal',
      'status',
      'totalScore',
      'url',
    ].sort(),
  );
  t.true(new Date(done.completedAt) >= new Date(done.createdAt));
  for (const s of done.signals) t.deepEqual(Object.keys(s).sort(), ['category', 'evidence', 'key', 'score', 'status']);
  // A late worker holding an old claim can neither complete nor fail it again.
  const claim = { id: done.id, url: done.url, token: randomUUID(), attempts: 1 };
  t.false(await failAudit(server.stores.pg, claim, 'late failure'));
  t.false(
    await completeAudit(server.stores.pg, claim, { ...done, finalUrl: 'x', signals: [], recommendations: [] } as any),
  );
  const again = (await get(server, `/api/mcp/site-audits/${done.id}`, tenant.key)).body;
  t.deepEqual(again, done);
  t.deepEqual(await quota(server, tenant), { used: 1, limit: 500, remaining: 499 });
});

test('list: the 50 newest of the brand, newest first, with the list fields', async (t) => {
  const tenant = await seedTenant(server, [
    { name: 'One', slug: 'one', industry: 'x', region: 'US', domains: ['one.example'] },
    { name: 'Two', slug: 'two', industry: 'x', region: 'US', domains: ['two.example'] },
  ]);
  const [brandA, brandB] = tenant.brandIds;
  // 52 finished audits written directly, one minute apart, plus one of the other brand.
  for (let i = 0; i < 52; i++) {
    await server.stores.pg.query(
      `INSERT INTO site_audits (id, organization_id, brand_id, url, status, total_score, signals_evaluated, signals_total, quota_period, created_at, completed_at)
       VALUES ($1, $2, $3, $4, 'completed', $5, 40, 52, date_trunc('month', now())::date, now() - ($6 || ' minutes')::interval, now())`,
      [randomUUID(), tenant.organizationId, brandA, `https://one.example/p${i}`, 50 + i / 2, 60 - i],
    );
  }
  await server.stores.pg.query(
    // Claimed just now by a (pretend) live worker, so this server's worker leaves it running.
    `INSERT INTO site_audits (id, organization_id, brand_id, url, quota_period, attempts, claimed_at, claim_token)
     VALUES ($1, $2, $3, 'https://two.example/', date_trunc('month', now())::date, 1, now(), gen_random_uuid())`,
    [randomUUID(), tenant.organizationId, brandB],
  );
  const res = await get(server, `/api/mcp/site-audits?brand_id=${brandA}`, tenant.key);
  t.is(res.status, 200);
  t.is(res.body.length, 50);
  t.is(res.body[0].url, 'https://one.example/p51');
  t.is(res.body[49].url, 'https://one.example/p2');
  t.deepEqual(Object.keys(res.body[0]).sort(), [
    'createdAt',
    'id',
    'signalsEvaluated',
    'signalsTotal',
    'status',
    'totalScore',
    'url',
  ]);
  t.like(res.body[0], { status: 'completed', totalScore: 75.5, signalsEvaluated: 40, signalsTotal: 52 });
  const times = res.body.map((a: any) => Date.parse(a.createdAt));
  t.deepEqual(
    times,
    [...times].sort((a: number, b: number) => b - a),
  );
  const other = await get(server, `/api/mcp/site-audits?brand_id=${brandB}`, tenant.key);
  t.deepEqual(
    other.body.map((a: any) => [a.url, a.status, a.totalScore]),
    [['https://two.example/', 'running', null]],
  );
});

/** A running audit left by a process that died: claimed `minutesAgo` ago, `attempts` made. */
async function orphan(tenant: Tenant, url: string, attempts: number, claimedSecondsAgo: number): Promise<string> {
  const id = randomUUID();
  await setUsed(tenant, 1);
  await server.stores.pg.query(
    `INSERT INTO site_audits (id, organization_id, brand_id, url, quota_period, attempts, claimed_at, claim_token, created_at)
     VALUES ($1, $2, $3, $4, $5::date, $6, now() - ($7 || ' seconds')::interval, $8, now() - ($7 || ' seconds')::interval)`,
    [id, tenant.organizationId, tenant.brandId, url, quotaPeriod(), attempts, claimedSecondsAgo, randomUUID()],
  );
  return id;
}

const attempts = async (id: string) =>
  (await server.stores.pg.query('SELECT attempts FROM site_audits WHERE id = $1', [id])).rows[0].attempts;

test('restart recovery: a running audit with a stale claim is resumed and completes', async (t) => {
  const tenant = await seedTenant(server, undefined, 'starter');
  const id = await orphan(tenant, site.url('/'), 1, 600);
  const done = await waitForAudit(server, tenant, id);
  t.is(done.status, 'completed');
  t.is(done.signalsTotal, 52);
  t.is(await attempts(id), 2);
  t.deepEqual(await quota(server, tenant), { used: 1, limit: 100, remaining: 99 });
});

test('restart recovery: after 3 interrupted attempts the audit fails with a reason and returns its unit', async (t) => {
  const tenant = await seedTenant(server, undefined, 'starter');
  const id = await orphan(tenant, site.url('/'), 3, 600);
  const done = await waitForAudit(server, tenant, id);
  t.is(done.status, 'failed');
  t.is(done.error, 'The audit was interrupted 3 times (service restarts) and was given up');
  t.is(await attempts(id), 3);
  t.deepEqual(await quota(server, tenant), { used: 0, limit: 100, remaining: 100 });
});

test('a fresh claim held by another live worker is not taken over', async (t) => {
  const tenant = await seedTenant(server, undefined, 'starter');
  const id = await orphan(tenant, site.url('/'), 1, 10);
  // Several polls go by; the claim is 10 s old, far from stale (2 min).
  await new Promise((r) => setTimeout(r, 2_500));
  const res = await get(server, `/api/mcp/site-audits/${id}`, tenant.key);
  t.is(res.body.status, 'running');
  t.is(await attempts(id), 1);
});
