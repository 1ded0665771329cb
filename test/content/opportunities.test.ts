// Content opportunities end to end: the generate-opportunities job on real tracking data, the list,
// the single read, every status transition of docs/api.md section 24 with the opportunity.sent event, briefs and
// drafts with their errors, and the monthly quotas (including concurrent requests at the edge).
// test-process: shared
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { call, get, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { contentSnapshot, ingest, runJob, seedContentTenant, trackingAnswers, type ContentTenant } from './helpers.ts';
import { Brief, Draft } from '../../src/content/schemas.ts';
import { isArticleWithFaqJsonLd } from '../../src/content/jsonld.ts';
import { quotaPeriod } from '../../src/tenancy/quotas.ts';
import { connect } from '../mcp/client.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_URLS: '1' });
});
test.after.always(async () => {
  await server?.stop();
});

async function tenantWithOpportunities(plan = 'growth'): Promise<ContentTenant> {
  const t = await seedContentTenant(server, plan);
  await ingest(server, trackingAnswers(t));
  await runJob(server, 'generate-opportunities', t.brandId);
  return t;
}

const list = async (t: ContentTenant, query = '') =>
  get(server, `/api/mcp/content-opportunities?brand_id=${t.brandId}${query}`, t.key);

async function opportunityOf(t: ContentTenant, prompt: keyof ContentTenant['prompt'], type: 'owned' | 'earned') {
  const r = await list(t);
  const found = r.body.find((o: any) => o.prompt_id === t.prompt[prompt] && o.type === type);
  if (!found) throw new Error(`no ${type} opportunity for ${prompt}: ${JSON.stringify(r.body)}`);
  return found;
}

const setQuota = (t: ContentTenant, kind: 'briefs' | 'drafts', limit: number, used = 0) =>
  Promise.all([
    server.stores.pg.query(`UPDATE organizations SET quota_${kind} = $2 WHERE id = $1`, [t.organizationId, limit]),
    used > 0 &&
      server.stores.pg.query(
        `INSERT INTO quota_usage (organization_id, kind, period, used) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization_id, kind, period) DO UPDATE SET used = EXCLUDED.used`,
        [t.organizationId, kind, quotaPeriod(), used],
      ),
  ]);

const quotaUsed = async (t: ContentTenant, kind: string) =>
  Number(
    (
      await server.stores.pg.query(
        'SELECT used FROM quota_usage WHERE organization_id = $1 AND kind = $2 AND period = $3',
        [t.organizationId, kind, quotaPeriod()],
      )
    ).rows[0]?.used ?? 0,
  );

test('the job finds owned and earned opportunities where competitors win and the brand is absent', async (t) => {
  const x = await tenantWithOpportunities();
  const r = await list(x);
  t.is(r.status, 200);
  const kinds = r.body
    .map((o: any) => `${Object.entries(x.prompt).find(([, id]) => id === o.prompt_id)![0]}:${o.type}`)
    .sort();
  t.deepEqual(kinds, ['email:earned', 'migrate:owned', 'startups:earned', 'startups:owned']);
  const scores = r.body.map((o: any) => o.opportunity_score);
  t.deepEqual(
    scores,
    [...scores].sort((a: number, b: number) => b - a),
    'sorted by score, highest first',
  );
  for (const o of r.body) {
    t.deepEqual(Object.keys(o).sort(), [
      'created_at',
      'description',
      'has_brief',
      'id',
      'impact',
      'opportunity_score',
      'prompt_id',
      'prompt_text',
      'status',
      'title',
      'type',
      'updated_at',
    ]);
    t.is(o.status, 'new');
    t.false(o.has_brief);
    t.true(o.opportunity_score >= 0 && o.opportunity_score <= 100);
    t.is(o.impact, o.opportunity_score >= 60 ? 'high' : o.opportunity_score >= 35 ? 'medium' : 'low');
  }

  // startups: 4 answers, Globex named in 3 at position 1 (and in the 4th, second), cited in 2; Acme
  // named in 1 at position 1. Gap answers: 3. No volume data: volume signal 0.5.
  const one = await get(
    server,
    `/api/mcp/content-opportunities/${(await opportunityOf(x, 'startups', 'owned')).id}`,
    x.key,
  );
  t.is(one.status, 200);
  const sd = one.body.source_data;
  t.is(sd.answers, 4);
  t.is(sd.gap_answers, 3);
  // Acme: 100 x (0.6 x 1/4 + 0.15 x 1) = 30 (the position factor is over the answers naming it).
  t.like(sd.brand, { name: 'Acme', named: 1, cited: 0, visibility_score: 30 });
  t.like(sd.competitors[0], { name: 'Globex', named: 4, cited: 2 });
  // Globex: 100 x (0.6 x 4/4 + 0.25 x 2/4 + 0.15 x (1+1+1+1/2)/4) = 60 + 12.5 + 13.125 = 85.6
  t.is(sd.competitors[0].visibility_score, 85.6);
  t.like(sd.score, { volume: 0.5, gap: 0.556, presence: 0.75 });
  // 100 x (0.3 x 0.5 + 0.4 x 0.556 + 0.3 x 0.75) = 15 + 22.24 + 22.5 = 59.7
  t.is(one.body.opportunity_score, 59.7);
  t.is(one.body.impact, 'medium');
  t.is(one.body.brief, null);
  t.deepEqual(sd.citations.top_domains.map((d: any) => d.domain).sort(), ['g2.com', 'globex.example']);
  t.regex(one.body.title, /best crm for startups/);
  t.regex(one.body.description, /Globex/);
});

