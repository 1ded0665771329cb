// Alerts end to end (docs/api.md section 15): rules over REST and MCP, the evaluate-alerts job
// (through the real command line and the job itself) on answers ingested into two windows, its
// gates, firing once until cleared, the alert.fired webhook verified with the Standard Webhooks
// library, the digest's list of firings, and tenancy. ALLOW_PRIVATE_URLS=1 lets the service reach
// the local receiver.
// test-process: shared
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { Webhook } from 'standardwebhooks';
import {
  call,
  get,
  ingestLines,
  seedTenant,
  startTestServer,
  type Tenant,
  type TestServer,
} from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';
import { connect } from '../mcp/client.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { findJob } from '../../jobs/index.ts';

let server: TestServer;
let receiver: Receiver;
test.before(async () => {
  server = await startTestServer({
    ALLOW_PRIVATE_URLS: '1',
    WEBHOOK_RETRY_SCHEDULE_MS: '300,300,300',
    RATE_LIMIT_MAX: '100000',
  });
  receiver = await startReceiver();
});
test.after.always(async () => {
  await server?.stop();
  await receiver?.close();
});

const jobCtx = () => ({ stores: server.stores, config: server.config, log: server.log, now: () => new Date() });
const evaluate = (brandId: string, date: string) => findJob('evaluate-alerts')!.run(jobCtx(), { brandId, date });

/**
 * `count` answers on `day`, one a minute from 08:00: the first `naming` name the brand (and cite
 * its site when `cite`), the rest name only the competitor.
 */
function dayAnswers(promptId: string, day: string, count: number, naming: number, cite = false) {
  return Array.from({ length: count }, (_, i) => ({
    prompt_id: promptId,
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: `${day}T${String(8 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z`,
    text: i < naming ? 'Acme leads the field. Globex follows.' : 'Globex is the pick.',
    citations: i < naming && cite ? [{ url: 'https://acme.example/crm' }] : [],
  }));
}

/** `perDay` answers on each of `days`, `namingPerDay` of each day's naming the brand. */
function windowAnswers(promptId: string, days: string[], perDay: number, namingPerDay: number, cite = false) {
  return days.flatMap((d) => dayAnswers(promptId, d, perDay, namingPerDay, cite));
}

const days = (from: string, n: number) =>
  Array.from({ length: n }, (_, i) =>
    new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10),
  );

async function createRule(key: string, body: Record<string, unknown>) {
  const r = await call(server, 'POST', '/api/mcp/alert-rules', { key, body });
  if (r.status !== 200) throw new Error(`create rule: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function register(key: string, url: string, events: string[]) {
  const r = await call(server, 'POST', '/api/mcp/webhooks', { key, body: { url, events } });
  if (r.status !== 200) throw new Error(`register: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string; secret: string };
}

const firings = async (x: Tenant, query = '') =>
  (await get(server, `/api/mcp/alerts?brand_id=${x.brandId}${query}`, x.key)).body;

// Run date 2026-04-15, 7-day windows: previous 04-01..04-07, current 04-08..04-14.
const PREVIOUS = days('2026-04-01', 7);
const CURRENT = days('2026-04-08', 7);

/** Previous window: 28 answers all naming and citing the brand; current: 28 (or `current`), a quarter naming it. */
async function seedDrop(currentPerDay = 4) {
  const x = await seedTenant(server);
  const [p] = x.promptIds;
  await ingestLines(server, [
    ...windowAnswers(p, PREVIOUS, 4, 4, true),
    ...windowAnswers(p, CURRENT.slice(0, 6), currentPerDay, 1),
    ...dayAnswers(p, CURRENT[6], currentPerDay - 1, 0),
    // Outside both windows: must not count.
    ...dayAnswers(p, '2026-03-31', 9, 9, true),
    ...dayAnswers(p, '2026-04-15', 9, 0),
  ]);
  return x;
}

