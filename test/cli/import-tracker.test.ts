// `answerscope import-tracker`: another tool's CSV read through a column mapping, its answers stored
// apart from the figures, a bad line listed and the rest imported, a missing column refused before
// anything is stored, an import run twice storing nothing twice, and the agreement report (the
// command's and the import-agreement operation's) worked by hand.
// test-process: shared
// test-weight: 6
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { get, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';
import { IngestCache, ingestBatch } from '../../src/tracking/ingest/batch.ts';
import { validateAnswer } from '../../src/tracking/ingest/answer-schema.ts';
import { SOURCE_INVALID, SOURCE_UNKNOWN } from '../../src/operations/params.ts';
import { connect } from '../mcp/client.ts';
import { reanalyzeBrand } from '../../src/tracking/reanalysis/reanalyze.ts';
import { startReanalysis } from '../../src/tenancy/reanalysis-queue.ts';

let server: TestServer;
let tenant: Tenant;
let dir: string;

const MAP = 'text=Answer,platform=Engine,date=Day,prompt=Query,mentioned=Brand mentioned,position=Rank,cited=Cited';
// Line 1 is the header. Lines 2-5 are read; 6 has a reading that is not yes/no, 7 a prompt the brand
// does not track. The tool's readings against what Answerscope finds in the same texts:
//   2: named first, not cited            tool: yes, 1, no    Answerscope: yes, 1, no
//   3: named second, after Globex        tool: yes, 1, no    Answerscope: yes, 2, no   (position differs)
//   4: only Globex                       tool: yes, -, no    Answerscope: no, -, no    (mentioned differs)
//   5: no one named                      tool: no,  -, no    Answerscope: no, -, no
const CSV = `Answer,Engine,Day,Query,Brand mentioned,Rank,Cited,Extra
"Acme is the CRM most startups pick, says the ""review"".",ChatGPT,2026-11-02,Best CRM for startups,Yes,1,No,x
Globex leads the market; Acme follows closely.,perplexity,2026-11-02T08:00:00Z,best crm for startups,true,1,0,x
Globex is the one to buy.,Google AI Overviews,2026-11-03,best crm for startups,1,,false,x
Spreadsheets are enough for most.,chatgpt,2026-11-03,best crm for startups,no,,no,x
Acme again.,chatgpt,2026-11-04,best crm for startups,maybe,,no,x
Acme elsewhere.,chatgpt,2026-11-04,best crm for enterprises,yes,1,no,x
`;

test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  tenant = await seedTenant(server);
  dir = fs.mkdtempSync(path.join(server.dataDir, 'import-'));
  fs.writeFileSync(path.join(dir, 'other.csv'), CSV);
  // One answer of Answerscope's own, so the figures have something to keep.
  const own = validateAnswer({
    id: randomUUID(),
    prompt_id: tenant.promptIds[0],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: '2026-11-02T06:00:00.000Z',
    text: 'Acme is fine.',
    citations: [],
  });
  if (!own.ok) throw new Error(own.error);
  await ingestBatch(server.stores, new IngestCache(server.stores), [own.answer]);
});
test.after.always(async () => {
  await server?.stop();
});

const importArgs = (source: string, map = MAP, brandId = tenant.brandId) => [
  'import-tracker',
  path.join(dir, 'other.csv'),
  '--brand',
  brandId,
  '--format',
  source,
  '--map',
  map,
];

/** Live answers stored with the source, and their readings. */
async function stored(source: string) {
  const [{ n }] = await server.stores.ch.system<{ n: number }>(
    'SELECT sum(sign) AS n FROM answers WHERE brand_id = {b:UUID} AND source = {s:String}',
    { b: tenant.brandId, s: source },
  );
  // The brand's own: other files of a shared test process import under the same tracker names.
  const { rows } = await server.stores.pg.query(
    'SELECT count(*)::int AS n FROM tracker_readings WHERE brand_id = $1 AND source = $2',
    [tenant.brandId, source],
  );
  return { answers: Number(n), readings: rows[0].n };
}

