// Provenance (docs/metrics.md): every stored answer says which model the provider reported, which
// adapter version captured it, which analysis its figures come from, and where it came from; the
// answers explorer and the export show it, and a re-analysis changes the analysis version.
// test-process: shared
import { randomUUID } from 'node:crypto';
import test from 'ava';
import pino from 'pino';
import { trackPrompts } from '../../jobs/track-prompts.ts';
import type { CaptureSummary } from '../../src/tracking/capture/capture.ts';
import { IngestCache, ingestBatch } from '../../src/tracking/ingest/batch.ts';
import { validateAnswer } from '../../src/tracking/ingest/answer-schema.ts';
import { reanalyzeBrand } from '../../src/tracking/reanalysis/reanalyze.ts';
import { startReanalysis } from '../../src/tenancy/reanalysis-queue.ts';
import { get, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';

let server: TestServer;
test.before(async () => {
  // The test runs the re-analysis itself: the server's worker would claim the queued one and run
  // a second beside it, changing the analysis version again after the test read it.
  server = await startTestServer({ RATE_LIMIT_MAX: '100000', REANALYSIS_WORKER: '0' });
});
test.after.always(async () => {
  await server?.stop();
});

const DAY = '2026-11-01';

test('captured and imported answers carry their provenance; a re-analysis changes the analysis version', async (t) => {
  const tenant = await seedTenant(server);
  const ctx = {
    stores: server.stores,
    config: { ...server.config, tracking: { ...server.config.tracking, engine: 'simulated' as const } },
    log: pino({ level: 'silent' }),
    now: () => new Date(`${DAY}T06:00:00Z`),
  };
  const captureSummary = (await trackPrompts.run(ctx, { brandId: tenant.brandId, date: DAY })) as CaptureSummary;
  t.true(captureSummary.answers > 0);
  const imported = validateAnswer({
    id: randomUUID(),
    prompt_id: tenant.promptIds[0],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: `${DAY}T07:00:00.000Z`,
    text: 'Acme is a CRM.',
    citations: [],
  });
  if (!imported.ok) throw new Error(imported.error);
  await ingestBatch(server.stores, new IngestCache(server.stores), [imported.answer]);

  // Both modes: the simulated engine answers a standard question with a shopping answer now and then.
  const list = async () =>
    (
      await Promise.all(
        ['standard', 'shopping'].map(
          async (mode) =>
            (
              await get(server, `/api/v1/answers?brand_id=${tenant.brandId}&mode=${mode}&limit=100`, tenant.key)
            ).body.answers as any[],
        ),
      )
    ).flat();
  const answers = await list();
  const captured = answers.filter((a) => a.source === 'capture');
  t.is(captured.length, captureSummary.answers);
  for (const a of captured) {
    t.is(a.engine_version, 'simulated/1');
    t.is(a.provider_model, a.model_used);
    // A shopping answer has no analysis rows, so no analysis version.
    if (a.mode === 'shopping') t.is(a.analysis_version, null);
    else t.regex(a.analysis_version, /^gen-\d+$/);
  }
  const analysed = (all: any[]) => all.filter((a) => a.mode !== 'shopping');
  const [file] = answers.filter((a) => a.source === 'import');
  t.like(file, { id: imported.answer.id, provider_model: 'gpt-4o', engine_version: null, source: 'import' });
  const before = file.analysis_version;
  t.true(analysed(captured).every((a) => a.analysis_version === before));
  // Every analytics result lists the analysis versions of the rows behind its figures.
  const summary1 = await get(server, `/api/v1/visibility-summary?brand_id=${tenant.brandId}`, tenant.key);
  t.deepEqual(summary1.body.analysis_versions, [before]);

  // The export carries the same fields.
  const exported = await cli(['export', 'answers', '--brand', tenant.brandId], server.env);
  t.is(exported.code, 0, exported.stderr);
  const line = exported.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((a) => a.id === file.id);
  t.like(line, { provider_model: 'gpt-4o', engine_version: null, analysis_version: before, source: 'import' });

  await startReanalysis(server.stores.pg, tenant.brandId, 'test');
  await reanalyzeBrand(server.stores, tenant.brandId);
  const after = await list();
  const version = after.find((a) => a.id === file.id).analysis_version;
  t.not(version, before);
  t.true(analysed(after).every((a) => a.analysis_version === version));
  const summary2 = await get(server, `/api/mcp/prompt-performance?brand_id=${tenant.brandId}`, tenant.key);
  t.deepEqual(summary2.body.analysis_versions, [version]);
  // The answer's own provenance is untouched by a re-analysis.
  t.like(
    after.find((a) => a.id === file.id),
    { provider_model: 'gpt-4o', engine_version: null, source: 'import' },
  );
});