test('a drop fires once per rule, quoting the figures of the analytics endpoints, sent as a signed alert.fired', async (t) => {
  const x = await seedDrop();
  const hook = receiver.hook();
  const endpoint = await register(x.key, hook.url, ['alert.fired']);
  const metrics = ['ai_visibility_score', 'mention_rate', 'citation_rate', 'share_of_voice'];
  const rules = new Map<string, any>();
  for (const metric of metrics)
    rules.set(metric, await createRule(x.key, { brand_id: x.brandId, metric, condition: 'drops_by', threshold: 5 }));
  const rise = await createRule(x.key, {
    brand_id: x.brandId,
    metric: 'mention_rate',
    condition: 'rises_by',
    threshold: 5,
    window_days: 7,
  });
  t.like(rise, { metric: 'mention_rate', condition: 'rises_by', threshold: 5, window_days: 7, firing: false });
  t.is(rules.get('mention_rate').window_days, 7);

  // Through the real command line, as an operator would run it.
  const run = await cli(['jobs', 'run', 'evaluate-alerts', '--brand', x.brandId, '--date', '2026-04-15'], server.env);
  t.is(run.code, 0, run.stderr);
  t.deepEqual(run.json, {
    date: '2026-04-15',
    rules: 5,
    fired: 4,
    still_firing: 0,
    cleared: 0,
    gated: 0,
    deliveries: 4,
  });

  // The figures the endpoints give for the same two windows.
  const range = (w: string[]) => `brand_id=${x.brandId}&date_from=${w[0]}&date_to=${w[w.length - 1]}`;
  const summary = async (w: string[]) => (await get(server, `/api/mcp/visibility-summary?${range(w)}`, x.key)).body;
  const comparison = async (w: string[]) =>
    (await get(server, `/api/mcp/competitor-comparison?${range(w)}`, x.key)).body;
  const [sumPrev, sumCur, cmpPrev, cmpCur] = [
    await summary(PREVIOUS),
    await summary(CURRENT),
    await comparison(PREVIOUS),
    await comparison(CURRENT),
  ];
  t.is(sumPrev.totals.resultCount, 28);
  t.is(sumCur.totals.resultCount, 27);
  const pct = (k: number, n: number) => Math.round((1000 * k) / n) / 10;
  const expected: Record<string, [number, number]> = {
    ai_visibility_score: [sumPrev.totals.aiVisibilityScore, sumCur.totals.aiVisibilityScore],
    mention_rate: [pct(sumPrev.totals.mentionAnswers, 28), pct(sumCur.totals.mentionAnswers, 27)],
    citation_rate: [pct(sumPrev.totals.citationAnswers, 28), pct(sumCur.totals.citationAnswers, 27)],
    share_of_voice: [cmpPrev.share_of_voice.overall_sov_pct, cmpCur.share_of_voice.overall_sov_pct],
  };
  t.deepEqual(expected.mention_rate, [100, 22.2]);
  t.deepEqual(expected.citation_rate, [100, 0]);

  const listed = await firings(x);
  t.is(listed.alerts.length, 4);
  t.is(listed.next_cursor, null);
  for (const metric of metrics) {
    const f = listed.alerts.find((a: any) => a.metric === metric);
    t.truthy(f, metric);
    t.like(f, {
      rule_id: rules.get(metric).id,
      brand_id: x.brandId,
      condition: 'drops_by',
      threshold: 5,
      window_days: 7,
      evaluated_on: '2026-04-15',
      previous_window: { from: '2026-04-01', to: '2026-04-07' },
      current_window: { from: '2026-04-08', to: '2026-04-14' },
      previous: expected[metric][0],
      current: expected[metric][1],
      n_previous: 28,
      n_current: 27,
    });
  }
  // Newest first.
  const created = listed.alerts.map((a: any) => `${a.created_at}|${a.id}`);
  t.deepEqual(created, [...created].sort().reverse());

  // The webhooks: one per firing, signed, each payload what was stored.
  const received = await receiver.waitFor(hook, 4);
  for (const req of received) {
    const payload = new Webhook(endpoint.secret).verify(req.body, req.headers as Record<string, string>) as any;
    t.is(payload.type, 'alert.fired');
    const f = listed.alerts.find((a: any) => a.rule_id === payload.data.rule.id);
    t.deepEqual(payload.data, {
      rule: { id: f.rule_id, metric: f.metric, condition: 'drops_by', threshold: 5, window_days: 7 },
      brand_id: x.brandId,
      metric: f.metric,
      previous: f.previous,
      current: f.current,
      n_previous: 28,
      n_current: 27,
    });
  }
  t.throws(() =>
    new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
      received[0].body,
      received[0].headers as Record<string, string>,
    ),
  );

  // The same day again: nothing is evaluated twice, nothing fires twice.
  t.like(await evaluate(x.brandId, '2026-04-15'), { rules: 0, fired: 0, deliveries: 0 });
  t.is((await firings(x)).alerts.length, 4);
  const state = (await get(server, `/api/mcp/alert-rules?brand_id=${x.brandId}`, x.key)).body;
  t.deepEqual(
    state.map((r: any) => [r.metric, r.condition, r.firing, r.evaluated_on]),
    [
      ['ai_visibility_score', 'drops_by', true, '2026-04-15'],
      ['mention_rate', 'drops_by', true, '2026-04-15'],
      ['citation_rate', 'drops_by', true, '2026-04-15'],
      ['share_of_voice', 'drops_by', true, '2026-04-15'],
      ['mention_rate', 'rises_by', false, '2026-04-15'],
    ],
  );
  // Paging: one at a time, the same four, newest first.
  const seen: string[] = [];
  let cursor = '';
  do {
    const page = await firings(x, `&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
    seen.push(...page.alerts.map((a: any) => a.id));
    cursor = page.next_cursor ?? '';
  } while (cursor);
  t.deepEqual(
    seen,
    listed.alerts.map((a: any) => a.id),
  );
});

test('a net sentiment cliff fires with the figures GET /sentiment gives for the two windows', async (t) => {
  const x = await seedTenant(server);
  const [p] = x.promptIds;
  const said = (day: string, text: string) => dayAnswers(p, day, 3, 3).map((a) => ({ ...a, text }));
  await ingestLines(server, [
    ...PREVIOUS.flatMap((d) => said(d, 'Acme is excellent, reliable and easy to use.')),
    ...CURRENT.flatMap((d) => said(d, 'Acme is terrible, buggy and overpriced.')),
  ]);
  const rule = await createRule(x.key, {
    brand_id: x.brandId,
    metric: 'net_sentiment',
    condition: 'drops_by',
    threshold: 50,
  });
  t.like(await evaluate(x.brandId, '2026-04-15'), { rules: 1, fired: 1, gated: 0 });
  const net = async (w: string[]) => {
    const r = await get(
      server,
      `/api/mcp/sentiment?brand_id=${x.brandId}&date_from=${w[0]}&date_to=${w[w.length - 1]}`,
      x.key,
    );
    return r.body.entities.find((e: any) => e.is_brand).net_sentiment;
  };
  const [before, after] = [await net(PREVIOUS), await net(CURRENT)];
  t.true(before > 0 && after < 0, `${before} -> ${after}`);
  t.like((await firings(x)).alerts[0], {
    rule_id: rule.id,
    metric: 'net_sentiment',
    previous: before,
    current: after,
    n_previous: 21,
    n_current: 21,
  });
});

test('the same drop with 20 answers short by one in a window does not fire (the answer-count gate)', async (t) => {
  // Current window: 6 days of 3 answers and a day of 1 = 19 answers.
  const x = await seedTenant(server);
  const [p] = x.promptIds;
  await ingestLines(server, [
    ...windowAnswers(p, PREVIOUS, 4, 4, true),
    ...windowAnswers(p, CURRENT.slice(0, 6), 3, 1),
    ...dayAnswers(p, CURRENT[6], 1, 0),
  ]);
  const hook = receiver.hook();
  await register(x.key, hook.url, ['alert.fired']);
  const rule = await createRule(x.key, {
    brand_id: x.brandId,
    metric: 'mention_rate',
    condition: 'drops_by',
    threshold: 5,
  });
  t.deepEqual(await evaluate(x.brandId, '2026-04-15'), {
    date: '2026-04-15',
    rules: 1,
    fired: 0,
    still_firing: 0,
    cleared: 0,
    gated: 1,
    deliveries: 0,
  });
  const summary = await get(
    server,
    `/api/mcp/visibility-summary?brand_id=${x.brandId}&date_from=2026-04-08&date_to=2026-04-14`,
    x.key,
  );
  t.is(summary.body.totals.resultCount, 19);
  t.deepEqual((await firings(x)).alerts, []);
  const [listed] = (await get(server, `/api/mcp/alert-rules?brand_id=${x.brandId}`, x.key)).body;
  t.like(listed, { id: rule.id, firing: false, evaluated_on: '2026-04-15' });
  t.is(hook.received.length, 0);
});

test('a window whose capture runs mostly failed does not fire; at 80% succeeded it does', async (t) => {
  const x = await seedDrop();
  const rule = await createRule(x.key, {
    brand_id: x.brandId,
    metric: 'mention_rate',
    condition: 'drops_by',
    threshold: 5,
  });
  // Ten planned slots in the current window, seven succeeded: 70%.
  const ids = Array.from({ length: 10 }, () => randomUUID());
  await server.stores.pg.query(
    `INSERT INTO capture_runs (id, organization_id, brand_id, prompt_id, platform, region, day, sample, status)
     SELECT id, $2, $3, $4, 'chatgpt', 'US', '2026-04-10', s, CASE WHEN s <= 7 THEN 'succeeded' ELSE 'failed' END
       FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, s)`,
    [ids, x.organizationId, x.brandId, x.promptIds[0]],
  );
  t.like(await evaluate(x.brandId, '2026-04-15'), { rules: 1, gated: 1, fired: 0 });
  t.like((await get(server, `/api/mcp/alert-rules?brand_id=${x.brandId}`, x.key)).body[0], {
    id: rule.id,
    firing: false,
  });
  // One more slot succeeded (8 of 10): the next day's evaluation, on windows one day later, fires.
  await server.stores.pg.query(`UPDATE capture_runs SET status = 'succeeded' WHERE id = $1`, [ids[9]]);
  t.like(await evaluate(x.brandId, '2026-04-16'), { rules: 1, gated: 0, fired: 1 });
  t.like((await firings(x)).alerts[0], { rule_id: rule.id, evaluated_on: '2026-04-16' });
});

test('a rule fires once, stays quiet while it holds or is gated out, fires again after it has cleared', async (t) => {
  const x = await seedTenant(server);
  const [p] = x.promptIds;
  // One-day windows; mention rate per day: 100, 0, (5 answers), 0, 0, 100, 0.
  await ingestLines(server, [
    ...dayAnswers(p, '2026-06-01', 20, 20),
    ...dayAnswers(p, '2026-06-02', 20, 0),
    ...dayAnswers(p, '2026-06-03', 5, 0),
    ...dayAnswers(p, '2026-06-04', 20, 0),
    ...dayAnswers(p, '2026-06-05', 20, 0),
    ...dayAnswers(p, '2026-06-06', 20, 20),
    ...dayAnswers(p, '2026-06-07', 21, 0),
  ]);
  const hook = receiver.hook();
  const endpoint = await register(x.key, hook.url, ['alert.fired', 'digest.daily']);
  const rule = await createRule(x.key, {
    brand_id: x.brandId,
    metric: 'mention_rate',
    condition: 'below',
    threshold: 50,
    window_days: 1,
  });
  const step = async (date: string) => {
    const r: any = await evaluate(x.brandId, date);
    const [listed] = (await get(server, `/api/mcp/alert-rules?brand_id=${x.brandId}`, x.key)).body;
    return { ...r, firing: listed.firing, alerts: (await firings(x)).alerts.length };
  };
  const outcome = { rules: 1, fired: 0, still_firing: 0, cleared: 0, gated: 0 };
  // 06-02: the previous window (05-31) has no answers: gated.
  t.like(await step('2026-06-02'), { ...outcome, gated: 1, firing: false, alerts: 0 });
  t.like(await step('2026-06-03'), { ...outcome, fired: 1, deliveries: 1, firing: true, alerts: 1 });
  // Gated out (5 answers in the current, then in the previous window): neither fires nor clears.
  t.like(await step('2026-06-04'), { ...outcome, gated: 1, firing: true, alerts: 1 });
  t.like(await step('2026-06-05'), { ...outcome, gated: 1, firing: true, alerts: 1 });
  // Still below 50 with the gates passing: no repeat.
  t.like(await step('2026-06-06'), { ...outcome, still_firing: 1, firing: true, alerts: 1 });
  // 100% on 06-06: cleared.
  t.like(await step('2026-06-07'), { ...outcome, cleared: 1, firing: false, alerts: 1 });
  // Below again: fires again.
  t.like(await step('2026-06-08'), { ...outcome, fired: 1, deliveries: 1, firing: true, alerts: 2 });

  const { alerts } = await firings(x);
  t.like(alerts[0], {
    rule_id: rule.id,
    evaluated_on: '2026-06-08',
    current_window: { from: '2026-06-07', to: '2026-06-07' },
    previous: 100,
    current: 0,
    n_previous: 20,
    n_current: 21,
  });
  t.like(alerts[1], { evaluated_on: '2026-06-03', previous: 100, current: 0, n_previous: 20, n_current: 20 });

  // The digest of 06-02 lists the firing about 06-02; the digest of 06-01 none.
  const digest = findJob('daily-digest')!;
  t.like(await digest.run(jobCtx(), { brandId: x.brandId, date: '2026-06-03' }), { digests: 1, deliveries: 1 });
  t.like(await digest.run(jobCtx(), { brandId: x.brandId, date: '2026-06-02' }), { digests: 1, deliveries: 1 });
  const received = await receiver.waitFor(hook, 4);
  const digests = received
    .map((r) => new Webhook(endpoint.secret).verify(r.body, r.headers as Record<string, string>) as any)
    .filter((m) => m.type === 'digest.daily');
  const byDay = new Map(digests.map((m) => [m.data.date, m.data.alerts]));
  t.deepEqual(byDay.get('2026-06-02'), [alerts[1]]);
  t.deepEqual(byDay.get('2026-06-01'), []);
});

test("another organization's rule is 404; its brand too", async (t) => {
  const mine = await seedTenant(server);
  const theirs = await seedTenant(server);
  const rule = await createRule(theirs.key, {
    brand_id: theirs.brandId,
    metric: 'share_of_voice',
    condition: 'above',
    threshold: 60,
  });
  for (const id of [rule.id, randomUUID(), 'not-a-uuid']) {
    const del = await call(server, 'DELETE', `/api/mcp/alert-rules/${id}`, { key: mine.key });
    t.deepEqual([del.status, del.body], [404, { error: 'Alert rule not found' }], id);
  }
  const body = { brand_id: theirs.brandId, metric: 'mention_rate', condition: 'below', threshold: 10 };
  const create = await call(server, 'POST', '/api/mcp/alert-rules', { key: mine.key, body });
  t.deepEqual([create.status, create.body], [404, { error: 'Brand not found' }]);
  for (const name of ['alert-rules', 'alerts']) {
    const r = await get(server, `/api/mcp/${name}?brand_id=${theirs.brandId}`, mine.key);
    t.deepEqual([r.status, r.body], [404, { error: 'Brand not found' }], name);
  }
  // Still theirs, and theirs to delete.
  t.is((await get(server, `/api/mcp/alert-rules?brand_id=${theirs.brandId}`, theirs.key)).body.length, 1);
  const del = await call(server, 'DELETE', `/api/mcp/alert-rules/${rule.id}`, { key: theirs.key });
  t.deepEqual([del.status, del.body], [200, { id: rule.id, deleted: true }]);
  t.deepEqual((await get(server, `/api/mcp/alert-rules?brand_id=${theirs.brandId}`, theirs.key)).body, []);
});

const METRIC_LIST = 'ai_visibility_score, mention_rate, citation_rate, share_of_voice, net_sentiment';

test('bad rules are 400s naming the field', async (t) => {
  const x = await seedTenant(server);
  const ok = { brand_id: x.brandId, metric: 'mention_rate', condition: 'drops_by', threshold: 10 };
  const cases: [Record<string, unknown>, string][] = [
    [{ ...ok, brand_id: undefined }, 'brand_id is required'],
    [{ ...ok, brand_id: 'acme' }, 'brand_id must be a UUID'],
    [{ ...ok, metric: undefined }, `metric must be one of: ${METRIC_LIST}`],
    [{ ...ok, metric: 'visibility' }, `metric must be one of: ${METRIC_LIST}`],
    [{ ...ok, condition: 'falls_by' }, 'condition must be one of: drops_by, rises_by, below, above'],
    [{ ...ok, threshold: undefined }, 'threshold is required'],
    [{ ...ok, threshold: 'ten' }, 'threshold must be a number'],
    [{ ...ok, threshold: true }, 'threshold must be a number'],
    [{ ...ok, threshold: 0 }, 'threshold of drops_by must be greater than 0 and at most 100 for mention_rate'],
    [{ ...ok, threshold: 100.5 }, 'threshold of drops_by must be greater than 0 and at most 100 for mention_rate'],
    [
      { ...ok, condition: 'rises_by', metric: 'net_sentiment', threshold: 201 },
      'threshold of rises_by must be greater than 0 and at most 200 for net_sentiment',
    ],
    [{ ...ok, condition: 'below', threshold: -1 }, 'threshold of below must be between 0 and 100 for mention_rate'],
    [
      { ...ok, condition: 'above', metric: 'net_sentiment', threshold: -101 },
      'threshold of above must be between -100 and 100 for net_sentiment',
    ],
    [{ ...ok, window_days: 0 }, 'window_days must be an integer from 1 to 90'],
    [{ ...ok, window_days: 91 }, 'window_days must be an integer from 1 to 90'],
    [{ ...ok, window_days: 7.5 }, 'window_days must be an integer from 1 to 90'],
    [{ ...ok, window_days: 'week' }, 'window_days must be an integer from 1 to 90'],
  ];
  for (const [body, message] of cases) {
    const r = await call(server, 'POST', '/api/mcp/alert-rules', { key: x.key, body });
    t.deepEqual([r.status, r.body], [400, { error: message }], JSON.stringify(body));
  }
  // The edges are accepted.
  for (const body of [
    { ...ok, threshold: 100 },
    { ...ok, metric: 'net_sentiment', condition: 'below', threshold: -100, window_days: 90 },
    { ...ok, metric: 'net_sentiment', condition: 'drops_by', threshold: 200, window_days: 1 },
    { ...ok, condition: 'above', threshold: 0 },
  ]) {
    const r = await call(server, 'POST', '/api/mcp/alert-rules', { key: x.key, body });
    t.is(r.status, 200, JSON.stringify([body, r.body]));
  }
  const list = await get(server, `/api/mcp/alerts?brand_id=${x.brandId}&cursor=bm9wZQ`, x.key);
  t.deepEqual([list.status, list.body], [400, { error: 'cursor is invalid' }]);
});

test('the MCP tools are the twins of the REST rule operations; the writes say they run only on request', async (t) => {
  const x = await seedTenant(server);
  const client = await connect(server, x.key);
  const { tools } = await client.listTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const name of ['create_alert_rule', 'delete_alert_rule']) {
    t.false(byName.get(name)!.annotations!.readOnlyHint, name);
    t.regex(byName.get(name)!.description!, /explicit request/i, name);
  }
  t.true(byName.get('delete_alert_rule')!.annotations!.destructiveHint);
  for (const name of ['list_alert_rules', 'list_alerts']) t.true(byName.get(name)!.annotations!.readOnlyHint, name);

  const args = { brand_id: x.brandId, metric: 'ai_visibility_score', condition: 'drops_by', threshold: 10 };
  const created: any = await client.callTool({ name: 'create_alert_rule', arguments: args });
  t.falsy(created.isError, JSON.stringify(created.content));
  t.like(created.structuredContent, { ...args, window_days: 7, firing: false, evaluated_on: null });
  const rest = await createRule(x.key, { ...args, window_days: 14 });

  const listed: any = await client.callTool({ name: 'list_alert_rules', arguments: { brand_id: x.brandId } });
  const restList = await get(server, `/api/mcp/alert-rules?brand_id=${x.brandId}`, x.key);
  t.deepEqual(listed.structuredContent, { items: restList.body });
  t.deepEqual(
    restList.body.map((r: any) => r.id),
    [created.structuredContent.id, rest.id],
  );
  const alerts: any = await client.callTool({ name: 'list_alerts', arguments: { brand_id: x.brandId, limit: 5 } });
  t.deepEqual(
    alerts.structuredContent,
    (await get(server, `/api/mcp/alerts?brand_id=${x.brandId}&limit=5`, x.key)).body,
  );

  // The same messages on both surfaces.
  const bad: any = await client.callTool({ name: 'create_alert_rule', arguments: { ...args, threshold: 0 } });
  t.true(bad.isError);
  const badRest = await call(server, 'POST', '/api/mcp/alert-rules', { key: x.key, body: { ...args, threshold: 0 } });
  t.is(bad.content[0].text, badRest.body.error);
  const missing: any = await client.callTool({ name: 'delete_alert_rule', arguments: { rule_id: randomUUID() } });
  t.true(missing.isError);
  t.is(missing.content[0].text, 'Alert rule not found');

  const deleted: any = await client.callTool({
    name: 'delete_alert_rule',
    arguments: { rule_id: created.structuredContent.id },
  });
  t.deepEqual(deleted.structuredContent, { id: created.structuredContent.id, deleted: true });
  t.deepEqual(
    (await get(server, `/api/mcp/alert-rules?brand_id=${x.brandId}`, x.key)).body.map((r: any) => r.id),
    [rest.id],
  );
  await client.close();
});
