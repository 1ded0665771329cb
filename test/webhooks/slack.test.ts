// Slack webhooks (docs/api.md section 21): an endpoint of format slack is registered without a
// secret, takes only the events a channel reads, and receives alert.fired and the daily digest as
// Slack incoming-webhook messages (text and blocks, within Slack's limits, outside text escaped),
// unsigned, through the same outbox and retries as every endpoint.
// test-process: shared
import test from 'ava';
import { call, get, ingestLines, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { enqueueEvent } from '../../src/webhooks/outbox.ts';
import { deliveriesQueued } from '../../src/webhooks/worker.ts';
import { slackMessage } from '../../src/webhooks/slack.ts';
import { findJob } from '../../jobs/index.ts';

let server: TestServer;
let receiver: Receiver;
test.before(async () => {
  server = await startTestServer({
    ALLOW_PRIVATE_URLS: '1',
    WEBHOOK_RETRY_SCHEDULE_MS: '300,300',
    WEBHOOK_TIMEOUT_MS: '1000',
  });
  receiver = await startReceiver();
});
test.after.always(async () => {
  await server?.stop();
  await receiver?.close();
});

const alertData = (brandId: string) => ({
  rule: {
    id: '0b7e0000-0000-4000-8000-000000000001',
    metric: 'mention_rate',
    condition: 'drops_by',
    threshold: 5,
    window_days: 7,
  },
  brand_id: brandId,
  metric: 'mention_rate',
  previous: 100,
  current: 22.2,
  n_previous: 28,
  n_current: 27,
});

type Message = { text: string; blocks: { type: string; text?: { text: string }; fields?: { text: string }[] }[] };

/** Every text of a message, with Slack's limits checked on the way. */
function texts(t: any, m: Message): string[] {
  t.true(m.blocks.length > 0 && m.blocks.length <= 50);
  const out = [m.text];
  for (const b of m.blocks) {
    if (b.type === 'header') t.true(b.text!.text.length <= 150, 'header within 150 characters');
    if (b.text) {
      t.true(b.text.text.length <= 3000, 'section within 3,000 characters');
      out.push(b.text.text);
    }
    if (b.fields) {
      t.true(b.fields.length <= 10);
      for (const f of b.fields) {
        t.true(f.text.length <= 2000);
        out.push(f.text);
      }
    }
  }
  return out;
}

test('an alert becomes a message naming the brand, the rule and both windows', (t) => {
  const m = slackMessage(
    JSON.stringify({ type: 'alert.fired', timestamp: '', data: alertData('b-1') }),
    'Acme <!channel>',
  );
  const all = texts(t, m as Message).join('\n');
  t.is(
    m.text,
    'Alert: Mention rate of Acme &lt;!channel&gt; dropped by 5 points or more: 100 to 22.2 (last 7 days against the 7 days before)',
  );
  t.regex(all, /\*Previous window\*\n100/);
  t.regex(all, /\*Current window\*\n22\.2/);
  t.regex(all, /28 then 27/);
  // Slack reads markup in mrkdwn text and the fallback text; a header is plain text, shown as written.
  const markup = [
    m.text,
    ...m.blocks.filter((b) => b.type !== 'header').flatMap((b) => texts(t, { text: '', blocks: [b] } as Message)),
  ];
  t.false(markup.join('\n').includes('<!channel>'), 'text from outside cannot notify a channel');
});

test('a digest with long lists stays within Slack limits', (t) => {
  const long = 'x'.repeat(400);
  const data = {
    brand: { id: 'b', name: `Acme ${'y'.repeat(200)}` },
    date: '2026-03-10',
    summary: { totals: { aiVisibilityScore: 51, resultCount: 40, totalMentions: 30, totalCitations: 9 } },
    change: { aiVisibilityScore: 6, resultCount: -2, totalMentions: 1, totalCitations: 0 },
    confidence: {
      statement: 'AI visibility score 51.0, up 6.0 from 45.0: within the 95% interval (40.0-60.0), may be noise.',
    },
    sentiment: { net_sentiment: 20, change: null },
    top_movers: {
      prompts: Array.from({ length: 20 }, (_, i) => ({
        prompt_text: `${i} <b>${long}`,
        avg_visibility: 40,
        change: -3,
      })),
      competitors: [{ name: 'Globex & Co', ai_visibility_score: 30, change: 2 }],
    },
    new_opportunities: [{ title: 'Write a comparison', impact: 'high' }],
    alerts: [{}],
  };
  const m = slackMessage(JSON.stringify({ type: 'digest.daily', timestamp: '', data })) as Message;
  const all = texts(t, m).join('\n');
  t.true(m.text.startsWith('Daily digest for Acme'));
  t.regex(all, /\*AI visibility score\*\n51 \(\+6\)/);
  t.regex(all, /within the 95% interval/);
  t.regex(all, /Globex &amp; Co: 30 \(\+2\)/);
  t.regex(all, /&lt;b&gt;/);
  t.regex(all, /Write a comparison \(high impact\)/);
});

async function register(key: string, body: object) {
  return call(server, 'POST', '/api/mcp/webhooks', { key, body });
}

test('a slack endpoint has no secret, lists its format and takes only the events a channel reads', async (t) => {
  const x = await seedTenant(server);
  const hook = receiver.hook();
  const r = await register(x.key, { url: hook.url, events: ['alert.fired', 'digest.daily'], format: 'slack' });
  t.is(r.status, 200);
  t.like(r.body, { format: 'slack', secret: null, events: ['alert.fired', 'digest.daily'] });
  const standard = await register(x.key, { url: hook.url, events: ['digest.daily'] });
  t.like(standard.body, { format: 'standard' });
  t.regex(standard.body.secret, /^whsec_/);
  const list = await get(server, '/api/mcp/webhooks', x.key);
  t.deepEqual(
    list.body.map((e: { format: string }) => e.format),
    ['slack', 'standard'],
  );
  const refused = await register(x.key, { url: hook.url, events: ['opportunity.sent'], format: 'slack' });
  t.deepEqual(
    [refused.status, refused.body.error],
    [400, 'events of a slack webhook must be among: alert.fired, digest.daily, webhook.test'],
  );
  const unknown = await register(x.key, { url: hook.url, events: ['digest.daily'], format: 'teams' });
  t.deepEqual([unknown.status, unknown.body.error], [400, 'format must be one of: standard, slack']);
});

test('alert.fired arrives as an unsigned Slack message, retried after a 500 like any delivery', async (t) => {
  const x = await seedTenant(server);
  const hook = receiver.hook((n) => (n === 0 ? { status: 500 } : {}));
  const endpoint = await register(x.key, { url: hook.url, events: ['alert.fired'], format: 'slack' });
  await enqueueEvent(server.stores.pg, {
    organizationId: x.organizationId,
    type: 'alert.fired',
    data: alertData(x.brandId),
  });
  deliveriesQueued();
  const [first, second] = await receiver.waitFor(hook, 2);
  t.is(second.body, first.body, 'a retry sends the same message');
  t.is(first.headers['content-type'], 'application/json');
  t.is(first.headers['webhook-signature'], undefined);
  const message = JSON.parse(first.body) as Message;
  t.deepEqual(Object.keys(message), ['text', 'blocks']);
  t.true(message.text.startsWith('Alert: Mention rate of Acme dropped by 5 points or more'));
  const deliveries = await get(server, `/api/mcp/webhooks/${endpoint.body.id}/deliveries`, x.key);
  t.like(deliveries.body[0], { type: 'alert.fired' });
});

test('the daily digest arrives as a Slack message; a test event too', async (t) => {
  const x = await seedTenant(server);
  await ingestLines(server, [
    {
      prompt_id: x.promptIds[0],
      platform: 'chatgpt',
      model: 'gpt-4o',
      region: 'US',
      collected_at: '2026-03-10T08:00:00Z',
      text: 'Acme is the pick.',
      citations: [],
    },
  ]);
  const hook = receiver.hook();
  const endpoint = await register(x.key, { url: hook.url, events: ['digest.daily'], format: 'slack' });
  const job = findJob('daily-digest')!;
  const ctx = { stores: server.stores, config: server.config, log: server.log, now: () => new Date() };
  t.like(await job.run(ctx, { date: '2026-03-11', brandId: x.brandId }), { digests: 1, deliveries: 1 });
  const [digest] = await receiver.waitFor(hook, 1);
  const message = JSON.parse(digest.body) as Message;
  t.true(message.text.startsWith('Daily digest for Acme, 2026-03-10: AI visibility score'));
  t.is(message.blocks[0].text!.text, 'Acme: daily digest for 2026-03-10');
  t.is(digest.headers['webhook-signature'], undefined);
  await call(server, 'POST', `/api/mcp/webhooks/${endpoint.body.id}/test`, { key: x.key });
  const [, test] = await receiver.waitFor(hook, 2);
  t.is(JSON.parse(test.body).text, 'Test message from Answerscope');
});
