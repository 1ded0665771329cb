// The workspace operations over HTTP (docs/workspace.md): brands, competitors, topics and
// prompts set up one object at a time, their natural keys (409 naming the object), the fixed text
// of a prompt, platforms and the plan, the active prompt limit (402, for `apply` too), unknown
// fields, other organizations' objects, concurrent additions, and the re-analysis status.
// test-process: shared
import test from 'ava';
import { call, seedTenant, startTestServer, uniq, type Tenant, type TestServer } from '../helpers/server.ts';
import { applyWorkspace, parseWorkspace } from '../../src/tenancy/workspace.ts';
import {
  failReanalysis,
  finishReanalysis,
  reanalysisProgress,
  startReanalysis,
} from '../../src/tenancy/reanalysis-queue.ts';

let server: TestServer;
test.before(async () => {
  // Queued re-analyses stay queued: the status test moves them along itself.
  server = await startTestServer({ RATE_LIMIT_MAX: '1000000', REANALYSIS_WORKER: '0' });
});
test.after.always(async () => {
  await server?.stop();
});

const api = (t: Tenant, method: string, path: string, body?: unknown) =>
  call(server, method, `/api/mcp${path}`, { key: t.key, body });

test('a brand is created and changed; its slug is its key in the organization', async (t) => {
  const tenant = await seedTenant(server, []);
  const made = await api(tenant, 'POST', '/brands', { name: 'Hooli Cloud', domains: ['WWW.Hooli.example'] });
  t.is(made.status, 200, JSON.stringify(made.body));
  t.like(made.body, { name: 'Hooli Cloud', slug: 'hooli-cloud', industry: '', region: '', aliases: [] });
  t.deepEqual(made.body.domains, ['hooli.example']);
  t.regex(made.body.tracking_id, /^as_/);

  const again = await api(tenant, 'POST', '/brands', { name: 'Other', slug: 'hooli-cloud' });
  t.deepEqual([again.status, again.body.error], [409, 'Brand "hooli-cloud" already exists']);

  const list = await api(tenant, 'GET', '/brands');
  t.deepEqual(
    list.body.map((b: any) => [b.slug, b.domains, b.aliases]),
    [['hooli-cloud', ['hooli.example'], []]],
  );

  // Industry and region do not change what answers are analysed with; the name does.
  const region = await api(tenant, 'PATCH', `/brands/${made.body.id}`, { region: 'GB', industry: 'Cloud' });
  t.like(region.body, { region: 'GB', industry: 'Cloud', name: 'Hooli Cloud', reanalysis_queued: false });
  const renamed = await api(tenant, 'PATCH', `/brands/${made.body.id}`, { name: 'Hooli', aliases: ['Hooli Inc'] });
  t.like(renamed.body, { name: 'Hooli', aliases: ['Hooli Inc'], slug: 'hooli-cloud', reanalysis_queued: true });

  const other = await api(tenant, 'POST', '/brands', { name: 'Second' });
  const taken = await api(tenant, 'PATCH', `/brands/${other.body.id}`, { slug: 'hooli-cloud' });
  t.deepEqual([taken.status, taken.body.error], [409, 'Brand "hooli-cloud" already exists']);
  const empty = await api(tenant, 'PATCH', `/brands/${other.body.id}`, {});
  t.is(empty.status, 400);
  t.regex(empty.body.error, /at least one field/);
});