test('an import: bad lines listed, the rest stored apart from the figures, the agreement worked by hand', async (t) => {
  const summary = async () =>
    (await get(server, `/api/v1/visibility-summary?brand_id=${tenant.brandId}`, tenant.key)).body.totals;
  const before = await summary();
  const r = await cli(importArgs('othertool'), server.env);
  t.is(r.code, 0, r.stderr);
  const { import: result, agreement } = r.json;
  t.deepEqual(result, {
    source: 'othertool',
    lines: 6,
    imported: 4,
    unreadable: [
      { line: 6, reason: 'mentioned must be true/false, yes/no or 1/0, got "maybe"' },
      { line: 7, reason: `prompt "best crm for enterprises" is not one of the brand's prompts` },
    ],
  });
  // Mentioned: tool yes on 3 of 4, Answerscope on 2; alike on 3 (75%); pe = 0.75 x 0.5 + 0.25 x 0.5
  // = 0.5, kappa = (0.75 - 0.5) / 0.5 = 0.5. Positions where both gave one: (1, 1), (1, 2): MAD 0.5.
  // Cited: both say no to all four: 100% alike, no kappa.
  t.deepEqual(agreement.readings.mentioned, {
    answers: 4,
    tool: 75,
    answerscope: 50,
    agreement_pct: 75,
    kappa: 0.5,
  });
  t.deepEqual(agreement.readings.position, { answers: 2, tool: 1, answerscope: 1.5, mean_absolute_difference: 0.5 });
  t.deepEqual(agreement.readings.cited, { answers: 4, tool: 0, answerscope: 0, agreement_pct: 100, kappa: null });
  t.is(agreement.answers, 4);
  t.deepEqual(
    agreement.disagreements.map((d: any) => [d.line, d.differ]),
    [
      [3, ['position']],
      [4, ['mentioned']],
    ],
  );
  t.like(agreement.disagreements[1], {
    platform: 'google_ai_overviews',
    tool: { mentioned: true, position: null, cited: false },
    answerscope: { mentioned: false, position: null, cited: false },
  });
  t.deepEqual(await stored('othertool'), { answers: 4, readings: 4 });

  // Kept out of the figures and the answers list.
  t.deepEqual(await summary(), before);
  const listed = await get(server, `/api/v1/answers?brand_id=${tenant.brandId}`, tenant.key);
  t.is(listed.body.answers.length, 1);

  // The operation gives the same report.
  const op = await get(server, `/api/mcp/import-agreement?brand_id=${tenant.brandId}&source=othertool`, tenant.key);
  t.is(op.status, 200);
  t.deepEqual(op.body, agreement);

  // Run again: nothing is stored twice.
  const again = await cli(importArgs('othertool'), server.env);
  t.is(again.code, 0, again.stderr);
  t.is(again.json.import.imported, 4);
  t.deepEqual(await stored('othertool'), { answers: 4, readings: 4 });
  t.deepEqual(again.json.agreement, agreement);
});

test('a mapped column the file lacks is refused before anything is stored, naming the column', async (t) => {
  const r = await cli(importArgs('thirdtool', `${MAP},sentiment=Tone`), server.env);
  t.is(r.code, 1);
  t.is(r.stderr, 'The file has no column "Tone" (field sentiment); nothing was imported\n');
  const missingText = await cli(importArgs('thirdtool', MAP.replace('text=Answer', 'text=Body')), server.env);
  t.is(missingText.stderr, 'The file has no column "Body" (field text); nothing was imported\n');
  t.deepEqual(await stored('thirdtool'), { answers: 0, readings: 0 });
  const bad = await cli(importArgs('Capture'), server.env);
  t.is(bad.code, 1);
  t.regex(bad.stderr, /^--format must be a lower-case slug/);
  const op = await get(server, `/api/mcp/import-agreement?brand_id=${tenant.brandId}&source=Bad%20Name`, tenant.key);
  t.deepEqual([op.status, op.body], [400, { error: SOURCE_INVALID }]);
});