test('re-running the job on unchanged data changes nothing; open ones are refreshed, dismissed ones never return', async (t) => {
  const x = await tenantWithOpportunities();
  const before = await contentSnapshot(server, x.brandId);
  const again = await runJob(server, 'generate-opportunities', x.brandId);
  t.like(again, { created: 0, updated: 0 });
  t.deepEqual(await contentSnapshot(server, x.brandId), before);

  const dismissed = await opportunityOf(x, 'migrate', 'owned');
  const done = await opportunityOf(x, 'email', 'earned');
  await call(server, 'PATCH', `/api/mcp/content-opportunities/${dismissed.id}/status`, {
    key: x.key,
    body: { status: 'dismissed' },
  });
  await call(server, 'PATCH', `/api/mcp/content-opportunities/${done.id}/status`, {
    key: x.key,
    body: { status: 'done' },
  });
  t.like(await runJob(server, 'generate-opportunities', x.brandId), { created: 0 });
  t.is((await list(x)).body.length, 4);

  // New answers move the figures of the open ones; no duplicate is made for an open prompt and type.
  await ingest(
    server,
    trackingAnswers(x)
      .slice(0, 2)
      .map((a) => ({ ...a, collected_at: '2026-03-09T09:00:00Z' })),
  );
  const r = await runJob(server, 'generate-opportunities', x.brandId);
  t.like(r, { created: 0, updated: 2 });
  t.is((await list(x)).body.length, 4);
});

test('list filters and limits; a bad filter is a 400 naming its values', async (t) => {
  const x = await tenantWithOpportunities();
  t.deepEqual(
    (await list(x, '&type=earned')).body.map((o: any) => o.type),
    ['earned', 'earned'],
  );
  t.is((await list(x, '&type=owned&limit=1')).body.length, 1);
  t.is((await list(x, '&limit=0')).body.length, 1, 'limit is clamped to 1');
  t.is((await list(x, '&limit=1000')).body.length, 4);
  t.is((await list(x, '&status=done')).body.length, 0);
  const high = (await list(x, '&impact=high')).body;
  t.true(high.every((o: any) => o.impact === 'high'));
  for (const [q, message] of [
    ['&status=archived', 'status must be one of: new, sent, in_progress, done, dismissed'],
    ['&impact=huge', 'impact must be one of: high, medium, low'],
    ['&type=paid', 'type must be one of: owned, earned'],
  ]) {
    const bad = await list(x, q);
    t.deepEqual([bad.status, bad.body], [400, { error: message }], q);
  }
  const noBrand = await get(server, '/api/mcp/content-opportunities', x.key);
  t.deepEqual([noBrand.status, noBrand.body], [400, { error: 'brand_id is required' }]);
  const other = await seedTenant(server);
  const foreign = await get(server, `/api/mcp/content-opportunities?brand_id=${other.brandId}`, x.key);
  t.deepEqual([foreign.status, foreign.body], [404, { error: 'Brand not found' }]);
});

test('unknown, malformed and foreign opportunity ids are 404 Content opportunity not found everywhere', async (t) => {
  const x = await tenantWithOpportunities();
  const other = await seedContentTenant(server);
  const mine = await opportunityOf(x, 'startups', 'owned');
  for (const id of [randomUUID(), 'not-a-uuid', mine.id]) {
    const key = id === mine.id ? other.key : x.key;
    for (const [method, suffix, body] of [
      ['GET', ''],
      ['POST', '/brief'],
      ['POST', '/draft'],
      ['PATCH', '/status', { status: 'done' }],
    ] as const) {
      const r = await call(server, method, `/api/mcp/content-opportunities/${id}${suffix}`, { key, body });
      t.deepEqual([r.status, r.body], [404, { error: 'Content opportunity not found' }], `${method} ${id}${suffix}`);
    }
  }
  t.is(await quotaUsed(other, 'briefs'), 0, 'a 404 uses no quota');
  t.is(
    (await get(server, `/api/mcp/content-opportunities/${mine.id}`, x.key)).body.status,
    'new',
    'the foreign PATCH changed nothing',
  );
});