test('unknown fields and bad values are 400s naming them; nothing is written', async (t) => {
  const tenant = await seedTenant(server);
  const cases: [string, string, unknown, string | RegExp][] = [
    ['POST', '/brands', { name: 'X', colour: 'red' }, 'Unknown field: colour'],
    ['POST', '/brands', { name: 'X', colour: 'red', size: 1 }, 'Unknown fields: colour, size'],
    ['POST', '/brands', { slug: 'x' }, 'name is required'],
    ['POST', '/brands', { name: 'X', slug: 'Not A Slug' }, 'slug must be lower-case letters, digits and dashes'],
    ['POST', '/brands', { name: 'X', domains: ['not a domain'] }, /^domains\.0: domains must be bare domains/],
    ['PATCH', `/brands/${tenant.brandId}`, { tracking_id: 'abcdefgh' }, 'Unknown field: tracking_id'],
    ['POST', '/competitors', { brand_id: tenant.brandId, name: 'Y', url: 'y.example' }, 'Unknown field: url'],
    ['POST', '/topics', { brand_id: tenant.brandId, name: 'T', is_active: false }, 'Unknown field: is_active'],
    [
      'POST',
      '/prompts',
      { brand_id: tenant.brandId, prompts: [{ text: 'a new prompt', platforms: ['chatgpt', 'altavista'] }] },
      /^prompts\.0\.platforms\.1: Unknown platform "altavista"; platforms are chatgpt, /,
    ],
    [
      'POST',
      '/prompts',
      { brand_id: tenant.brandId, prompts: [{ text: 'a new prompt', models: ['gpt-4o'] }] },
      'prompts.0: Unknown field: models',
    ],
    ['POST', '/prompts', { brand_id: tenant.brandId, prompts: [] }, 'prompts must hold 1 to 100 prompts'],
    [
      'POST',
      '/prompts',
      { brand_id: tenant.brandId, prompts: Array.from({ length: 101 }, (_, i) => ({ text: `p${i}` })) },
      'prompts must hold 1 to 100 prompts',
    ],
    [
      'POST',
      '/prompts',
      { brand_id: tenant.brandId, prompts: [{ text: 'twice' }, { text: 'twice' }] },
      'prompts holds "twice" twice',
    ],
    [
      'PATCH',
      `/prompts/${tenant.promptIds[0]}`,
      { text: 'a better text' },
      "text cannot change: it identifies the prompt's history; deactivate the prompt and add another",
    ],
    ['PATCH', `/prompts/${tenant.promptIds[0]}`, { platforms: ['bing'] }, /^platforms\.0: Unknown platform "bing"/],
    ['PATCH', `/prompts/${tenant.promptIds[0]}`, { topic_id: 'crm' }, 'topic_id must be a UUID or null'],
  ];
  for (const [method, path, body, message] of cases) {
    const r = await api(tenant, method, path, body);
    t.is(r.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
    if (typeof message === 'string') t.is(r.body.error, message);
    else t.regex(r.body.error, message);
  }
  const brands = await api(tenant, 'GET', '/brands');
  t.is(brands.body.length, 1);
  const prompts = await api(tenant, 'GET', `/prompts?brand_id=${tenant.brandId}`);
  t.deepEqual(
    prompts.body.map((p: any) => p.text),
    ['best crm for startups'],
  );
});

test('competitors: add, list, change, remove; names are keys; entity changes queue a re-analysis', async (t) => {
  const tenant = await seedTenant(server);
  const added = await api(tenant, 'POST', '/competitors', {
    brand_id: tenant.brandId,
    name: 'Initech',
    domains: ['initech.example'],
  });
  t.like(added.body, { brand_id: tenant.brandId, name: 'Initech', aliases: [], reanalysis_queued: true });
  const dup = await api(tenant, 'POST', '/competitors', { brand_id: tenant.brandId, name: 'Globex' });
  t.deepEqual([dup.status, dup.body.error], [409, 'Competitor "Globex" already exists']);

  const list = await api(tenant, 'GET', `/competitors?brand_id=${tenant.brandId}`);
  t.deepEqual(
    list.body.map((c: any) => c.name),
    ['Globex', 'Initech'],
  );
  const renamed = await api(tenant, 'PATCH', `/competitors/${added.body.id}`, { name: 'Globex' });
  t.deepEqual([renamed.status, renamed.body.error], [409, 'Competitor "Globex" already exists']);
  const aliased = await api(tenant, 'PATCH', `/competitors/${added.body.id}`, { aliases: ['Initech Corp'] });
  t.like(aliased.body, { name: 'Initech', aliases: ['Initech Corp'], domains: ['initech.example'] });
  t.true(aliased.body.reanalysis_queued);

  const status = await api(tenant, 'GET', `/brands/${tenant.brandId}/reanalysis`);
  t.like(status.body, { state: 'queued', progress: null, error: null });
  t.regex(status.body.reason, /competitor added: Initech; competitor Initech: aliases changed/);

  const renamedOk = await api(tenant, 'PATCH', `/competitors/${added.body.id}`, { name: 'Initech Ltd' });
  t.like(renamedOk.body, { name: 'Initech Ltd', reanalysis_queued: true });
  const same = await api(tenant, 'PATCH', `/competitors/${added.body.id}`, { name: 'Initech Ltd' });
  t.like(same.body, { name: 'Initech Ltd', reanalysis_queued: false });
  t.regex(
    (await api(tenant, 'GET', `/brands/${tenant.brandId}/reanalysis`)).body.reason,
    /competitor Initech renamed Initech Ltd/,
  );

  const removed = await api(tenant, 'DELETE', `/competitors/${added.body.id}`);
  t.deepEqual(removed.body, { id: added.body.id, removed: true, reanalysis_queued: true });
  const again = await api(tenant, 'DELETE', `/competitors/${added.body.id}`);
  t.deepEqual([again.status, again.body.error], [404, 'Competitor not found']);
  const after = await api(tenant, 'GET', `/competitors?brand_id=${tenant.brandId}`);
  t.deepEqual(
    after.body.map((c: any) => c.name),
    ['Globex'],
  );
});

test('topics and prompts: keys, moves between topics, platforms outside the plan, the fixed text', async (t) => {
  const tenant = await seedTenant(server, undefined, 'starter');
  const topic = await api(tenant, 'POST', '/topics', { brand_id: tenant.brandId, name: 'Email' });
  t.like(topic.body, { name: 'Email', is_active: true, prompt_count: 0 });
  const dup = await api(tenant, 'POST', '/topics', { brand_id: tenant.brandId, name: 'CRM software' });
  t.deepEqual([dup.status, dup.body.error], [409, 'Topic "CRM software" already exists']);

  const added = await api(tenant, 'POST', '/prompts', {
    brand_id: tenant.brandId,
    topic_id: topic.body.id,
    prompts: [
      { text: 'best email tool', platforms: ['chatgpt', 'gemini', 'grok'], regions: ['US', 'GB'] },
      { text: 'email tool pricing' },
    ],
  });
  t.is(added.status, 200, JSON.stringify(added.body));
  // The starter plan captures chatgpt and perplexity only: the others are kept and named.
  t.deepEqual(added.body.platforms_not_in_plan, ['gemini', 'grok']);
  t.like(added.body.prompts[0], {
    text: 'best email tool',
    topic_id: topic.body.id,
    topic_name: 'Email',
    platforms: ['chatgpt', 'gemini', 'grok'],
    regions: ['US', 'GB'],
    is_active: true,
  });
  t.like(added.body.prompts[1], { text: 'email tool pricing', platforms: [], regions: [] });

  // One text already tracked: 409 naming it, and the new one beside it is not added either.
  const dup2 = await api(tenant, 'POST', '/prompts', {
    brand_id: tenant.brandId,
    prompts: [{ text: 'brand new prompt' }, { text: 'best crm for startups' }],
  });
  t.deepEqual([dup2.status, dup2.body.error], [409, 'Prompt "best crm for startups" already exists']);
  const all = await api(tenant, 'GET', `/prompts?brand_id=${tenant.brandId}`);
  t.false(all.body.some((p: any) => p.text === 'brand new prompt'));

  const id = added.body.prompts[0].id;
  const moved = await api(tenant, 'PATCH', `/prompts/${id}`, { topic_id: tenant.topicIds[0], platforms: ['chatgpt'] });
  t.like(moved.body, {
    text: 'best email tool',
    topic_name: 'CRM software',
    platforms: ['chatgpt'],
    regions: ['US', 'GB'],
  });
  t.deepEqual(moved.body.platforms_not_in_plan, []);
  const out = await api(tenant, 'PATCH', `/prompts/${id}`, { topic_id: null, is_active: false });
  t.like(out.body, { topic_id: null, topic_name: null, is_active: false });

  const renamed = await api(tenant, 'PATCH', `/topics/${topic.body.id}`, { name: 'Mail', is_active: false });
  t.like(renamed.body, { id: topic.body.id, name: 'Mail', is_active: false, prompt_count: 1 });
  const taken = await api(tenant, 'PATCH', `/topics/${topic.body.id}`, { name: 'CRM software' });
  t.deepEqual([taken.status, taken.body.error], [409, 'Topic "CRM software" already exists']);

  // A topic of another brand of the organization is not this prompt's.
  const brand2 = await api(tenant, 'POST', '/brands', { name: 'Second' });
  const foreignTopic = await api(tenant, 'POST', '/topics', { brand_id: brand2.body.id, name: 'Elsewhere' });
  const wrong = await api(tenant, 'PATCH', `/prompts/${id}`, { topic_id: foreignTopic.body.id });
  t.deepEqual([wrong.status, wrong.body.error], [404, 'Topic not found']);
  const wrongAdd = await api(tenant, 'POST', '/prompts', {
    brand_id: tenant.brandId,
    topic_id: foreignTopic.body.id,
    prompts: [{ text: 'x' }],
  });
  t.deepEqual([wrongAdd.status, wrongAdd.body.error], [404, 'Topic not found']);
});

test("other organizations' objects are 404s, read or written", async (t) => {
  const mine = await seedTenant(server);
  const theirs = await seedTenant(server);
  const cases: [string, string, unknown, string][] = [
    ['PATCH', `/brands/${theirs.brandId}`, { name: 'Mine now' }, 'Brand not found'],
    ['PATCH', '/brands/not-a-uuid', { name: 'Mine now' }, 'Brand not found'],
    ['GET', `/brands/${theirs.brandId}/reanalysis`, undefined, 'Brand not found'],
    ['GET', `/competitors?brand_id=${theirs.brandId}`, undefined, 'Brand not found'],
    ['POST', '/competitors', { brand_id: theirs.brandId, name: 'Z' }, 'Brand not found'],
    ['PATCH', `/competitors/${theirs.competitorIds[0]}`, { name: 'Z' }, 'Competitor not found'],
    ['DELETE', `/competitors/${theirs.competitorIds[0]}`, undefined, 'Competitor not found'],
    ['DELETE', '/competitors/nope', undefined, 'Competitor not found'],
    ['POST', '/topics', { brand_id: theirs.brandId, name: 'Z' }, 'Brand not found'],
    ['PATCH', `/topics/${theirs.topicIds[0]}`, { name: 'Z' }, 'Topic not found'],
    ['POST', '/prompts', { brand_id: theirs.brandId, prompts: [{ text: 'z' }] }, 'Brand not found'],
    ['PATCH', `/prompts/${theirs.promptIds[0]}`, { is_active: false }, 'Prompt not found'],
  ];
  for (const [method, path, body, message] of cases) {
    const r = await api(mine, method, path, body);
    t.deepEqual([r.status, r.body.error], [404, message], `${method} ${path}`);
  }
  // Theirs is untouched.
  const competitors = await api(theirs, 'GET', `/competitors?brand_id=${theirs.brandId}`);
  t.deepEqual(
    competitors.body.map((c: any) => c.name),
    ['Globex'],
  );
});

test('concurrent additions of the same name create exactly one', async (t) => {
  const tenant = await seedTenant(server);
  const N = 8;
  const race = (method: string, path: string, body: unknown) =>
    Promise.all(Array.from({ length: N }, () => api(tenant, method, path, body)));
  const outcomes = {
    brand: await race('POST', '/brands', { name: 'Racer', slug: 'racer' }),
    competitor: await race('POST', '/competitors', { brand_id: tenant.brandId, name: 'Racer' }),
    topic: await race('POST', '/topics', { brand_id: tenant.brandId, name: 'Racer' }),
    prompt: await race('POST', '/prompts', { brand_id: tenant.brandId, prompts: [{ text: 'racer prompt' }] }),
  };
  for (const [thing, replies] of Object.entries(outcomes)) {
    t.deepEqual(
      replies.map((r) => r.status).sort(),
      [200, ...Array(N - 1).fill(409)],
      `${thing}: ${JSON.stringify(replies.map((r) => r.body))}`,
    );
  }
  const brands = await api(tenant, 'GET', '/brands');
  t.is(brands.body.filter((b: any) => b.slug === 'racer').length, 1);
  const competitors = await api(tenant, 'GET', `/competitors?brand_id=${tenant.brandId}`);
  t.is(competitors.body.filter((c: any) => c.name === 'Racer').length, 1);
  const topics = await api(tenant, 'GET', `/topics?brand_id=${tenant.brandId}`);
  t.is(topics.body.filter((c: any) => c.name === 'Racer').length, 1);
  const prompts = await api(tenant, 'GET', `/prompts?brand_id=${tenant.brandId}`);
  t.is(prompts.body.filter((p: any) => p.text === 'racer prompt').length, 1);
});

test('the active prompt limit: adds and activations past it are 402s, and apply fails the same way having written nothing', async (t) => {
  // A starter organization (50 active prompts) with one prompt in each of two brands.
  const brand = (slug: string) => ({
    name: slug,
    slug,
    topics: [{ name: 'T', prompts: [{ text: `${slug} first` }] }],
  });
  const tenant = await seedTenant(server, [brand('one'), brand('two')], 'starter');
  const add = (brandId: string, texts: string[]) =>
    api(tenant, 'POST', '/prompts', { brand_id: brandId, prompts: texts.map((text) => ({ text })) });
  const texts = (label: string, n: number) => Array.from({ length: n }, (_, i) => `${label} ${i}`);

  t.is((await add(tenant.brandIds[0], texts('a', 40))).status, 200);
  // 42 + 9 = 51: refused as a whole, counting both brands.
  const over = await add(tenant.brandIds[1], texts('b', 9));
  t.deepEqual([over.status, over.body.error], [402, 'Active prompt limit reached (50 on the starter plan)']);
  const exact = await add(tenant.brandIds[1], texts('b', 8));
  t.is(exact.status, 200);
  t.is((await add(tenant.brandIds[0], ['one too many'])).status, 402);

  // Deactivating makes room; reactivating past the limit is refused.
  const off = await api(tenant, 'PATCH', `/prompts/${exact.body.prompts[0].id}`, { is_active: false });
  t.false(off.body.is_active);
  t.is((await add(tenant.brandIds[0], ['fills the room'])).status, 200);
  const on = await api(tenant, 'PATCH', `/prompts/${exact.body.prompts[0].id}`, { is_active: true });
  t.deepEqual([on.status, on.body.error], [402, 'Active prompt limit reached (50 on the starter plan)']);
  // A change that adds no active prompt passes at the limit.
  const regions = await api(tenant, 'PATCH', `/prompts/${exact.body.prompts[1].id}`, { regions: ['GB'] });
  t.is(regions.status, 200);

  // A topic's prompts count only while it is active: deactivating it makes room, reactivating is refused.
  const topics = await api(tenant, 'GET', `/topics?brand_id=${tenant.brandIds[1]}`);
  const topicOff = await api(tenant, 'PATCH', `/topics/${topics.body[0].id}`, { is_active: false });
  t.is(topicOff.status, 200);
  t.is((await add(tenant.brandIds[0], ['in the room of a topic'])).status, 200);
  const topicOn = await api(tenant, 'PATCH', `/topics/${topics.body[0].id}`, { is_active: true });
  t.deepEqual([topicOn.status, topicOn.body.error], [402, 'Active prompt limit reached (50 on the starter plan)']);

  // apply: the same file plus one prompt and a competitor is refused whole.
  const workspace = structuredClone(tenant.workspace);
  workspace.organizations[0].brands[0].competitors = [{ name: 'Written never' }];
  workspace.organizations[0].brands[0].topics[0].prompts.push({ text: 'from the file' });
  const err = await t.throwsAsync(applyWorkspace(server.stores.pg, parseWorkspace(workspace)));
  t.is(err?.message, 'Active prompt limit reached (50 on the starter plan)');
  const competitors = await api(tenant, 'GET', `/competitors?brand_id=${tenant.brandIds[0]}`);
  t.deepEqual(competitors.body, []);
  const prompts = await api(tenant, 'GET', `/prompts?brand_id=${tenant.brandIds[0]}&limit=500`);
  t.false(prompts.body.some((p: any) => p.text === 'from the file'));
});

test('the re-analysis status: idle, queued, running with progress, failed with error, last_finished_at', async (t) => {
  const tenant = await seedTenant(server);
  const status = async () => (await api(tenant, 'GET', `/brands/${tenant.brandId}/reanalysis`)).body;
  t.like(await status(), { brand_id: tenant.brandId, state: 'idle', last_finished_at: null, reason: null });

  const changed = await api(tenant, 'PATCH', `/brands/${tenant.brandId}`, { domains: ['acme.example', 'acme.test'] });
  t.true(changed.body.reanalysis_queued);
  t.like(await status(), { state: 'queued', progress: null, reason: 'domains changed', error: null });

  // The worker's steps, as it takes them (it is off in this file).
  await startReanalysis(server.stores.pg, tenant.brandId, 'domains changed');
  t.like(await status(), { state: 'running', progress: 0 });
  await reanalysisProgress(server.stores.pg, tenant.brandId, {
    target_generation: 1,
    answers_total: 8,
    answers_done: 3,
  });
  t.like(await status(), { state: 'running', progress: 37 });
  await failReanalysis(server.stores.pg, tenant.brandId, 'boom');
  t.like(await status(), { state: 'failed', error: 'boom', progress: null, last_finished_at: null });

  await startReanalysis(server.stores.pg, tenant.brandId, 'again');
  await finishReanalysis(server.stores.pg, tenant.brandId, 1);
  const done = await status();
  t.like(done, { state: 'idle', progress: null, error: null, reason: null });
  t.false(Number.isNaN(Date.parse(done.last_finished_at)));

  // Queued again, it still tells when the last one finished.
  await api(tenant, 'POST', '/competitors', { brand_id: tenant.brandId, name: uniq('Rival') });
  t.like(await status(), { state: 'queued', last_finished_at: done.last_finished_at });
});
