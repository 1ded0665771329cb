// A competitor added through the API to a brand with history takes its place in every figure of
// that history once the re-analysis it queued has run (docs/workspace.md), and a
// removed one leaves them. The brand holds the golden answer set (test/analytics/golden-data.ts)
// with Globex only; Initech is added with a domain the answers cite (g2.com). The expected figures
// are computed here from the answer texts and citations by a direct reading of the
// definitions of docs/analysis.md and docs/metrics.md, not by the service's analysis code.
// test-process: shared
import test from 'ava';
import { call, ingestLines, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { DAYS, goldenAnswers, WORKSPACE_BRAND } from '../analytics/golden-data.ts';

let server: TestServer;
test.before(async () => {
  // The server's own re-analysis worker runs what the API queues.
  server = await startTestServer({ RATE_LIMIT_MAX: '1000000' });
});
test.after.always(async () => {
  await server?.stop();
});

interface EntityDef {
  name: string;
  aliases: string[];
  domains: string[];
}

const ACME: EntityDef = { name: 'Acme', aliases: ['Acme Inc'], domains: ['acme.example'] };
const GLOBEX: EntityDef = { name: 'Globex', aliases: [], domains: ['globex.example'] };
const INITECH: EntityDef = { name: 'Initech', aliases: ['Initech Corp'], domains: ['initech.example', 'g2.com'] };

type Answer = ReturnType<typeof goldenAnswers>[number];

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The offsets of an entity's matches: its surface forms, longest first, not inside a word. */
function matches(text: string, e: EntityDef): number[] {
  const forms = [e.name, ...e.aliases, ...e.domains].sort((a, b) => b.length - a.length).map(literal);
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${forms.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  return [...text.matchAll(re)].map((m) => m.index!);
}

const host = (url: string) => new URL(url).hostname.toLowerCase().replace(/^www\./, '');
const owns = (e: EntityDef, url: string) => e.domains.some((d) => host(url) === d || host(url).endsWith(`.${d}`));

/** Each entity's per-answer figures in one answer: mentions, citations, position (0: not named). */
function perAnswer(a: Answer, entities: EntityDef[]) {
  const found = entities.map((e) => ({ e, at: matches(a.text, e) }));
  const named = found.filter((f) => f.at.length).sort((x, y) => x.at[0] - y.at[0]);
  const urls = [...new Set(a.citations.map((c) => c.url.replace(/\?.*$/, '')))];
  return found.map(({ e, at }) => {
    const position = named.findIndex((f) => f.e === e) + 1;
    const citations = urls.filter((u) => owns(e, u)).length;
    const score = 100 * (0.6 * (at.length ? 1 : 0) + 0.25 * (citations ? 1 : 0) + 0.15 * (position ? 1 / position : 0));
    return { name: e.name, mentions: at.length, citations, position, score };
  });
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** competitor-comparison's figures of each competitor over `answers`, from the definitions. */
function expectedCompetitors(answers: Answer[], competitors: EntityDef[]) {
  const rows = answers.map((a) => perAnswer(a, [ACME, ...competitors]));
  const n = answers.length;
  return competitors
    .map((c) => {
      const mine = rows.map((r) => r.find((x) => x.name === c.name)!);
      const named = mine.filter((x) => x.mentions > 0);
      const cited = mine.filter((x) => x.citations > 0).length;
      const positionFactor = named.length ? named.reduce((s, x) => s + 1 / x.position, 0) / named.length : 0;
      return {
        name: c.name,
        total_mentions: mine.reduce((s, x) => s + x.mentions, 0),
        total_citations: mine.reduce((s, x) => s + x.citations, 0),
        appearance_count: named.length,
        avg_visibility_score: round1(mine.reduce((s, x) => s + x.score, 0) / n),
        ai_visibility_score: round1(100 * (0.6 * (named.length / n) + 0.25 * (cited / n) + 0.15 * positionFactor)),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

async function comparison(t: Tenant, query = '') {
  const r = await call(server, 'GET', `/api/mcp/competitor-comparison?brand_id=${t.brandId}${query}`, { key: t.key });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  const competitors = r.body.competitors
    .map((c: any) => ({
      name: c.name,
      total_mentions: c.total_mentions,
      total_citations: c.total_citations,
      appearance_count: c.appearance_count,
      avg_visibility_score: c.avg_visibility_score,
      ai_visibility_score: c.ai_visibility_score,
    }))
    .sort((a: any, b: any) => a.name.localeCompare(b.name));
  return { competitors, competitorMentions: r.body.share_of_voice.total_competitor_mentions as number };
}

/** Polls the brand's re-analysis status until it is idle again after `since` (or fails the test). */
async function reanalysed(t: Tenant, since: string | null) {
  const deadline = Date.now() + 300_000;
  const seen = new Set<string>();
  for (;;) {
    const r = await call(server, 'GET', `/api/mcp/brands/${t.brandId}/reanalysis`, { key: t.key });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    seen.add(r.body.state);
    if (r.body.state === 'failed') throw new Error(`re-analysis failed: ${r.body.error}`);
    if (r.body.state === 'running' && (r.body.progress < 0 || r.body.progress > 100)) throw new Error('bad progress');
    if (r.body.state === 'idle' && r.body.last_finished_at && r.body.last_finished_at !== since) return r.body;
    if (Date.now() > deadline) throw new Error(`still ${r.body.state} after 5 minutes (seen ${[...seen]})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test('a competitor added through the API counts over all history after re-analysis, and leaves it when removed', async (t) => {
  const tenant = await seedTenant(server, [{ ...WORKSPACE_BRAND, competitors: [WORKSPACE_BRAND.competitors[0]] }]);
  const answers = goldenAnswers(tenant.promptIds);
  await ingestLines(server, answers);
  const standard = answers.filter((a) => a.mode === 'standard');
  const day = (d: string) => standard.filter((a) => a.collected_at.startsWith(d));
  t.is(standard.length, 24);

  const before = await comparison(tenant);
  t.deepEqual(before.competitors, expectedCompetitors(standard, [GLOBEX]));
  const idle = await call(server, 'GET', `/api/mcp/brands/${tenant.brandId}/reanalysis`, { key: tenant.key });
  t.deepEqual(idle.body, {
    brand_id: tenant.brandId,
    state: 'idle',
    progress: null,
    error: null,
    reason: null,
    last_finished_at: null,
  });

  const added = await call(server, 'POST', '/api/mcp/competitors', {
    key: tenant.key,
    body: { brand_id: tenant.brandId, ...INITECH },
  });
  t.is(added.status, 200, JSON.stringify(added.body));
  t.like(added.body, { name: 'Initech', domains: INITECH.domains, aliases: INITECH.aliases, reanalysis_queued: true });
  const first = await reanalysed(tenant, null);
  t.is(first.reason, null);

  // Every figure of both competitors, over all history and over each day, as the definitions give them.
  const after = await comparison(tenant);
  const expected = expectedCompetitors(standard, [GLOBEX, INITECH]);
  t.deepEqual(after.competitors, expected);
  t.true(expected.find((c) => c.name === 'Initech')!.total_citations > 0, 'the test data cites Initech');
  for (const d of DAYS)
    t.deepEqual(
      (await comparison(tenant, `&date_from=${d}&date_to=${d}`)).competitors,
      expectedCompetitors(day(d), [GLOBEX, INITECH]),
      d,
    );
  t.is(
    after.competitorMentions,
    expected.reduce((s, c) => s + c.total_mentions, 0),
  );
  const citations = await call(server, 'GET', `/api/mcp/citations?brand_id=${tenant.brandId}&limit=200`, {
    key: tenant.key,
  });
  t.is(citations.body.top_domains.find((d: any) => d.domain === 'g2.com').category, 'competitor');

  const removed = await call(server, 'DELETE', `/api/mcp/competitors/${added.body.id}`, { key: tenant.key });
  t.deepEqual(removed.body, { id: added.body.id, removed: true, reanalysis_queued: true });
  await reanalysed(tenant, first.last_finished_at);
  const gone = await comparison(tenant);
  t.deepEqual(gone.competitors, expectedCompetitors(standard, [GLOBEX]));
  t.deepEqual(gone, before);
  const cited = await call(server, 'GET', `/api/mcp/citations?brand_id=${tenant.brandId}&limit=200`, {
    key: tenant.key,
  });
  t.is(cited.body.top_domains.find((d: any) => d.domain === 'g2.com').category, 'review');
});
