// History follows the workspace (docs/api.md section 10): after a brand's entities change, a
// re-analysis makes every figure over all history equal to a fresh ingest of the same answers
// under the new workspace; reads see the old or the new analysis, never a mix; a crash mid-way
// leaves the old figures and a rerun finishes cleanly.
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { get, seedTenant, startTestServer, uniq, type Tenant, type TestServer } from '../helpers/server.ts';
import { applyWorkspace, parseWorkspace } from '../../src/tenancy/workspace.ts';
import { ingestFile } from '../../src/tracking/ingest/file.ts';
import { planSteps, reanalyzeBrand } from '../../src/tracking/reanalysis/reanalyze.ts';
import { reanalysisStatus, startReanalysis } from '../../src/tenancy/reanalysis-queue.ts';
import { figuresOnly } from '../helpers/figures.ts';

let server: TestServer;
test.before(async () => {
  // Re-analyses run when a test says so (the background worker would take queued ones at any time).
  server = await startTestServer({ RATE_LIMIT_MAX: '1000000', REANALYSIS_WORKER: '0' });
});
test.after.always(async () => {
  await server?.stop();
});

const ZETA = { name: 'Zeta CRM', domains: ['zeta.example'], aliases: [] };

const brand = (competitors: object[], overrides: object = {}) => ({
  name: 'Acme',
  slug: 'acme',
  industry: 'Software',
  region: 'US',
  domains: ['acme.example'],
  aliases: ['Acme Inc'],
  competitors,
  topics: [
    {
      name: 'CRM',
      prompts: [{ text: 'best crm for startups', platforms: ['chatgpt', 'perplexity'], regions: ['US'] }],
    },
  ],
  ...overrides,
});

/** Answers that name Zeta CRM first and cite its site, before Acme and Globex. */
function answers(t: Tenant) {
  const [prompt] = t.promptIds;
  const line = (platform: string, model: string, at: string, text: string, urls: string[]) => ({
    prompt_id: prompt,
    platform,
    model,
    region: 'US',
    collected_at: at,
    text,
    citations: urls.map((url) => ({ url, title: url })),
  });
  return [
    line('chatgpt', 'gpt-4o', '2026-10-01T06:00:00Z', 'Zeta CRM is first. Zeta CRM again. Then Acme, then Globex.', [
      'https://zeta.example/pricing',
      'https://acme.example/',
      'https://review.example/crm',
    ]),
    line('perplexity', 'sonar', '2026-10-02T06:00:00Z', 'Zeta CRM leads; Acme Inc follows, Globex trails.', [
      'https://www.zeta.example/',
    ]),
    line('chatgpt', 'gpt-4o', '2026-10-02T07:00:00Z', 'Only Globex and Acme are named here.', []),
  ];
}

async function ingest(t: Tenant) {
  const file = path.join(server.dataDir, `${uniq('answers')}.jsonl`);
  fs.writeFileSync(
    file,
    `${answers(t)
      .map((a) => JSON.stringify(a))
      .join('\n')}\n`,
  );
  const result = await ingestFile(server.stores, file);
  if (result.rejected.length) throw new Error(JSON.stringify(result.rejected));
}

const ENDPOINTS = [
  'visibility-summary',
  'visibility-trend',
  'visibility-trend?granularity=week',
  'competitor-comparison',
  'citations',
  'prompt-performance',
];

