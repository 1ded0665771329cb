// Prompt volumes: `answerscope volumes import` (bad lines rejected by line number), the
// analyze-volumes job (idempotent) and GET /prompt-volumes.
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { get, startTestServer, uniq, type TestServer } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';
import { contentSnapshot, runJob, seedContentTenant, type ContentTenant } from './helpers.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

/** Keywords are unique per test (a suffix the prompts do not have) except where a test needs them. */
function volumesFile(lines: string[]): string {
  const file = path.join(server.dataDir, `${uniq('volumes')}.jsonl`);
  fs.writeFileSync(file, lines.join('\n'));
  return file;
}

const volumes = async (t: ContentTenant, query = '') =>
  get(server, `/api/mcp/prompt-volumes?brand_id=${t.brandId}${query}`, t.key);

test.serial('volumes import: good lines imported, bad ones rejected with their line numbers', async (t) => {
  const file = volumesFile([
    JSON.stringify({ keyword: 'Best CRM for Startups', volume: 2400, region: 'us', competition_index: 80 }),
    JSON.stringify({ keyword: 'crm for startups', volume: 1600, competition_index: 60 }),
    '',
    JSON.stringify({ keyword: 'email integration', volume: 900, competition_index: 20, cpc: 3.1 }),
    '{"keyword": "broken",',
    JSON.stringify({ keyword: 'negative', volume: -1 }),
    JSON.stringify({ volume: 10 }),
    JSON.stringify({ keyword: 'crm data', volume: 3e9 }),
    JSON.stringify({ keyword: 'crm data', volume: 5, competition_index: 101 }),
    JSON.stringify(['not', 'an', 'object']),
    JSON.stringify({ keyword: 'migrate crm data', volume: 300, region: 'GB' }),
    JSON.stringify({ keyword: 'migrate crm data', volume: 150 }),
    JSON.stringify({ keyword: 'migrate crm data', volume: 200 }),
  ]);
  const r = await cli(['volumes', 'import', file], server.env);
  t.is(r.code, 0, r.stderr);
  t.is(r.json.read, 12);
  t.is(r.json.imported, 6);
  t.deepEqual(
    r.json.rejected.map((x: any) => x.line),
    [5, 6, 7, 8, 9, 10],
  );
  t.regex(r.json.rejected[0].error, /^not valid JSON/);
  t.deepEqual(
    r.json.rejected.slice(1).map((x: any) => x.error),
    [
      'volume must be an integer from 0 to 2147483647',
      'keyword is required',
      'volume must be an integer from 0 to 2147483647',
      'competition_index must be an integer from 0 to 100',
      'must be a JSON object',
    ],
  );
  const rows = (
    await server.stores.pg.query(
      "SELECT keyword, region, volume, competition_index FROM keyword_volumes WHERE keyword IN ('best crm for startups', 'migrate crm data') ORDER BY keyword, region",
    )
  ).rows;
  t.deepEqual(
    rows,
    [
      { keyword: 'best crm for startups', region: 'US', volume: 2400, competition_index: 80 },
      { keyword: 'migrate crm data', region: '', volume: 200, competition_index: null },
      { keyword: 'migrate crm data', region: 'GB', volume: 300, competition_index: null },
    ],
    'keywords normalised, regions upper-cased, the last line for a keyword wins',
  );

  const again = await cli(['volumes', 'import', file], server.env);
  t.like(again.json, { read: 12, imported: 6 });
  const missing = await cli(['volumes', 'import', path.join(server.dataDir, 'nope.jsonl')], server.env);
  t.not(missing.code, 0);
  t.regex(missing.stderr, /^Cannot read .*nope\.jsonl: ENOENT\n$/);
});