test('PATCH status: any of the five values from any state; updated_at moves; other values are 400', async (t) => {
  const x = await tenantWithOpportunities();
  const o = await opportunityOf(x, 'startups', 'earned');
  let last = o.updated_at;
  for (const status of ['sent', 'in_progress', 'done', 'dismissed', 'new', 'done', 'sent', 'sent', 'new']) {
    const r = await call(server, 'PATCH', `/api/mcp/content-opportunities/${o.id}/status`, {
      key: x.key,
      body: { status },
    });
    t.is(r.status, 200, status);
    t.deepEqual(Object.keys(r.body).sort(), ['id', 'status', 'updated_at']);
    t.like(r.body, { id: o.id, status });
    t.true(Date.parse(r.body.updated_at) > Date.parse(last), `updated_at moves on ${status}`);
    last = r.body.updated_at;
    t.is((await get(server, `/api/mcp/content-opportunities/${o.id}`, x.key)).body.status, status);
  }
  for (const body of [{ status: 'archived' }, {}, { status: 'SENT' }, { status: 3 }]) {
    const r = await call(server, 'PATCH', `/api/mcp/content-opportunities/${o.id}/status`, { key: x.key, body });
    t.deepEqual(
      [r.status, r.body],
      [400, { error: 'status must be one of: new, sent, in_progress, done, dismissed' }],
      JSON.stringify(body),
    );
  }
  t.is(
    (await get(server, `/api/mcp/content-opportunities/${o.id}`, x.key)).body.status,
    'new',
    'unchanged after the 400s',
  );
});

test('a change to sent queues exactly one opportunity.sent event carrying the single read, in the same transaction', async (t) => {
  const x = await tenantWithOpportunities();
  await server.stores.pg.query(
    `INSERT INTO webhook_endpoints (id, organization_id, url, events, secret) VALUES ($1, $2, 'http://127.0.0.1:9/hook', '{opportunity.sent}', 'whsec_dGVzdA==')`,
    [randomUUID(), x.organizationId],
  );
  const o = await opportunityOf(x, 'startups', 'owned');
  const events = async () =>
    (
      await server.stores.pg.query(
        `SELECT d.body FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE e.organization_id = $1 AND d.event_type = 'opportunity.sent' ORDER BY d.created_at`,
        [x.organizationId],
      )
    ).rows.map((r) => JSON.parse(r.body));
  const patch = (status: string) =>
    call(server, 'PATCH', `/api/mcp/content-opportunities/${o.id}/status`, { key: x.key, body: { status } });

  await patch('in_progress');
  t.is((await events()).length, 0);
  const sent = await patch('sent');
  t.is((await events()).length, 1);
  await patch('sent');
  t.is((await events()).length, 1, 'sent again emits nothing');
  await patch('done');
  await patch('sent');
  const all = await events();
  t.is(all.length, 2, 'a later change to sent emits again');
  const event = all[0];
  t.is(event.type, 'opportunity.sent');
  const read = (await get(server, `/api/mcp/content-opportunities/${o.id}`, x.key)).body;
  t.deepEqual(event.data, { ...read, updated_at: sent.body.updated_at, status: 'sent' });
});