/** Every analytics figure of the brand, with ids replaced by names so two tenants compare. */
async function figures(t: Tenant) {
  const out: Record<string, unknown> = {};
  for (const e of ENDPOINTS) {
    const sep = e.includes('?') ? '&' : '?';
    const r = await get(server, `/api/v1/${e}${sep}brand_id=${t.brandId}`, t.key);
    if (r.status !== 200) throw new Error(`${e}: ${r.status} ${JSON.stringify(r.body)}`);
    // Mention rates per platform are keyed by entity id, which differs between tenants: by name here.
    if (Array.isArray(r.body.platforms)) {
      const names = new Map<string, string>([
        [t.brandId, 'brand'],
        ...(r.body.competitors ?? []).map((c: any): [string, string] => [c.competitor_id, c.name]),
      ]);
      for (const p of r.body.platforms) {
        p.mention_rates = Object.fromEntries(
          Object.entries(p.mention_rates ?? {})
            .map(([id, rate]) => [names.get(id) ?? id, rate])
            .sort(([a], [b]) => String(a).localeCompare(String(b))),
        );
      }
    }
    out[e] = figuresOnly(
      JSON.parse(JSON.stringify(r.body), (k, v) => (k === 'id' || k.endsWith('_id') ? undefined : v)),
    );
  }
  return out;
}

async function applyCompetitors(t: Tenant, competitors: object[], overrides: object = {}) {
  const workspace = structuredClone(t.workspace);
  workspace.organizations[0].brands[0] = brand(competitors, overrides);
  return applyWorkspace(server.stores.pg, parseWorkspace(workspace));
}

async function reanalyze(t: Tenant, opts = {}) {
  await startReanalysis(server.stores.pg, t.brandId, 'test');
  return reanalyzeBrand(server.stores, t.brandId, opts);
}

/** A tenant set up with `competitors` from the start, holding the same answers. */
async function fresh(competitors: object[], overrides: object = {}) {
  const t = await seedTenant(server, [brand(competitors, overrides)]);
  await ingest(t);
  return figures(t);
}

const GLOBEX = { name: 'Globex', domains: ['globex.example'], aliases: [] };

test('adding a competitor: every figure over all history equals a fresh ingest under the new workspace', async (t) => {
  const tenant = await seedTenant(server, [brand([GLOBEX])]);
  await ingest(tenant);
  const before = await figures(tenant);
  const comparison = before['competitor-comparison'] as any;
  t.deepEqual(
    comparison.competitors.map((c: any) => c.name),
    ['Globex'],
  );

  const applied = await applyCompetitors(tenant, [GLOBEX, ZETA]);
  t.true((applied.organizations[0].brands[0] as { reanalysis_queued?: boolean }).reanalysis_queued);
  // Until it runs, the new competitor is listed with the stored analysis: no mention yet.
  const waiting = (await figures(tenant))['competitor-comparison'] as any;
  t.is(waiting.competitors.find((c: any) => c.name === 'Zeta CRM').total_mentions, 0);

  const result = await reanalyze(tenant);
  t.is(result.answers, 3);
  const after = await figures(tenant);
  t.deepEqual(after, await fresh([GLOBEX, ZETA]));
  const zeta = (after['competitor-comparison'] as any).competitors.find((c: any) => c.name === 'Zeta CRM');
  t.is(zeta.total_mentions, 3);
  // Brand 3, Globex 3, Zeta 3 mentions: share of voice 3 / 9.
  t.is((after['competitor-comparison'] as any).share_of_voice.overall_sov_pct, 33.3);
  t.not((before['competitor-comparison'] as any).share_of_voice.overall_sov_pct, 33.3);
  const [status] = await reanalysisStatus(server.stores.pg, tenant.brandId);
  t.is(status.status, 'done');
  t.is(status.answers_done, 3);
  // The warehouse views read the live generation too, whether the old rows are deleted yet or not:
  // the brand's row of each answer (3), Globex named in 3, Zeta CRM in 2.
  const [rows] = await server.stores.ch.system<{ n: number }>(
    'SELECT count() AS n FROM v_answer_entities WHERE brand_id = {b:UUID}',
    { b: tenant.brandId },
  );
  t.is(Number(rows.n), 8);
});

test('an alias change is re-derived: "Acme Inc" stops counting once it is no alias', async (t) => {
  const tenant = await seedTenant(server, [brand([GLOBEX])]);
  await ingest(tenant);
  const applied = await applyCompetitors(tenant, [GLOBEX], { aliases: [] });
  t.true((applied.organizations[0].brands[0] as { reanalysis_queued?: boolean }).reanalysis_queued);
  await reanalyze(tenant);
  t.deepEqual(await figures(tenant), await fresh([GLOBEX], { aliases: [] }));
});