test.serial('analyze-volumes: intent, keywords, Google volumes, estimated AI volume and competition', async (t) => {
  const x = await seedContentTenant(server);
  t.deepEqual((await volumes(x)).body, [], 'prompts without an analysis are not listed');
  t.like(await runJob(server, 'analyze-volumes', x.brandId), { prompts: 5, changed: 5 });
  const rows = (await volumes(x)).body;
  t.deepEqual(
    rows.map((r: any) => r.prompt_text),
    [
      'best crm for startups',
      'crm with email integration',
      'how to migrate crm data',
      'crm onboarding checklist for small teams',
      'crm pricing for small teams',
    ],
  );
  t.deepEqual(Object.keys(rows[0]).sort(), [
    'ai_volume_multiplier',
    'competition',
    'competition_index',
    'est_ai_volume',
    'fetched_at',
    'google_volumes',
    'intent',
    'keywords',
    'prompt_id',
    'prompt_text',
    'total_google_volume',
  ]);
  // US prompt: the US figure of its full phrase and the all-regions figure of "crm for startups".
  t.like(rows[0], {
    prompt_id: x.prompt.startups,
    intent: 'commercial',
    total_google_volume: 4000,
    est_ai_volume: 600,
    ai_volume_multiplier: 0.15,
    competition_index: 72,
    competition: 'high',
  });
  t.deepEqual(rows[0].google_volumes, [
    { keyword: 'best crm for startups', volume: 2400 },
    { keyword: 'crm for startups', volume: 1600 },
  ]);
  t.deepEqual(rows[0].keywords, ['best crm for startups', 'crm for startups', 'best crm', 'crm', 'startups']);
  t.like(rows[1], {
    intent: 'informational',
    total_google_volume: 900,
    est_ai_volume: 135,
    competition_index: 20,
    competition: 'low',
  });
  // No region on the prompt: the brand's (US) has no figure, so the all-regions one counts, not GB's.
  t.like(rows[2], {
    intent: 'informational',
    total_google_volume: 200,
    est_ai_volume: 30,
    competition_index: null,
    competition: null,
  });
  t.like(rows[4], { intent: 'transactional', total_google_volume: 0, est_ai_volume: 0, google_volumes: [] });
  t.true(rows[4].keywords.includes('crm pricing'));

  t.is((await volumes(x, '&limit=2')).body.length, 2);
  t.is((await volumes(x, '&limit=0')).body.length, 1);
  t.is((await volumes(x, '&limit=9999')).body.length, 5);
  const bad = await volumes(x, '&limit=many');
  t.deepEqual([bad.status, bad.body], [400, { error: 'limit must be an integer' }]);
});

test.serial('re-running analyze-volumes changes nothing until the volumes change', async (t) => {
  const x = await seedContentTenant(server);
  await runJob(server, 'analyze-volumes', x.brandId);
  const before = await contentSnapshot(server, x.brandId);
  t.like(await runJob(server, 'analyze-volumes', x.brandId), { changed: 0 });
  t.deepEqual(await contentSnapshot(server, x.brandId), before);

  const r = await cli(
    ['volumes', 'import', volumesFile([JSON.stringify({ keyword: 'crm with email integration', volume: 100 })])],
    server.env,
  );
  t.is(r.code, 0, r.stderr);
  t.like(await runJob(server, 'analyze-volumes', x.brandId), { changed: 1 });
  const after = await contentSnapshot(server, x.brandId);
  const moved = after.volumes.filter(
    (v: any, i: number) => v.fetched_at.getTime() !== before.volumes[i].fetched_at.getTime(),
  );
  t.deepEqual(
    moved.map((v: any) => v.prompt_id),
    [x.prompt.email],
  );
  t.is(moved[0].total_google_volume, 1000);
});

test('the prompt-volumes errors: brand_id required, foreign brand 404', async (t) => {
  const x = await seedContentTenant(server);
  const other = await seedContentTenant(server);
  const missing = await get(server, '/api/mcp/prompt-volumes', x.key);
  t.deepEqual([missing.status, missing.body], [400, { error: 'brand_id is required' }]);
  const foreign = await get(server, `/api/mcp/prompt-volumes?brand_id=${other.brandId}`, x.key);
  t.deepEqual([foreign.status, foreign.body], [404, { error: 'Brand not found' }]);
});
