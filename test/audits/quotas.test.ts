// The plan-quota module (src/tenancy/quotas.ts) on a real database: plan defaults, overrides,
// calendar months in UTC, release, transactions, and atomic use under concurrency.
// test-process: shared
import test from 'ava';
import { seedTenant, startTestServer, type TestServer, type Tenant } from '../helpers/server.ts';
import { ApiError } from '../../src/errors.ts';
import {
  PLAN_QUOTAS,
  quotaPeriod,
  quotaStatus,
  releaseQuota,
  useQuota,
  type QuotaKind,
} from '../../src/tenancy/quotas.ts';

let server: TestServer;

test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

const db = () => server.stores.pg;
const override = (tenant: Tenant, kind: QuotaKind, n: number | null) =>
  db().query(`UPDATE organizations SET quota_${kind} = $2 WHERE id = $1`, [tenant.organizationId, n]);

async function refused(t: any, p: Promise<unknown>): Promise<string> {
  const err = await t.throwsAsync(p, { instanceOf: ApiError });
  t.is((err as ApiError).status, 402);
  return (err as ApiError).message;
}

test('plan defaults of docs/api.md section 1', (t) => {
  t.deepEqual(PLAN_QUOTAS, {
    starter: { briefs: 10, drafts: 10, audits: 100 },
    growth: { briefs: 50, drafts: 50, audits: 500 },
    business: { briefs: 200, drafts: 200, audits: -1 },
  });
});

test('quotaPeriod is the first day of the UTC month', (t) => {
  t.is(quotaPeriod(new Date('2026-03-31T23:59:59.999Z')), '2026-03-01');
  t.is(quotaPeriod(new Date('2026-04-01T00:00:00Z')), '2026-04-01');
  // 23:30 on 31 March in New York is already April in UTC.
  t.is(quotaPeriod(new Date('2026-03-31T23:30:00-04:00')), '2026-04-01');
});

for (const plan of ['starter', 'growth', 'business'] as const) {
  test(`quotaStatus starts at the ${plan} plan's defaults`, async (t) => {
    const tenant = await seedTenant(server, undefined, plan);
    for (const kind of ['briefs', 'drafts', 'audits'] as const) {
      const limit = PLAN_QUOTAS[plan][kind];
      t.deepEqual(await quotaStatus(db(), tenant.organizationId, kind), { used: 0, limit, remaining: limit });
    }
  });
}

test('useQuota counts up to the limit, then 402 naming the limit (plan default)', async (t) => {
  const tenant = await seedTenant(server, undefined, 'starter');
  for (let i = 1; i <= 10; i++) {
    const use = await useQuota(db(), tenant.organizationId, 'briefs');
    t.like(use, { used: i, limit: 10, remaining: 10 - i, period: quotaPeriod() });
  }
  t.is(
    await refused(t, useQuota(db(), tenant.organizationId, 'briefs')),
    'Monthly content brief limit reached (10 on the starter plan)',
  );
  t.deepEqual(await quotaStatus(db(), tenant.organizationId, 'briefs'), { used: 10, limit: 10, remaining: 0 });
  // Kinds are separate.
  t.deepEqual(await quotaStatus(db(), tenant.organizationId, 'drafts'), { used: 0, limit: 10, remaining: 10 });
});

test('the 402 messages of each kind', async (t) => {
  const tenant = await seedTenant(server, undefined, 'growth');
  const period = quotaPeriod();
  for (const [kind, used] of [
    ['drafts', 50],
    ['audits', 500],
  ] as const) {
    await db().query(`INSERT INTO quota_usage (organization_id, kind, period, used) VALUES ($1, $2, $3, $4)`, [
      tenant.organizationId,
      kind,
      period,
      used,
    ]);
  }
  t.is(
    await refused(t, useQuota(db(), tenant.organizationId, 'drafts')),
    'Monthly content draft limit reached (50 on the growth plan)',
  );
  t.is(
    await refused(t, useQuota(db(), tenant.organizationId, 'audits')),
    'Monthly site audit limit reached (500 on the growth plan)',
  );
});

test('an override replaces the plan default, and the message says so', async (t) => {
  const tenant = await seedTenant(server, undefined, 'business');
  await override(tenant, 'audits', 2);
  t.deepEqual(await quotaStatus(db(), tenant.organizationId, 'audits'), { used: 0, limit: 2, remaining: 2 });
  await useQuota(db(), tenant.organizationId, 'audits');
  await useQuota(db(), tenant.organizationId, 'audits');
  t.is(
    await refused(t, useQuota(db(), tenant.organizationId, 'audits')),
    "Monthly site audit limit reached (2 on your organization's custom limit)",
  );
  // 0 blocks at once; -1 makes even a starter plan unlimited.
  await override(tenant, 'briefs', 0);
  t.is(
    await refused(t, useQuota(db(), tenant.organizationId, 'briefs')),
    "Monthly content brief limit reached (0 on your organization's custom limit)",
  );
  // Lowering an override under the month's use leaves remaining at 0, never negative.
  await override(tenant, 'audits', 1);
  t.deepEqual(await quotaStatus(db(), tenant.organizationId, 'audits'), { used: 2, limit: 1, remaining: 0 });
  const starter = await seedTenant(server, undefined, 'starter');
  await override(starter, 'drafts', -1);
  for (let i = 0; i < 12; i++) await useQuota(db(), starter.organizationId, 'drafts');
  t.deepEqual(await quotaStatus(db(), starter.organizationId, 'drafts'), { used: 12, limit: -1, remaining: -1 });
});