test('a figure counts the imported answers only when source names their tool, hand-computed', async (t) => {
  const r = await cli(importArgs('figuretool'), server.env);
  t.is(r.code, 0, r.stderr);
  const versions: Record<string, string[]> = {};
  const summary = async (query = '') => {
    const res = await get(server, `/api/v1/visibility-summary?brand_id=${tenant.brandId}${query}`, tenant.key);
    t.is(res.status, 200, JSON.stringify(res.body));
    versions[query] = res.body.analysis_versions;
    return res.body.totals;
  };
  // Without source: Answerscope's one answer ("Acme is fine."), which names the brand: 1 of 1.
  const own = { resultCount: 1, mentionAnswers: 1, totalMentions: 1, positionFactor: 1 };
  t.like(await summary(), own);
  t.like(await summary('&source=import'), own);
  t.like(await summary('&source=capture'), { resultCount: 0, mentionAnswers: 0 });
  // The tool's four answers as Answerscope reads them: line 2 names Acme first, line 3 second (after
  // Globex), lines 4 and 5 not at all: 2 of 4 name it, once each, position factor (1/1 + 1/2) / 2.
  const tool = { resultCount: 4, mentionAnswers: 2, totalMentions: 2, positionFactor: 0.75 };
  t.like(await summary('&source=figuretool'), tool);
  // A whole day (which rollups answer without source): 2026-11-02 holds lines 2 and 3, both naming Acme.
  t.like(await summary('&source=figuretool&date_from=2026-11-02&date_to=2026-11-02'), { ...tool, resultCount: 2 });
  // The imported answers keep the analysis of their import, which their figures say.
  t.deepEqual(versions['&source=figuretool'], ['import']);
  t.deepEqual(versions['&source=capture'], ['gen-0']);
  // The answers list follows the same filter (in text order here: two answers share an instant).
  const listed = await get(server, `/api/v1/answers?brand_id=${tenant.brandId}&source=figuretool`, tenant.key);
  t.deepEqual(listed.body.answers.map((a: any) => [a.text.slice(0, 12), a.source, a.analysis_version]).sort(), [
    ['Acme is the ', 'figuretool', 'import'],
    ['Globex is th', 'figuretool', 'import'],
    ['Globex leads', 'figuretool', 'import'],
    ['Spreadsheets', 'figuretool', 'import'],
  ]);
  // Every figure taking the filters reads by source (none may fall back to a rollup, which keeps no source).
  const figures = [
    'visibility-trend',
    'competitor-comparison',
    'citations',
    'visibility-confidence',
    'visibility-change',
    'citation-gap',
    'entity-trend',
    'untracked-brands',
    'search-queries',
    'sentiment',
    'prompt-performance',
  ];
  for (const name of figures) {
    const range = '&date_from=2026-11-01&date_to=2026-11-30';
    const res = await get(server, `/api/v1/${name}?brand_id=${tenant.brandId}&source=figuretool${range}`, tenant.key);
    t.is(res.status, 200, `${name}: ${JSON.stringify(res.body)}`);
  }
  // A whole month, which prompt_monthly answers without source: the tool's 4 answers, 2 naming Acme.
  const performance = await get(
    server,
    `/api/v1/prompt-performance?brand_id=${tenant.brandId}&source=figuretool&date_from=2026-11-01&date_to=2026-11-30`,
    tenant.key,
  );
  t.deepEqual(
    performance.body.prompts.map((r: any) => [r.prompt_text.toLowerCase(), r.result_count, r.mention_rate]),
    [['best crm for startups', 4, 50]],
  );
  // A name no import used, and one that is not a source's name: 400s naming the parameter.
  const unknown = await get(server, `/api/v1/visibility-summary?brand_id=${tenant.brandId}&source=nobody`, tenant.key);
  t.deepEqual([unknown.status, unknown.body], [400, { error: SOURCE_UNKNOWN }]);
  const bad = await get(server, `/api/mcp/answers?brand_id=${tenant.brandId}&source=Figure%20Tool`, tenant.key);
  t.deepEqual([bad.status, bad.body], [400, { error: SOURCE_INVALID }]);
});

test('import-agreement answers alike on REST, the Metrics API and MCP; another organization gets 404', async (t) => {
  const r = await cli(importArgs('surfacetool'), server.env);
  t.is(r.code, 0, r.stderr);
  const query = `brand_id=${tenant.brandId}&source=surfacetool&limit=1`;
  const rest = await get(server, `/api/mcp/import-agreement?${query}`, tenant.key);
  const metrics = await get(server, `/api/v1/import-agreement?${query}`, tenant.key);
  t.is(rest.status, 200);
  t.deepEqual(metrics.body, rest.body);
  t.is(rest.body.disagreements.length, 1);
  t.is(rest.body.disagreements_total, 2);
  const client = await connect(server, tenant.key);
  const args = { brand_id: tenant.brandId, source: 'surfacetool', limit: 1 };
  const tool: any = await client.callTool({ name: 'get_import_agreement', arguments: args });
  t.deepEqual(tool.structuredContent, rest.body);
  // Another organization's key, naming this brand: the brand is not found on every surface.
  const other = await seedTenant(server);
  const theirs = await get(server, `/api/v1/import-agreement?${query}`, other.key);
  t.deepEqual([theirs.status, theirs.body], [404, { error: 'Brand not found' }]);
  const theirsRest = await get(server, `/api/mcp/import-agreement?${query}`, other.key);
  t.is(theirsRest.status, 404);
  const otherClient = await connect(server, other.key);
  const theirTool: any = await otherClient.callTool({ name: 'get_import_agreement', arguments: args });
  t.true(theirTool.isError);
  t.is(theirTool.content[0].text, 'Brand not found');
  await client.close();
  await otherClient.close();
});

test("a re-analysis leaves the imported answers' analysis, so their figures stay", async (t) => {
  const own = await seedTenant(server);
  const r = await cli(importArgs('keptool', MAP, own.brandId), server.env);
  t.is(r.code, 0, r.stderr);
  const summary = async () =>
    (await get(server, `/api/v1/visibility-summary?brand_id=${own.brandId}&source=keptool`, own.key)).body;
  const before = await summary();
  t.like(before.totals, { resultCount: 4, mentionAnswers: 2 });
  await startReanalysis(server.stores.pg, own.brandId, 'test');
  await reanalyzeBrand(server.stores, own.brandId);
  // The old generation is deleted in the background: wait until the deletes have run.
  for (;;) {
    const pending = await server.stores.ch.system<{ n: number }>(
      'SELECT count() AS n FROM system.mutations WHERE database = currentDatabase() AND is_done = 0',
      {},
    );
    if (Number(pending[0].n) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const live = await get(server, `/api/v1/visibility-summary?brand_id=${own.brandId}`, own.key);
  t.deepEqual(live.body.analysis_versions, ['gen-1']);
  t.deepEqual(await summary(), before);
});