test('a domain change moves a citation between categories', async (t) => {
  const tenant = await seedTenant(server, [brand([GLOBEX])]);
  await ingest(tenant);
  const category = async () =>
    ((await figures(tenant)).citations as any).top_domains.find((d: any) => d.domain === 'review.example').category;
  t.is(await category(), 'other');
  const globex = { ...GLOBEX, domains: ['globex.example', 'review.example'] };
  await applyCompetitors(tenant, [globex]);
  await reanalyze(tenant);
  t.is(await category(), 'competitor');
  t.deepEqual(await figures(tenant), await fresh([globex]));
});

test('a crash in the middle leaves the old figures; a rerun finishes cleanly', async (t) => {
  const tenant = await seedTenant(server, [brand([GLOBEX])]);
  await ingest(tenant);
  await applyCompetitors(tenant, [GLOBEX, ZETA]);
  const before = await figures(tenant);
  const warehouseRows = async () =>
    (
      await server.stores.ch.system<{ n: number }>(
        'SELECT count() AS n FROM v_answer_entities WHERE brand_id = {b:UUID}',
        {
          b: tenant.brandId,
        },
      )
    )[0].n;
  const rowsBefore = await warehouseRows();
  await t.throwsAsync(reanalyze(tenant, { pageSize: 1, crashAfter: 2 }), { message: /stopped/ });
  t.deepEqual(await figures(tenant), before, 'a partial generation is never read');
  t.is(await warehouseRows(), rowsBefore, 'nor by the warehouse views');
  const [running] = await reanalysisStatus(server.stores.pg, tenant.brandId);
  t.is(running.status, 'running');
  await reanalyze(tenant, { pageSize: 1 });
  t.deepEqual(await figures(tenant), await fresh([GLOBEX, ZETA]));
});

test('reads during the re-analysis see the old figures or the new, never a mix', async (t) => {
  const tenant = await seedTenant(server, [brand([GLOBEX])]);
  await ingest(tenant);
  await applyCompetitors(tenant, [GLOBEX, ZETA]);
  const before = await figures(tenant);
  let running = true;
  const seen: Record<string, unknown>[] = [];
  const reader = (async () => {
    while (running) seen.push(await figures(tenant));
  })();
  await reanalyze(tenant, { pageSize: 1 });
  running = false;
  await reader;
  const after = await figures(tenant);
  t.notDeepEqual(after, before);
  t.true(seen.length > 0);
  // Each response is wholly one analysis (a set of six requests may straddle the switch).
  for (const s of seen) {
    for (const e of ENDPOINTS) {
      const one = JSON.stringify(s[e]);
      t.true(one === JSON.stringify(before[e]) || one === JSON.stringify(after[e]), `${e} mixed analyses`);
    }
  }
});

test('steps cover every day once: small days together up to the page size, a larger day in shares by answer id', (t) => {
  const days = [
    { day: '2026-01-01', answers: 3 },
    { day: '2026-01-02', answers: 2 },
    { day: '2026-01-03', answers: 7 },
    { day: '2026-01-04', answers: 1 },
    { day: '2026-01-05', answers: 5 },
  ];
  t.deepEqual(planSteps(days, 5), [
    { from: '2026-01-01', to: '2026-01-02', answers: 5 },
    { from: '2026-01-03', to: '2026-01-03', answers: 0, share: { index: 0, of: 2 } },
    { from: '2026-01-03', to: '2026-01-03', answers: 0, share: { index: 1, of: 2 } },
    { from: '2026-01-04', to: '2026-01-04', answers: 1 },
    { from: '2026-01-05', to: '2026-01-05', answers: 5 },
  ]);
  t.deepEqual(planSteps([], 5), []);
});
