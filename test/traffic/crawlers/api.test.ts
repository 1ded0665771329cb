// AI crawler analytics through the running service, as clients use it: the batch endpoint (kept,
// dropped, bad input, tenancy, its own rate limit), the ai-crawlers figures against hand-computed
// values on REST, the Metrics API and MCP, and `answerscope crawler-logs import` on the command line.
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { call, seedTenant, startTestServer, type Tenant, type TestServer } from '../../helpers/server.ts';
import { cli } from '../../helpers/cli.ts';
import { connect } from '../../mcp/client.ts';

const UA = {
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot',
  chatgpt: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  claude: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  amazon:
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36',
  perplexity:
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  chrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

let server: TestServer;
test.before(async () => {
  server = await startTestServer({
    TRUST_PROXY: '1',
    RATE_LIMIT_MAX: '1000',
    CRAWLER_LOGS_RATE_LIMIT_MAX: '3',
    CRAWLER_LOGS_RATE_LIMIT_WINDOW_S: '600',
  });
});
test.after.always(async () => {
  await server?.stop();
});

let seq = 0;
/** Each request its own client address unless a test pins one (the limits are per address). */
const freshIp = () => {
  seq++;
  return `10.9.${(seq >> 8) & 255}.${seq & 255}`;
};

const post = (tenant: { key: string }, brandId: string, body: unknown, ip = freshIp()) =>
  call(server, 'POST', `/api/mcp/crawler-logs?brand_id=${brandId}`, {
    key: tenant.key,
    body,
    headers: { 'x-forwarded-for': ip },
  });

const read = (tenant: Tenant, prefix: string, query = '') =>
  call(server, 'GET', `${prefix}/ai-crawlers?brand_id=${tenant.brandId}${query}`, {
    key: tenant.key,
    headers: { 'x-forwarded-for': freshIp() },
  });

const entry = (o: Record<string, unknown>) => ({
  method: 'GET',
  host: 'acme.example',
  path: '/pricing',
  status_code: 200,
  ...o,
});

// Addresses: 20.171.206.0/24 is in OpenAI's gptbot.json, 4.151.71.176/28 in chatgpt-user.json,
// 216.73.216.0/22 in Anthropic's bots.json; Amazonbot has no ranges bundled.
const BATCH = [
  entry({ timestamp: '2026-01-10T08:00:00Z', ip: '20.171.206.10', user_agent: UA.gptbot }),
  entry({ timestamp: '2026-01-10T09:00:00Z', ip: '20.171.206.11', user_agent: UA.gptbot, bytes_sent: 5120 }),
  // Claims GPTBot from outside OpenAI's ranges, later than the real ones: counted only as spoofed.
  entry({ timestamp: '2026-01-10T10:00:00Z', ip: '198.51.100.7', user_agent: UA.gptbot }),
  entry({
    timestamp: '2026-01-11T12:00:00+01:00',
    ip: '216.73.216.5',
    user_agent: UA.claude,
    host: 'blog.acme.example',
    path: '/blog/a',
    status_code: 404,
    referer: 'https://claude.ai/',
    duration_ms: 12.5,
  }),
  entry({ timestamp: '2026-01-11T13:00:00Z', ip: '203.0.113.9', user_agent: UA.amazon, path: '/', status_code: 301 }),
  entry({ timestamp: '2026-01-11T14:00:00Z', ip: '2001:db8::1', user_agent: UA.perplexity }),
  entry({ timestamp: '2026-01-12T06:00:00Z', ip: '4.151.71.180', user_agent: UA.chatgpt, path: '/pricing?utm=x' }),
  // Dropped: not an AI bot, or not the brand's host.
  entry({ timestamp: '2026-01-12T06:00:00Z', ip: '192.0.2.1', user_agent: UA.chrome }),
  entry({ timestamp: '2026-01-12T06:00:00Z', ip: '192.0.2.1', user_agent: UA.googlebot }),
  entry({ timestamp: '2026-01-12T06:00:00Z', ip: '20.171.206.10', user_agent: UA.gptbot, host: 'evil.example' }),
  entry({
    timestamp: '2026-01-12T06:00:00Z',
    ip: '20.171.206.10',
    user_agent: UA.gptbot,
    host: 'acme.example.evil.com',
  }),
  entry({ timestamp: '2026-01-12T06:00:00Z', ip: '20.171.206.10', user_agent: UA.gptbot, host: 'notacme.example' }),
];

const FIGURES = {
  total_hits: 5,
  by_bot: [
    {
      bot_name: 'GPTBot',
      provider: 'OpenAI',
      bot_type: 'ai_training',
      hits: 2,
      verified_hits: 2,
      spoofed_hits: 1,
      last_visit: '2026-01-10T09:00:00.000Z',
    },
    {
      bot_name: 'Amazonbot',
      provider: 'Amazon',
      bot_type: 'ai_training',
      hits: 1,
      verified_hits: 0,
      spoofed_hits: 0,
      last_visit: '2026-01-11T13:00:00.000Z',
    },
    {
      bot_name: 'ChatGPT-User',
      provider: 'OpenAI',
      bot_type: 'ai_assistant',
      hits: 1,
      verified_hits: 1,
      spoofed_hits: 0,
      last_visit: '2026-01-12T06:00:00.000Z',
    },
    {
      bot_name: 'ClaudeBot',
      provider: 'Anthropic',
      bot_type: 'ai_training',
      hits: 1,
      verified_hits: 1,
      spoofed_hits: 0,
      last_visit: '2026-01-11T11:00:00.000Z',
    },
    {
      bot_name: 'PerplexityBot',
      provider: 'Perplexity',
      bot_type: 'ai_search',
      hits: 0,
      verified_hits: 0,
      spoofed_hits: 1,
      last_visit: null,
    },
  ],
  by_type: [
    { bot_type: 'ai_training', hits: 4 },
    { bot_type: 'ai_assistant', hits: 1 },
  ],
  top_pages: [
    { path: '/pricing', hits: 3, bots: 2 },
    { path: '/', hits: 1, bots: 1 },
    { path: '/blog/a', hits: 1, bots: 1 },
  ],
  status_breakdown: [
    { status_class: '2xx', hits: 3 },
    { status_class: '3xx', hits: 1 },
    { status_class: '4xx', hits: 1 },
  ],
};

test('a batch keeps the brand’s AI crawler hits and drops the rest; the figures follow, on every surface', async (t) => {
  const tenant = await seedTenant(server);
  const res = await post(tenant, tenant.brandId, BATCH);
  t.is(res.status, 202, JSON.stringify(res.body));
  t.deepEqual(res.body, { accepted: 7, dropped: 5 });

  const rest = await read(tenant, '/api/mcp');
  t.is(rest.status, 200, JSON.stringify(rest.body));
  t.deepEqual(rest.body, FIGURES);
  const v1 = await read(tenant, '/api/v1');
  t.deepEqual(v1.body, FIGURES);
  const client = await connect(server, tenant.key, { 'x-forwarded-for': freshIp() });
  try {
    const result: any = await client.callTool({ name: 'get_ai_crawlers', arguments: { brand_id: tenant.brandId } });
    t.falsy(result.isError);
    t.deepEqual(JSON.parse(result.content[0].text), FIGURES);
  } finally {
    await client.close();
  }

  // One whole day reads the daily rollup; a range inside a day reads the hits themselves.
  const day = await read(tenant, '/api/mcp', '&date_from=2026-01-11&date_to=2026-01-11');
  t.is(day.body.total_hits, 2);
  t.deepEqual(
    day.body.by_bot.map((b: any) => [b.bot_name, b.hits, b.spoofed_hits]),
    [
      ['Amazonbot', 1, 0],
      ['ClaudeBot', 1, 0],
      ['PerplexityBot', 0, 1],
    ],
  );
  const hours = await read(tenant, '/api/mcp', '&date_from=2026-01-10T08:30:00Z&date_to=2026-01-10');
  t.deepEqual(hours.body.by_bot, [
    {
      bot_name: 'GPTBot',
      provider: 'OpenAI',
      bot_type: 'ai_training',
      hits: 1,
      verified_hits: 1,
      spoofed_hits: 1,
      last_visit: '2026-01-10T09:00:00.000Z',
    },
  ]);
  t.deepEqual(hours.body.top_pages, [{ path: '/pricing', hits: 1, bots: 1 }]);
  const none = await read(tenant, '/api/mcp', '&date_from=2025-01-01&date_to=2025-12-31');
  t.deepEqual(none.body, { total_hits: 0, by_bot: [], by_type: [], top_pages: [], status_breakdown: [] });
});

test('bad input answers 400 naming the entry and field, and stores nothing', async (t) => {
  const tenant = await seedTenant(server);
  const good = BATCH[0];
  const cases: [unknown, string][] = [
    [{ not: 'an array' }, 'Request body must be a JSON array of log entries'],
    [Array.from({ length: 1001 }, () => good), 'Request body accepts at most 1000 entries, got 1001'],
    [[good, 'text'], 'entries[1] must be a JSON object'],
    [[good, { ...good, status_code: 99 }], 'entries[1].status_code must be an integer from 100 to 599'],
    // A string is not the documented integer, even a numeric one.
    [[good, { ...good, status_code: '200' }], 'entries[1].status_code must be an integer from 100 to 599'],
    // Numbers past their column (UInt64, Float64) failed the insert and lost the batch with a 500.
    [[good, { ...good, bytes_sent: 1e300 }], 'entries[1].bytes_sent must be an integer from 0 to 9007199254740991'],
    [[good, { ...good, bytes_sent: 1.5 }], 'entries[1].bytes_sent must be an integer from 0 to 9007199254740991'],
    [[good, { ...good, bytes_sent: '512' }], 'entries[1].bytes_sent must be an integer from 0 to 9007199254740991'],
    [[{ ...good, duration_ms: -0.5 }], 'entries[0].duration_ms must be a finite number of 0 or more'],
    [[{ ...good, ip: 'nowhere' }], 'entries[0].ip must be an IPv4 or IPv6 address'],
    [
      [{ ...good, timestamp: '2026-02-30T00:00:00Z' }],
      'entries[0].timestamp must be an ISO 8601 timestamp with a time and zone',
    ],
    [[{ ...good, user_agent: undefined }], 'entries[0].user_agent is required'],
  ];
  for (const [body, error] of cases) {
    const res = await post(tenant, tenant.brandId, body);
    t.is(res.status, 400, error);
    t.deepEqual(res.body, { error });
  }
  const malformed = await post(tenant, tenant.brandId, '[{"timestamp": ');
  t.deepEqual([malformed.status, malformed.body], [400, { error: 'Malformed JSON body' }]);
  const noBrand = await call(server, 'POST', '/api/mcp/crawler-logs', {
    key: tenant.key,
    body: [good],
    headers: { 'x-forwarded-for': freshIp() },
  });
  t.deepEqual([noBrand.status, noBrand.body], [400, { error: 'brand_id is required' }]);
  const badBrand = await post(tenant, 'acme', [good]);
  t.deepEqual([badBrand.status, badBrand.body], [400, { error: 'brand_id must be a UUID' }]);
  const get = await call(server, 'GET', `/api/mcp/crawler-logs?brand_id=${tenant.brandId}`, { key: tenant.key });
  t.is(get.status, 405);
  // The first bad entry refused its whole batch: the good entries before it were not stored.
  const figures = await read(tenant, '/api/mcp');
  t.is(figures.body.total_hits, 0);
  // An empty batch is a batch.
  const empty = await post(tenant, tenant.brandId, []);
  t.deepEqual([empty.status, empty.body], [202, { accepted: 0, dropped: 0 }]);
});

test('another organization’s brand does not exist, and the endpoint needs a key', async (t) => {
  const owner = await seedTenant(server);
  const other = await seedTenant(server);
  const write = await post(other, owner.brandId, [BATCH[0]]);
  t.deepEqual([write.status, write.body], [404, { error: 'Brand not found' }]);
  const readOther = await call(server, 'GET', `/api/mcp/ai-crawlers?brand_id=${owner.brandId}`, {
    key: other.key,
    headers: { 'x-forwarded-for': freshIp() },
  });
  t.deepEqual([readOther.status, readOther.body], [404, { error: 'Brand not found' }]);
  const keyless = await call(server, 'POST', `/api/mcp/crawler-logs?brand_id=${owner.brandId}`, {
    body: [BATCH[0]],
    headers: { 'x-forwarded-for': freshIp() },
  });
  t.is(keyless.status, 401);
  t.is((await read(owner, '/api/mcp')).body.total_hits, 0);
});

test('the batch endpoint has its own rate limit, apart from the API’s', async (t) => {
  const tenant = await seedTenant(server);
  const ip = '10.77.0.1';
  for (let i = 0; i < 3; i++) t.is((await post(tenant, tenant.brandId, [], ip)).status, 202);
  const limited = await post(tenant, tenant.brandId, [], ip);
  t.is(limited.status, 429);
  t.regex(limited.body.error, /^Too many requests: the limit is 3 per 600 seconds; retry in \d+ seconds$/);
  t.truthy(limited.headers.get('retry-after'));
  // The API from the same address is untouched: its budget was not spent by the batches.
  const api = await call(server, 'GET', `/api/mcp/ai-crawlers?brand_id=${tenant.brandId}`, {
    key: tenant.key,
    headers: { 'x-forwarded-for': ip },
  });
  t.is(api.status, 200);
  t.is(api.headers.get('ratelimit-remaining'), '999');
  // Rate limit before the key: a request without one is limited too, learning nothing about keys.
  const keyless = await call(server, 'POST', `/api/mcp/crawler-logs?brand_id=${tenant.brandId}`, {
    body: [],
    headers: { 'x-forwarded-for': ip },
  });
  t.is(keyless.status, 429);
});

test('answerscope crawler-logs import reads combined, vhost and JSON lines, rejecting bad lines by number', async (t) => {
  const tenant = await seedTenant(server);
  const dir = fs.mkdtempSync(path.join(server.dataDir, 'logs-'));
  const file = path.join(dir, 'access.log');
  const lines = [
    `20.171.206.10 - - [10/Jan/2026:08:00:00 +0000] "GET /docs HTTP/1.1" 200 512 "-" "${UA.gptbot}"`,
    `blog.acme.example:443 2001:db8::7 - - [10/Jan/2026:09:00:00 +0000] "GET /blog/b HTTP/2.0" 200 - "-" "${UA.amazon}" 0.020`,
    `192.0.2.1 - - [10/Jan/2026:09:30:00 +0000] "GET / HTTP/1.1" 200 512 "-" "${UA.chrome}"`,
    'this is not a log line',
    JSON.stringify(
      entry({ timestamp: '2026-01-10T10:00:00Z', ip: '216.73.216.9', user_agent: UA.claude, path: '/docs' }),
    ),
    '',
    JSON.stringify(
      entry({ timestamp: '2026-01-10T10:00:00Z', ip: '1.2.3.4', user_agent: UA.claude, status_code: 700 }),
    ),
    '[1, 2]',
    `evil.example 20.171.206.10 - - [10/Jan/2026:08:00:00 +0000] "GET /docs HTTP/1.1" 200 512 "-" "${UA.gptbot}"`,
  ];
  fs.writeFileSync(file, `\uFEFF${lines.join('\n')}\n`);
  const run = await cli(
    ['crawler-logs', 'import', file, '--brand', tenant.brandId, '--host', 'acme.example'],
    server.env,
  );
  t.is(run.code, 0, run.stderr);
  t.deepEqual(run.json, {
    read: 8,
    accepted: 3,
    dropped: 2,
    rejected: [
      { line: 4, error: 'the line is not in the combined log format (no [time])' },
      { line: 7, error: 'status_code must be an integer from 100 to 599' },
      { line: 8, error: 'line must be a JSON object' },
    ],
    rejected_count: 3,
  });
  const figures = await read(tenant, '/api/mcp');
  t.is(figures.body.total_hits, 3);
  t.deepEqual(figures.body.top_pages, [
    { path: '/docs', hits: 2, bots: 2 },
    { path: '/blog/b', hits: 1, bots: 1 },
  ]);
  t.deepEqual(
    figures.body.by_bot.map((b: any) => [b.bot_name, b.verified_hits]),
    [
      ['Amazonbot', 0],
      ['ClaudeBot', 1],
      ['GPTBot', 1],
    ],
  );

  const usage = await cli(['crawler-logs', 'import', file], server.env);
  t.is(usage.code, 1);
  t.regex(usage.stderr, /^--brand is required/);
  const unknown = await cli(
    ['crawler-logs', 'import', file, '--brand', '00000000-0000-4000-8000-000000000000'],
    server.env,
  );
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /^No brand 00000000-0000-4000-8000-000000000000/);
});

test('the address is never stored', async (t) => {
  const tenant = await seedTenant(server);
  t.is((await post(tenant, tenant.brandId, [BATCH[0]])).status, 202);
  const columns = await server.stores.ch.system<{ name: string }>(
    "SELECT name FROM system.columns WHERE database = currentDatabase() AND table IN ('ai_crawler_hits', 'ai_crawler_daily')",
  );
  t.false(columns.some((c) => /ip|addr/i.test(c.name)));
  const rows = await server.stores.ch.system<Record<string, unknown>>(
    'SELECT * FROM ai_crawler_hits WHERE brand_id = {b:UUID}',
    { b: tenant.brandId },
  );
  t.is(rows.length, 1);
  t.false(JSON.stringify(rows).includes('20.171.206.10'));
});