test('unlimited: limit and remaining -1, use still counted', async (t) => {
  const tenant = await seedTenant(server, undefined, 'business');
  const use = await useQuota(db(), tenant.organizationId, 'audits');
  t.like(use, { used: 1, limit: -1, remaining: -1 });
  t.deepEqual(await quotaStatus(db(), tenant.organizationId, 'audits'), { used: 1, limit: -1, remaining: -1 });
});

test('calendar months in UTC: a new month starts from zero', async (t) => {
  const tenant = await seedTenant(server, undefined, 'starter');
  const lastMoment = new Date('2026-01-31T23:59:59.999Z');
  const firstMoment = new Date('2026-02-01T00:00:00.000Z');
  await override(tenant, 'briefs', 1);
  t.like(await useQuota(db(), tenant.organizationId, 'briefs', lastMoment), { period: '2026-01-01', used: 1 });
  await refused(t, useQuota(db(), tenant.organizationId, 'briefs', lastMoment));
  t.like(await useQuota(db(), tenant.organizationId, 'briefs', firstMoment), { period: '2026-02-01', used: 1 });
  t.deepEqual(await quotaStatus(db(), tenant.organizationId, 'briefs', lastMoment), {
    used: 1,
    limit: 1,
    remaining: 0,
  });
  t.deepEqual(await quotaStatus(db(), tenant.organizationId, 'briefs', firstMoment), {
    used: 1,
    limit: 1,
    remaining: 0,
  });
});

test('releaseQuota gives one unit back to the month it came from, never below zero', async (t) => {
  const tenant = await seedTenant(server, undefined, 'starter');
  const jan = new Date('2026-01-20T10:00:00Z');
  const use = await useQuota(db(), tenant.organizationId, 'audits', jan);
  await useQuota(db(), tenant.organizationId, 'audits', new Date('2026-02-02T10:00:00Z'));
  t.true(await releaseQuota(db(), tenant.organizationId, 'audits', use.period));
  t.deepEqual(await quotaStatus(db(), tenant.organizationId, 'audits', jan), { used: 0, limit: 100, remaining: 100 });
  t.deepEqual(await quotaStatus(db(), tenant.organizationId, 'audits', new Date('2026-02-10T00:00:00Z')), {
    used: 1,
    limit: 100,
    remaining: 99,
  });
  t.false(await releaseQuota(db(), tenant.organizationId, 'audits', use.period));
  t.false(await releaseQuota(db(), tenant.organizationId, 'briefs'));
});

test('inside a transaction: a rollback takes the unit back with it', async (t) => {
  const tenant = await seedTenant(server, undefined, 'starter');
  await t.throwsAsync(
    db().tx(async (client) => {
      await useQuota(client, tenant.organizationId, 'drafts');
      throw new Error('generation failed');
    }),
    { message: 'generation failed' },
  );
  t.deepEqual(await quotaStatus(db(), tenant.organizationId, 'drafts'), { used: 0, limit: 10, remaining: 10 });
  const committed = await db().tx((client) => useQuota(client, tenant.organizationId, 'drafts'));
  t.is(committed.used, 1);
});

test('concurrent use at the edge: exactly the remaining units are granted', async (t) => {
  const tenant = await seedTenant(server, undefined, 'starter');
  await override(tenant, 'audits', 1);
  const one = await Promise.allSettled(
    Array.from({ length: 12 }, () => useQuota(db(), tenant.organizationId, 'audits')),
  );
  t.is(one.filter((r) => r.status === 'fulfilled').length, 1);
  t.is(one.filter((r) => r.status === 'rejected' && (r.reason as ApiError).status === 402).length, 11);

  await override(tenant, 'briefs', 5);
  const five = await Promise.allSettled(
    Array.from({ length: 20 }, () => useQuota(db(), tenant.organizationId, 'briefs')),
  );
  t.is(five.filter((r) => r.status === 'fulfilled').length, 5);
  t.deepEqual(
    (five.filter((r) => r.status === 'fulfilled') as PromiseFulfilledResult<any>[]).map((r) => r.value.used).sort(),
    [1, 2, 3, 4, 5],
  );
  t.deepEqual(await quotaStatus(db(), tenant.organizationId, 'briefs'), { used: 5, limit: 5, remaining: 0 });
});

test('an unknown organization is a 404', async (t) => {
  const err = await t.throwsAsync(useQuota(db(), '00000000-0000-4000-8000-000000000000', 'audits'), {
    instanceOf: ApiError,
  });
  t.is((err as ApiError).status, 404);
});
