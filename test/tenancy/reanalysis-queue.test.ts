// What `apply` does when a brand's workspace changes (docs/api.md section 10): a change of its
// entities queues a re-analysis, any change of what it shows bumps its data_version, the same
// file twice does neither; and the queue's transitions the re-analysis engine relies on.
// The stores are opened without the server: its re-analysis worker would take the queued rows
// these tests look at. Tests are serial because the queue is global (a claim takes any brand's row).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { loadConfig } from '../../src/config.ts';
import { openStores, type Stores } from '../../src/stores/index.ts';
import { migrate } from '../../src/stores/migrate.ts';
import { applyWorkspace, parseWorkspace } from '../../src/tenancy/workspace.ts';
import {
  claimReanalysis,
  failReanalysis,
  finishReanalysis,
  liveGeneration,
  queueReanalysis,
  reanalysisProgress,
  reanalysisStatus,
  startReanalysis,
  type ReanalysisStatus,
} from '../../src/tenancy/reanalysis-queue.ts';
import { migratedDataDir } from '../helpers/data-dir.ts';
import { freshDatabase, seedTenant, type TestDatabase } from '../helpers/server.ts';

let stores: Stores;
let db: TestDatabase;
let dataDir: string;
test.before(async () => {
  db = await freshDatabase();
  dataDir = db.url ? fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-reanalysis-')) : await migratedDataDir();
  stores = await openStores(loadConfig({ DATA_DIR: dataDir, ...(db.url ? { DATABASE_URL: db.url } : {}) }));
  await migrate(stores.pg, stores.ch);
});
test.after.always(async () => {
  await stores?.close();
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A tenant with the helper's default brand (Acme; competitor Globex; one topic, one prompt). */
const seed = () => seedTenant({ stores } as any);
const apply = async (workspace: unknown) =>
  (await applyWorkspace(stores.pg, parseWorkspace(workspace))).organizations[0];
const edited = (workspace: any, edit: (brand: any) => void) => {
  const copy = structuredClone(workspace);
  edit(copy.organizations[0].brands[0]);
  return copy;
};
const dataVersion = async (brandId: string) =>
  (await stores.pg.query('SELECT data_version FROM brands WHERE id = $1', [brandId])).rows[0].data_version as number;
const row = async (brandId: string): Promise<ReanalysisStatus | undefined> =>
  (await reanalysisStatus(stores.pg, brandId))[0];
/** Nothing queued or running from earlier tests, so a claim can only take this test's rows. */
const drain = () => stores.pg.query("UPDATE reanalyses SET status = 'done' WHERE status IN ('queued', 'running')");

test.serial('a new brand prints reanalysis_queued false and queues nothing', async (t) => {
  const tenant = await seed();
  const printed = await apply(tenant.workspace);
  t.false(printed.brands[0].reanalysis_queued);
  t.is(await row(tenant.brandId), undefined);
  const fresh = await apply(
    edited(tenant.workspace, (b) => {
      b.slug = 'acme-two';
      b.competitors.push({ name: 'Initech' });
    }),
  );
  t.deepEqual(
    fresh.brands.map((b: any) => [b.slug, b.reanalysis_queued]),
    [['acme-two', false]],
  );
  t.is(await row(fresh.brands[0].id), undefined);
});

test.serial('re-applying the same file prints the same output, bumps nothing and queues nothing', async (t) => {
  const tenant = await seed();
  const version = await dataVersion(tenant.brandId);
  const first = await apply(tenant.workspace);
  const second = await apply(tenant.workspace);
  t.deepEqual(second, first);
  t.false(first.brands[0].reanalysis_queued);
  // Every field keeps its place; reanalysis_queued comes last.
  t.deepEqual(Object.keys(first.brands[0]), [
    'id',
    'slug',
    'name',
    'tracking_id',
    'competitors',
    'topics',
    'reanalysis_queued',
  ]);
  t.is(await dataVersion(tenant.brandId), version);
  t.is(await row(tenant.brandId), undefined);
});

test.serial('adding a competitor queues a re-analysis naming it and bumps data_version', async (t) => {
  const tenant = await seed();
  const version = await dataVersion(tenant.brandId);
  const printed = await apply(
    edited(tenant.workspace, (b) => b.competitors.push({ name: 'Zeta CRM', domains: ['zeta.example'] })),
  );
  t.true(printed.brands[0].reanalysis_queued);
  t.like(await row(tenant.brandId), { status: 'queued', reason: 'competitor added: Zeta CRM', error: null });
  t.is(await dataVersion(tenant.brandId), version + 1);
  // The same file again: the competitor exists now, nothing more happens.
  const again = await apply(
    edited(tenant.workspace, (b) => b.competitors.push({ name: 'Zeta CRM', domains: ['zeta.example'] })),
  );
  t.false(again.brands[0].reanalysis_queued);
  t.is(await dataVersion(tenant.brandId), version + 1);
});

test.serial("changing the brand's aliases, name or domains queues a re-analysis", async (t) => {
  const tenant = await seed();
  const printed = await apply(edited(tenant.workspace, (b) => b.aliases.push('ACME')));
  t.true(printed.brands[0].reanalysis_queued);
  t.like(await row(tenant.brandId), { status: 'queued', reason: 'aliases changed' });

  // A second change before the worker took the first: one run covers both, the row keeps its place.
  const queuedAt = (await row(tenant.brandId))!.requested_at;
  await apply(
    edited(tenant.workspace, (b) => {
      b.aliases.push('ACME');
      b.name = 'Acme Corp';
      b.domains.push('acme.test');
    }),
  );
  t.like(await row(tenant.brandId), {
    status: 'queued',
    reason: 'aliases changed; name changed; domains changed',
    requested_at: queuedAt,
  });
});

test.serial("changing a competitor's domains or aliases queues a re-analysis", async (t) => {
  const tenant = await seed();
  await apply(edited(tenant.workspace, (b) => (b.competitors[0].domains = ['globex.example', 'globex.test'])));
  t.like(await row(tenant.brandId), { status: 'queued', reason: 'competitor Globex: domains changed' });

  const other = await seed();
  const printed = await apply(edited(other.workspace, (b) => (b.competitors[0].aliases = ['Globex Inc'])));
  t.true(printed.brands[0].reanalysis_queued);
  t.like(await row(other.brandId), { status: 'queued', reason: 'competitor Globex: aliases changed' });
});

test.serial('a topic or prompt change bumps data_version but queues nothing', async (t) => {
  const tenant = await seed();
  let version = await dataVersion(tenant.brandId);
  const steps: ((b: any) => void)[] = [
    (b) => (b.topics[0].prompts[0].is_active = false),
    (b) => b.topics.push({ name: 'Sales tools', prompts: [{ text: 'best crm for startups' }] }),
    (b) => (b.topics[0].is_active = false),
    (b) => {
      b.prompts = [{ text: 'crm with email sync', platforms: ['gemini'] }];
    },
  ];
  let workspace = tenant.workspace;
  for (const step of steps) {
    workspace = edited(workspace, step);
    const printed = await apply(workspace);
    t.false(printed.brands[0].reanalysis_queued);
    t.is(await dataVersion(tenant.brandId), version + 1, JSON.stringify(workspace.organizations[0].brands[0]));
    version += 1;
  }
  t.is(await row(tenant.brandId), undefined);
  // The last file again changes nothing.
  await apply(workspace);
  t.is(await dataVersion(tenant.brandId), version);
});

test.serial('a change while it runs sets requested_again, and finishing queues it once more', async (t) => {
  await drain();
  const tenant = await seed();
  const aliased = edited(tenant.workspace, (b) => b.aliases.push('ACME'));
  await apply(aliased);
  t.deepEqual(await claimReanalysis(stores.pg, 60_000), { brand_id: tenant.brandId, reason: 'aliases changed' });
  t.true(
    await reanalysisProgress(stores.pg, tenant.brandId, { target_generation: 1, answers_total: 10, answers_done: 4 }),
  );

  const printed = await apply(edited(aliased, (b) => b.competitors.push({ name: 'Zeta CRM' })));
  t.true(printed.brands[0].reanalysis_queued);
  t.like(await row(tenant.brandId), {
    status: 'running',
    requested_again: true,
    reason: 'competitor added: Zeta CRM',
    answers_done: 4,
  });

  t.is(await finishReanalysis(stores.pg, tenant.brandId, 1), 'queued');
  t.like(await row(tenant.brandId), { status: 'queued', requested_again: false, target_generation: 1 });
  t.is(await liveGeneration(stores.pg, tenant.brandId), 1);
  // The second run starts from the newest entities and ends the queue.
  t.like(await claimReanalysis(stores.pg, 60_000), { brand_id: tenant.brandId });
  t.is(await finishReanalysis(stores.pg, tenant.brandId, 2), 'done');
  t.like(await row(tenant.brandId), { status: 'done', target_generation: 2, answers_done: 0 });
  t.is(await claimReanalysis(stores.pg, 60_000), undefined);
});

test.serial('finishReanalysis switches the generation and bumps data_version in one step', async (t) => {
  await drain();
  const tenant = await seed();
  const version = await dataVersion(tenant.brandId);
  t.is(await liveGeneration(stores.pg, tenant.brandId), 0);
  const started = await startReanalysis(stores.pg, tenant.brandId, 'operator request');
  t.like(started, { brand_id: tenant.brandId, status: 'running', reason: 'operator request', finished_at: null });
  t.is(await finishReanalysis(stores.pg, tenant.brandId, 1), 'done');
  t.is(await liveGeneration(stores.pg, tenant.brandId), 1);
  t.is(await dataVersion(tenant.brandId), version + 1);
  const done = (await row(tenant.brandId))!;
  t.like(done, { status: 'done', target_generation: 1, error: null });
  t.false(Number.isNaN(Date.parse(done.finished_at!)));
  t.is(await liveGeneration(stores.pg, '00000000-0000-4000-8000-000000000000'), undefined);
});

test.serial('claimReanalysis takes a stale running row, not a fresh one, and each row once', async (t) => {
  await drain();
  const stale = await seed();
  const fresh = await seed();
  await startReanalysis(stores.pg, stale.brandId, 'crashed run');
  await startReanalysis(stores.pg, fresh.brandId, 'live run');
  await stores.pg.query("UPDATE reanalyses SET claimed_at = now() - interval '1 hour' WHERE brand_id = $1", [
    stale.brandId,
  ]);
  t.deepEqual(await claimReanalysis(stores.pg, 60_000), { brand_id: stale.brandId, reason: 'crashed run' });
  t.is(await claimReanalysis(stores.pg, 60_000), undefined, 'the taken-over row is fresh again; the live one stays');
  // A heartbeat keeps a long run from looking crashed.
  await stores.pg.query("UPDATE reanalyses SET claimed_at = now() - interval '1 hour' WHERE brand_id = $1", [
    fresh.brandId,
  ]);
  t.true(await reanalysisProgress(stores.pg, fresh.brandId, { answers_done: 1 }));
  t.is(await claimReanalysis(stores.pg, 60_000), undefined);

  // Two instances claiming at once: one row, one taker.
  await drain();
  await queueReanalysis(stores.pg, stale.brandId, 'aliases changed');
  const claims = await Promise.all([claimReanalysis(stores.pg, 60_000), claimReanalysis(stores.pg, 60_000)]);
  t.deepEqual(
    claims.filter(Boolean).map((c) => c!.brand_id),
    [stale.brandId],
  );
});

test.serial(
  'a queued row goes oldest first; status rows are JSON with ISO timestamps; failures keep the error',
  async (t) => {
    await drain();
    const first = await seed();
    const second = await seed();
    await queueReanalysis(stores.pg, first.brandId, 'competitor added: A');
    await queueReanalysis(stores.pg, second.brandId, 'competitor added: B');
    // Two requests a moment apart can carry the same now() (the embedded Postgres's clock is coarse),
    // and a tie goes by brand id: make the first one plainly older.
    await stores.pg.query(
      "UPDATE reanalyses SET requested_at = requested_at - interval '1 second' WHERE brand_id = $1",
      [first.brandId],
    );
    t.like(await claimReanalysis(stores.pg, 60_000), { brand_id: first.brandId });
    await failReanalysis(stores.pg, first.brandId, 'ClickHouse unavailable');
    const failed = (await row(first.brandId))!;
    t.deepEqual(Object.keys(failed), [
      'brand_id',
      'status',
      'reason',
      'requested_again',
      'target_generation',
      'answers_total',
      'answers_done',
      'requested_at',
      'started_at',
      'finished_at',
      'error',
    ]);
    t.like(failed, { status: 'failed', error: 'ClickHouse unavailable', reason: 'competitor added: A' });
    for (const at of [failed.requested_at, failed.started_at, failed.finished_at]) t.regex(at!, /^\d{4}-.*Z$/);
    t.is(await liveGeneration(stores.pg, first.brandId), 0, 'a failed run leaves the brand on its generation');
    t.false(await reanalysisProgress(stores.pg, first.brandId, { answers_done: 3 }), 'not running any more');
    // A failed row is not retried by itself; the next change queues it again, without the old error.
    t.like(await claimReanalysis(stores.pg, 60_000), { brand_id: second.brandId });
    t.is(await claimReanalysis(stores.pg, 60_000), undefined);
    t.is(await queueReanalysis(stores.pg, first.brandId, 'aliases changed'), 'queued');
    t.like(await row(first.brandId), { status: 'queued', reason: 'aliases changed', error: null });
    const all = await reanalysisStatus(stores.pg);
    t.true([first.brandId, second.brandId].every((id) => all.some((r) => r.brand_id === id)));
  },
);
