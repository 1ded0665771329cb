// Topic suggestions: the suggest-topics job on real tracking data, and every state transition and
// error message of docs/api.md section 24, "Topic suggestion", including two concurrent accepts.
// test-process: shared
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { call, get, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { contentSnapshot, ingest, runJob, seedContentTenant, trackingAnswers, type ContentTenant } from './helpers.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

const NOT_PENDING = { error: 'Suggestion not found, not pending, or already processed' };

async function tenantWithSuggestions(): Promise<ContentTenant> {
  const t = await seedContentTenant(server);
  await ingest(server, trackingAnswers(t));
  await runJob(server, 'suggest-topics', t.brandId);
  return t;
}

const pending = async (t: ContentTenant) => {
  const r = await get(server, `/api/mcp/topic-suggestions?brand_id=${t.brandId}`, t.key);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body.suggestions as { id: string; name: string; reason: string; generated_at: string }[];
};
const accept = (t: ContentTenant, id: string) =>
  call(server, 'POST', `/api/mcp/topic-suggestions/${id}/accept`, { key: t.key });
const dismiss = (t: ContentTenant, id: string) =>
  call(server, 'POST', `/api/mcp/topic-suggestions/${id}/dismiss`, { key: t.key });
const topicCount = async (t: ContentTenant, name: string) =>
  Number(
    (
      await server.stores.pg.query('SELECT count(*) AS n FROM topics WHERE brand_id = $1 AND name = $2', [
        t.brandId,
        name,
      ])
    ).rows[0].n,
  );

test('listing never generates; the job proposes themes from the data with the evidence as reason', async (t) => {
  const x = await seedContentTenant(server);
  await ingest(server, trackingAnswers(x));
  t.deepEqual(await pending(x), [], 'nothing before the job ran');
  const r = await runJob(server, 'suggest-topics', x.brandId);
  t.like(r, { brands: 1, created: 2 });
  const list = await pending(x);
  t.deepEqual(
    list.map((s) => s.name),
    ['Startups', 'CRM for startups'],
  );
  for (const s of list) t.deepEqual(Object.keys(s).sort(), ['generated_at', 'id', 'name', 'reason']);
  t.true(Date.parse(list[0].generated_at) >= Date.parse(list[1].generated_at), 'newest first');
  t.regex(list[1].reason, /Globex appears in 3 AI answers about "crm for startups" that do not mention Acme/);
  // "crm" is part of the existing topic "CRM software", so it is never proposed on its own.
  t.false(list.some((s) => s.name.toLowerCase() === 'crm'));
  // One batch may share its time (PGlite's clock counts milliseconds): the order it was inserted in
  // still decides, never the random ids.
  await server.stores.pg.query('UPDATE topic_suggestions SET generated_at = $2 WHERE brand_id = $1', [
    x.brandId,
    list[0].generated_at,
  ]);
  t.deepEqual(
    (await pending(x)).map((s) => s.name),
    ['Startups', 'CRM for startups'],
    'a tie in time',
  );
});

test('accept: creates exactly one topic; a second accept or a dismiss is the 404', async (t) => {
  const x = await tenantWithSuggestions();
  const [s] = await pending(x);
  const r = await accept(x, s.id);
  t.is(r.status, 200);
  t.deepEqual(Object.keys(r.body).sort(), ['suggestion_id', 'topic_id', 'topic_name']);
  t.like(r.body, { suggestion_id: s.id, topic_name: s.name });
  const topics = (await get(server, `/api/mcp/topics?brand_id=${x.brandId}`, x.key)).body;
  t.like(
    topics.find((tp: any) => tp.id === r.body.topic_id),
    { name: s.name, is_active: true, prompt_count: 0 },
  );
  t.false(
    (await pending(x)).some((p) => p.id === s.id),
    'no longer pending',
  );

  for (const again of [await accept(x, s.id), await dismiss(x, s.id)])
    t.deepEqual([again.status, again.body], [404, NOT_PENDING]);
  t.is(await topicCount(x, s.name), 1, 'no second topic');
});

test('dismiss: leaves the list, and accept or dismiss afterwards is the 404', async (t) => {
  const x = await tenantWithSuggestions();
  const [, s] = await pending(x);
  const r = await dismiss(x, s.id);
  t.deepEqual([r.status, r.body], [200, { id: s.id, status: 'dismissed' }]);
  t.false((await pending(x)).some((p) => p.id === s.id));
  for (const again of [await dismiss(x, s.id), await accept(x, s.id)])
    t.deepEqual([again.status, again.body], [404, NOT_PENDING]);
  t.is(await topicCount(x, s.name), 0);
});

test('two concurrent accepts create one topic; the other gets the 404', async (t) => {
  const x = await tenantWithSuggestions();
  const [s] = await pending(x);
  const replies = await Promise.all([accept(x, s.id), accept(x, s.id), accept(x, s.id)]);
  t.deepEqual(replies.map((r) => r.status).sort(), [200, 404, 404]);
  for (const r of replies.filter((r) => r.status === 404)) t.deepEqual(r.body, NOT_PENDING);
  t.is(await topicCount(x, s.name), 1);
  const [next] = await pending(x);
  const mixed = await Promise.all([accept(x, next.id), dismiss(x, next.id)]);
  t.deepEqual(mixed.map((r) => r.status).sort(), [200, 404], 'accept and dismiss race: one wins');
});

test('unknown, malformed and foreign suggestion ids are the 404; brand errors as everywhere', async (t) => {
  const x = await tenantWithSuggestions();
  const other = await seedContentTenant(server);
  const [s] = await pending(x);
  for (const [key, id] of [
    [x.key, randomUUID()],
    [x.key, 'nope'],
    [other.key, s.id],
  ]) {
    for (const action of ['accept', 'dismiss']) {
      const r = await call(server, 'POST', `/api/mcp/topic-suggestions/${id}/${action}`, { key });
      t.deepEqual([r.status, r.body], [404, NOT_PENDING], `${action} ${id}`);
    }
  }
  t.true(
    (await pending(x)).some((p) => p.id === s.id),
    'the foreign attempts changed nothing',
  );
  const missing = await get(server, '/api/mcp/topic-suggestions', x.key);
  t.deepEqual([missing.status, missing.body], [400, { error: 'brand_id is required' }]);
  const foreign = await get(server, `/api/mcp/topic-suggestions?brand_id=${other.brandId}`, x.key);
  t.deepEqual([foreign.status, foreign.body], [404, { error: 'Brand not found' }]);
});

test('re-running the job changes nothing; dismissed and accepted names never come back', async (t) => {
  const x = await tenantWithSuggestions();
  const before = await contentSnapshot(server, x.brandId);
  t.like(await runJob(server, 'suggest-topics', x.brandId), { created: 0 });
  t.deepEqual(await contentSnapshot(server, x.brandId), before);

  const [a, b] = await pending(x);
  const accepted = await accept(x, a.id);
  await dismiss(x, b.id);
  // More evidence for the same themes, and the new topic renamed by hand: still nothing comes back.
  await server.stores.pg.query('UPDATE topics SET name = $2 WHERE id = $1', [accepted.body.topic_id, 'Renamed']);
  await ingest(
    server,
    trackingAnswers(x).map((l) => ({ ...l, collected_at: l.collected_at.replace('T08', 'T09') })),
  );
  await runJob(server, 'suggest-topics', x.brandId);
  const names = (await pending(x)).map((s) => s.name.toLowerCase());
  t.false(names.includes(a.name.toLowerCase()));
  t.false(names.includes(b.name.toLowerCase()));
  const rows = (
    await server.stores.pg.query('SELECT normalized_name FROM topic_suggestions WHERE brand_id = $1', [x.brandId])
  ).rows;
  t.is(new Set(rows.map((r) => r.normalized_name)).size, rows.length, 'one row per normalised name');
});

test('a theme that already is a topic (any case or plural) is not proposed', async (t) => {
  const x = await seedContentTenant(server);
  await server.stores.pg.query('INSERT INTO topics (id, brand_id, name) VALUES ($1, $2, $3)', [
    randomUUID(),
    x.brandId,
    'CRM for Startup',
  ]);
  await ingest(server, trackingAnswers(x));
  await runJob(server, 'suggest-topics', x.brandId);
  t.deepEqual(
    (await pending(x)).map((s) => s.name),
    [],
  );
});

test('a brand without tracking data gets no suggestions', async (t) => {
  const x = await seedTenant(server);
  t.like(await runJob(server, 'suggest-topics', x.brandId), { created: 0 });
  t.deepEqual((await get(server, `/api/mcp/topic-suggestions?brand_id=${x.brandId}`, x.key)).body, { suggestions: [] });
});