test('brief: always fresh, replaces the saved one; draft needs a brief; both validate against the schemas', async (t) => {
  const x = await tenantWithOpportunities();
  const o = await opportunityOf(x, 'startups', 'owned');
  const url = `/api/mcp/content-opportunities/${o.id}`;

  const noBrief = await call(server, 'POST', `${url}/draft`, { key: x.key });
  t.deepEqual(
    [noBrief.status, noBrief.body],
    [400, { error: 'Generate a content brief before generating the full draft.' }],
  );
  t.is(await quotaUsed(x, 'drafts'), 0, 'the refused draft used no quota');

  const first = await call(server, 'POST', `${url}/brief`, { key: x.key });
  t.is(first.status, 200);
  t.deepEqual(Object.keys(first.body).sort(), ['brief', 'generated_at', 'id', 'regenerated']);
  t.like(first.body, { id: o.id, regenerated: false });
  t.true(Brief.safeParse(first.body.brief).success);
  t.deepEqual(Object.keys(first.body.brief).sort(), [
    'callToAction',
    'competitorInsights',
    'contentType',
    'outline',
    'suggestedTitle',
    'targetKeywords',
    'targetWordCount',
  ]);
  t.regex(first.body.brief.competitorInsights, /Globex is named in 4/);
  t.is(first.body.brief.contentType, 'listicle');

  const read = (await get(server, url, x.key)).body;
  t.deepEqual(read.brief, first.body.brief);
  t.true(read.has_brief);

  const second = await call(server, 'POST', `${url}/brief`, { key: x.key });
  t.like(second.body, { id: o.id, regenerated: true });
  t.true(Date.parse(second.body.generated_at) >= Date.parse(first.body.generated_at));
  t.is(await quotaUsed(x, 'briefs'), 2, 'each brief uses one unit');

  const draft = await call(server, 'POST', `${url}/draft`, { key: x.key });
  t.is(draft.status, 200);
  t.deepEqual(Object.keys(draft.body).sort(), ['content', 'generated_at', 'id', 'regenerated']);
  t.like(draft.body, { id: o.id, regenerated: false });
  const parsed = Draft.safeParse(draft.body.content);
  t.true(parsed.success, JSON.stringify(parsed.error?.issues));
  t.deepEqual(Object.keys(draft.body.content).sort(), [
    'contentHtml',
    'faqs',
    'keyTakeaways',
    'metaDescription',
    'metaTitle',
    'slug',
    'structuredDataJsonLd',
    'title',
  ]);
  t.true(isArticleWithFaqJsonLd(draft.body.content.structuredDataJsonLd));
  t.is((await call(server, 'POST', `${url}/draft`, { key: x.key })).body.regenerated, true);
  t.is(await quotaUsed(x, 'drafts'), 2);
});

test('402 at the monthly limit names it; an override replaces the plan value', async (t) => {
  const x = await tenantWithOpportunities('starter');
  const o = await opportunityOf(x, 'startups', 'owned');
  const url = `/api/mcp/content-opportunities/${o.id}`;
  await setQuota(x, 'briefs', 10, 10);
  await server.stores.pg.query('UPDATE organizations SET quota_briefs = NULL WHERE id = $1', [x.organizationId]);
  const full = await call(server, 'POST', `${url}/brief`, { key: x.key });
  t.deepEqual(
    [full.status, full.body],
    [402, { error: 'Monthly content brief limit reached (10 on the starter plan)' }],
  );
  t.is((await get(server, url, x.key)).body.brief, null);

  await setQuota(x, 'briefs', 11);
  t.is((await call(server, 'POST', `${url}/brief`, { key: x.key })).status, 200);
  await setQuota(x, 'drafts', 0);
  const noDraft = await call(server, 'POST', `${url}/draft`, { key: x.key });
  t.is(noDraft.status, 402);
  t.regex(noDraft.body.error, /^Monthly content draft limit reached \(0 on /);
});

test('concurrent briefs at the quota edge: exactly one succeeds, the rest get 402', async (t) => {
  const x = await tenantWithOpportunities();
  const o = await opportunityOf(x, 'startups', 'owned');
  await setQuota(x, 'briefs', 3, 2);
  const replies = await Promise.all(
    Array.from({ length: 6 }, () =>
      call(server, 'POST', `/api/mcp/content-opportunities/${o.id}/brief`, { key: x.key }),
    ),
  );
  t.deepEqual(replies.map((r) => r.status).sort(), [200, 402, 402, 402, 402, 402]);
  t.is(await quotaUsed(x, 'briefs'), 3);
});

test('the MCP tools are the same operations: status change, brief, and the same 404', async (t) => {
  const x = await tenantWithOpportunities();
  const o = await opportunityOf(x, 'email', 'earned');
  const client = await connect(server, x.key);
  try {
    const r: any = await client.callTool({
      name: 'update_opportunity_status',
      arguments: { opportunity_id: o.id, status: 'in_progress' },
    });
    t.like(r.structuredContent, { id: o.id, status: 'in_progress' });
    const brief: any = await client.callTool({ name: 'generate_content_brief', arguments: { opportunity_id: o.id } });
    t.true(Brief.safeParse(brief.structuredContent.brief).success);
    const missing: any = await client.callTool({
      name: 'get_content_opportunity',
      arguments: { opportunity_id: randomUUID() },
    });
    t.true(missing.isError);
    t.is(missing.content[0].text, 'Content opportunity not found');
    const listed: any = await client.callTool({
      name: 'list_content_opportunities',
      arguments: { brand_id: x.brandId, type: 'earned' },
    });
    t.is(listed.structuredContent.items.length, 2);
  } finally {
    await client.close();
  }
});
