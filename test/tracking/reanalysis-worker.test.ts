// The background re-analysis as a user meets it: `apply` adds a competitor and says a re-analysis
// was queued; the server's worker runs it; the command line shows its state and runs one at once.
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { get, seedTenant, startTestServer, uniq, type TestServer } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '1000000' });
});
test.after.always(async () => {
  await server?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('apply queues a re-analysis, the worker runs it, the figures follow; the CLI shows and runs it', async (t) => {
  const tenant = await seedTenant(server);
  const file = path.join(server.dataDir, `${uniq('answers')}.jsonl`);
  const answer = {
    prompt_id: tenant.promptIds[0],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: '2026-10-01T06:00:00Z',
    text: 'Zeta CRM first, then Acme.',
    citations: [],
  };
  fs.writeFileSync(file, `${JSON.stringify(answer)}\n`);
  t.is((await cli(['ingest', file], server.env)).json.inserted, 1);

  const workspace = structuredClone(tenant.workspace);
  workspace.organizations[0].brands[0].competitors.push({ name: 'Zeta CRM', domains: [], aliases: [] });
  const wsFile = path.join(server.dataDir, `${uniq('workspace')}.json`);
  fs.writeFileSync(wsFile, JSON.stringify(workspace));
  const applied = await cli(['apply', wsFile], server.env);
  t.is(applied.code, 0, applied.stderr);
  t.true(applied.json.organizations[0].brands[0].reanalysis_queued);

  // The worker polls every 2 s; a re-analysis of one answer is quick. Waits generously, asserts the outcome.
  let status: any;
  for (let i = 0; i < 120; i++) {
    status = (await cli(['reanalyze', 'status', '--brand', tenant.brandId], server.env)).json;
    if (status.reanalyses[0]?.status === 'done') break;
    await sleep(500);
  }
  t.is(status.reanalyses[0].status, 'done');
  t.is(status.reanalyses[0].answers_done, 1);
  const comparison = (await get(server, `/api/v1/competitor-comparison?brand_id=${tenant.brandId}`, tenant.key)).body;
  const zeta = comparison.competitors.find((c: any) => c.name === 'Zeta CRM');
  t.is(zeta.total_mentions, 1);
  t.is(comparison.brand.avg_visibility_score, 67.5); // named second: 100 x (0.6 + 0.15 x 1/2)

  const now = await cli(['reanalyze', '--brand', tenant.brandId], server.env);
  t.is(now.code, 0, now.stderr);
  t.deepEqual(Object.keys(now.json).sort(), ['answers', 'brand_id', 'seconds']);
  t.is(now.json.brand_id, tenant.brandId);
  t.is(now.json.answers, 1);
  const bad = await cli(['reanalyze', '--brand', 'nope'], server.env);
  t.not(bad.code, 0);
  t.regex(bad.stderr, /--brand must be a UUID/);
});
