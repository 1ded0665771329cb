// POST /api/collect, GET /t.js and GET ai-traffic through the running app: bad input, what is kept
// and dropped, the collect rate limit, and the ai-traffic figures against hand-computed values.
// test-process: shared
import http from 'node:http';
import test from 'ava';
import { seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({
    TRUST_PROXY: '1',
    COLLECT_RATE_LIMIT_MAX: '20',
    COLLECT_RATE_LIMIT_WINDOW_S: '60',
    RATE_LIMIT_MAX: '40',
  });
});
test.after.always(async () => {
  await server?.stop();
});

// Every request gets its own client address unless a test pins one, so the limits of this file's
// many requests never interfere; the rate-limit test pins addresses on purpose.
let seq = 0;
const freshIp = () => {
  seq++;
  return `10.${(seq >> 16) & 255}.${(seq >> 8) & 255}.${seq & 255}`;
};

interface BeaconOpts {
  ip?: string;
  ua?: string;
  country?: string;
  contentType?: string;
}

async function beacon(body: unknown, o: BeaconOpts = {}) {
  const headers: Record<string, string> = {
    'content-type': o.contentType ?? 'text/plain;charset=UTF-8',
    'user-agent': o.ua ?? CHROME,
    'x-forwarded-for': o.ip ?? freshIp(),
  };
  if (o.country) headers['cf-ipcountry'] = o.country;
  const res = await fetch(`${server.url}/api/collect`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

async function api(path: string, key?: string, ip = freshIp()) {
  const res = await fetch(`${server.url}${path}`, {
    headers: { 'x-forwarded-for': ip, ...(key ? { authorization: `Bearer ${key}` } : {}) },
  });

  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}

async function trackingId(brandId: string): Promise<string> {
  const { rows } = await server.stores.pg.query<{ tracking_id: string }>(
    'SELECT tracking_id FROM brands WHERE id = $1',
    [brandId],
  );
  return rows[0].tracking_id;
}

const traffic = async (key: string, brandId: string, query = '') => {
  await server.traffic.flush();
  return api(`/api/v1/ai-traffic?brand_id=${brandId}${query}`, key);
};

const EMPTY = { total_visits: 0, platform_breakdown: [], top_pages: [], country_breakdown: [] };

test('GET /t.js is small, cacheable and revalidates with its ETag', async (t) => {
  const res = await fetch(`${server.url}/t.js`);
  const body = await res.text();
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^application\/javascript/);
  t.regex(res.headers.get('cache-control') ?? '', /public, max-age=\d+/);
  const etag = res.headers.get('etag');
  t.truthy(etag);
  t.true(Buffer.byteLength(body) < 2048, `t.js is ${Buffer.byteLength(body)} bytes`);
  t.false(/cookie|localStorage|sessionStorage/.test(body));
  // node:http, not fetch: fetch adds `Cache-Control: no-cache` to conditional requests, which
  // rightly forces a full answer.
  const again = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
    http
      .get(`${server.url}/t.js`, { headers: { 'if-none-match': etag! } }, (res) => {
        let b = '';
        res
          .on('data', (c) => {
            b += c;
          })
          .on('end', () => resolve({ status: res.statusCode, body: b }));
      })
      .on('error', reject);
  });
  t.is(again.status, 304);
  t.is(again.body, '');
  t.is((await fetch(`${server.url}/t.js`, { method: 'POST' })).status, 405);
});

test('/api/collect answers the CORS preflight and needs no API key', async (t) => {
  const pre = await fetch(`${server.url}/api/collect`, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://acme.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });
  t.is(pre.status, 204);
  t.is(pre.headers.get('access-control-allow-origin'), '*');
  t.regex(pre.headers.get('access-control-allow-methods') ?? '', /POST/);
  t.regex(pre.headers.get('access-control-allow-headers') ?? '', /content-type/i);
  const get = await fetch(`${server.url}/api/collect`);
  t.is(get.status, 405);
  t.is(get.headers.get('allow'), 'POST, OPTIONS');
  t.deepEqual(await get.json(), { error: 'Method GET not allowed on /api/collect' });
});

test('an AI visit is accepted with 202 and an empty body, and counted once flushed', async (t) => {
  const { brandId, key } = await seedTenant(server);
  const site = await trackingId(brandId);
  const res = await beacon(
    { site, url: 'https://acme.example/pricing?utm_campaign=x#top', referrer: 'https://chatgpt.com/' },
    { country: 'de' },
  );
  t.is(res.status, 202);
  t.is(res.text, '');
  t.is(res.headers.get('access-control-allow-origin'), '*');
  // JSON content type is accepted as well as sendBeacon's text/plain.
  t.is(
    (
      await beacon(
        { site, url: 'https://acme.example/', referrer: 'https://www.perplexity.ai/search/x' },
        { contentType: 'application/json', ip: '8.8.8.8' },
      )
    ).status,
    202,
  );

  const r = await traffic(key, brandId);
  t.is(r.status, 200);
  t.deepEqual(r.body, {
    total_visits: 2,
    platform_breakdown: [
      { platform: 'chatgpt', visits: 1 },
      { platform: 'perplexity', visits: 1 },
    ],
    top_pages: [
      { url: '/', visits: 1 },
      { url: '/pricing', visits: 1 },
    ],
    // CF-IPCountry (upper-cased) for one; the address look-up (8.8.8.8) for the other.
    country_breakdown: [
      { country: 'DE', visits: 1 },
      { country: 'US', visits: 1 },
    ],
  });
  const rows = await server.stores.ch.system<Record<string, unknown>>(
    'SELECT * FROM ai_visits WHERE brand_id = {b:UUID} ORDER BY platform',
    { b: brandId },
  );
  t.deepEqual(
    rows.map((row) => Object.keys(row).sort()),
    Array(2).fill(['brand_id', 'country', 'day', 'path', 'platform', 'referrer_host', 'ts']),
  );
  t.deepEqual(
    rows.map((row) => [row.path, row.referrer_host]),
    [
      ['/pricing', 'chatgpt.com'],
      ['/', 'www.perplexity.ai'],
    ],
  );
  t.false(JSON.stringify(rows).includes('8.8.8.8'), 'the client address is never stored');
});

test('non-AI visits and crawlers are accepted with 202 and dropped; utm_source counts', async (t) => {
  const { brandId, key } = await seedTenant(server);
  const site = await trackingId(brandId);
  const sent = [
    await beacon({ site, url: 'https://acme.example/a', referrer: 'https://www.google.com/' }),
    await beacon({ site, url: 'https://acme.example/b', referrer: '' }),
    await beacon({ site, url: 'https://acme.example/c', referrer: 'https://notchatgpt.com/' }),
    await beacon({ site, url: 'https://acme.example/d', referrer: 'https://claude.example.workers.dev/' }),
    await beacon(
      { site, url: 'https://acme.example/e', referrer: 'https://chatgpt.com/' },
      { ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)' },
    ),
    await beacon(
      { site, url: 'https://acme.example/f', referrer: 'https://chatgpt.com/' },
      {
        ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
      },
    ),
    await beacon({ site, url: 'https://acme.example/g?utm_source=chatgpt.com', referrer: 'https://www.google.com/' }),
    await beacon({ site, url: 'https://acme.example/h?utm_source=perplexity', referrer: '' }),
  ];
  t.deepEqual(
    sent.map((s) => s.status),
    Array(8).fill(202),
  );
  const r = await traffic(key, brandId);
  t.deepEqual(r.body.platform_breakdown, [
    { platform: 'chatgpt', visits: 1 },
    { platform: 'perplexity', visits: 1 },
  ]);
  t.deepEqual(r.body.top_pages, [
    { url: '/g', visits: 1 },
    { url: '/h', visits: 1 },
  ]);
  t.is(r.body.total_visits, 2);
});

// docs/api.md section 9: the tracking id is public, so anyone can send a beacon with it; only a page on
// the brand's own domains (or a sub-domain of one) counts. Another host is answered 202 and dropped.
test("a beacon counts only when its page is on one of the brand's domains or a sub-domain of one", async (t) => {
  const { brandId, key } = await seedTenant(server);
  const site = await trackingId(brandId);
  const referrer = 'https://chatgpt.com/';
  const kept = [
    'https://acme.example/a',
    'https://blog.acme.example/b',
    'https://WWW.Acme.Example:8443/c',
    'http://www.acme.example./d',
  ];
  const dropped = [
    'https://attacker.example/x',
    'https://acme.example.evil.com/x',
    'https://evilacme.example/x',
    'https://www.evilacme.example/x',
    'https://acme.example@attacker.example/x',
    'https://attacker.example/acme.example',
    'https://attacker.example/?u=https://acme.example/',
    'https://acmeexample/x',
    'http://127.0.0.1:8080/x',
  ];
  for (const url of [...kept, ...dropped]) {
    const res = await beacon({ site, url, referrer });
    t.is(res.status, 202, url);
    t.is(res.text, '', url);
  }
  const r = await traffic(key, brandId);
  t.is(r.body.total_visits, kept.length);
  t.deepEqual(
    r.body.top_pages.map((p: any) => p.url),
    ['/a', '/b', '/c', '/d'],
  );
});

test('a brand without domains counts no beacon', async (t) => {
  const { brandId, key } = await seedTenant(server, [{ name: 'Nowhere', slug: 'nowhere', domains: [] }]);
  const site = await trackingId(brandId);
  const res = await beacon({ site, url: 'https://nowhere.example/', referrer: 'https://chatgpt.com/' });
  t.is(res.status, 202);
  t.deepEqual((await traffic(key, brandId)).body, EMPTY);
});

test('bad input gets 400 and stores nothing', async (t) => {
  const { brandId, key } = await seedTenant(server);
  const site = await trackingId(brandId);
  const good = { site, url: 'https://acme.example/x', referrer: 'https://chatgpt.com/' };
  const cases: [string, unknown, RegExp][] = [
    ['unknown site', { ...good, site: 'as_doesnotexist' }, /^Unknown site$/],
    ['malformed JSON', JSON.stringify(good).slice(0, -1), /^Malformed JSON body$/],
    ['empty body', '', /^Malformed JSON body$/],
    ['oversized body', { ...good, url: `https://acme.example/${'a'.repeat(9000)}` }, /^Body exceeds 8192 bytes$/],
    ['not an object', [good], /^Request body must be a JSON object$/],
    ['site not a string', { ...good, site: 12345678 }, /^site must be a string$/],
    ['bad tracking id', { ...good, site: 'a b' }, /^site must be a tracking id$/],
    ['missing site', { url: good.url, referrer: good.referrer }, /^site is required$/],
    ['missing url', { site, referrer: good.referrer }, /^url is required$/],
    ['url not http', { ...good, url: 'javascript:alert(1)' }, /^url must be an http\(s\) URL$/],
    ['referrer not a string', { ...good, referrer: 42 }, /^referrer must be a string$/],
  ];
  for (const [name, body, message] of cases) {
    const res = await beacon(body);
    t.is(res.status, 400, name);
    t.regex(JSON.parse(res.text).error, message, name);
  }
  // An oversized body sent without Content-Length (chunked) is cut off while it streams.
  const stream = new ReadableStream({
    start(c) {
      for (let i = 0; i < 20; i++) c.enqueue(new TextEncoder().encode(`{"pad":"${'b'.repeat(1000)}",`));
      c.close();
    },
  });
  const chunked = await fetch(`${server.url}/api/collect`, {
    method: 'POST',
    body: stream,
    duplex: 'half',
    headers: { 'user-agent': CHROME, 'x-forwarded-for': freshIp() },
  } as RequestInit);
  t.is(chunked.status, 400);
  t.is((await traffic(key, brandId)).text, JSON.stringify(EMPTY));
});

test('the collect limit is per address and apart from the API limit', async (t) => {
  const { brandId, key } = await seedTenant(server);
  const site = await trackingId(brandId);
  const body = { site, url: 'https://acme.example/', referrer: 'https://claude.ai/' };
  for (let i = 0; i < 20; i++) t.is((await beacon(body, { ip: '203.0.113.10' })).status, 202);
  const over = await beacon(body, { ip: '203.0.113.10' });
  t.is(over.status, 429);
  t.true(Number(over.headers.get('retry-after')) >= 1);
  t.is((await beacon(body, { ip: '203.0.113.11' })).status, 202, 'another address has its own window');
  t.is(
    (await api('/api/v1/whoami', key, '203.0.113.10')).status,
    200,
    'a busy site does not lock its owner out of the API',
  );
  // And the other way round: an address that used up the API limit still sends beacons.
  for (let i = 0; i < 41; i++) await api('/api/v1/whoami', undefined, '203.0.113.12');
  t.is((await api('/api/v1/whoami', key, '203.0.113.12')).status, 429);
  t.is((await beacon(body, { ip: '203.0.113.12' })).status, 202);
  t.is((await traffic(key, brandId)).body.total_visits, 22);
});

// Hand-computed figures over rows written straight into the table (timestamps on known days).
test('ai-traffic figures, date filters, ordering and tenancy', async (t) => {
  const { brandId, key } = await seedTenant(server);
  const other = await seedTenant(server);
  const row = (ts: string, platform: string, path: string, country: string, brand = brandId) => ({
    brand_id: brand,
    ts,
    day: ts.slice(0, 10),
    platform,
    path,
    country,
    referrer_host: `${platform}.example`,
  });
  await server.stores.ch.insert('ai_visits', [
    row('2026-03-01 08:00:00.000', 'chatgpt', '/pricing', 'US'),
    row('2026-03-01 09:00:00.000', 'chatgpt', '/pricing', 'US'),
    row('2026-03-01 10:00:00.000', 'perplexity', '/', 'DE'),
    row('2026-03-02 00:00:00.000', 'chatgpt', '/blog/a', 'GB'),
    row('2026-03-02 12:00:00.000', 'gemini', '/', 'US'),
    row('2026-03-02 23:59:59.500', 'claude', '/pricing', 'US'),
    row('2026-03-03 07:00:00.000', 'perplexity', '/pricing', 'DE'),
    row('2026-03-03 08:00:00.000', 'chatgpt', '/docs', 'FR'),
    row('2026-03-02 12:00:00.000', 'chatgpt', '/pricing', 'US', other.brandId),
  ]);

  const all = await traffic(key, brandId);
  t.deepEqual(all.body, {
    total_visits: 8,
    platform_breakdown: [
      { platform: 'chatgpt', visits: 4 },
      { platform: 'perplexity', visits: 2 },
      { platform: 'claude', visits: 1 },
      { platform: 'gemini', visits: 1 },
    ],
    top_pages: [
      { url: '/pricing', visits: 4 },
      { url: '/', visits: 2 },
      { url: '/blog/a', visits: 1 },
      { url: '/docs', visits: 1 },
    ],
    country_breakdown: [
      { country: 'US', visits: 4 },
      { country: 'DE', visits: 2 },
      { country: 'FR', visits: 1 },
      { country: 'GB', visits: 1 },
    ],
  });

  // A bare date_to takes the whole day, through 23:59:59.999.
  const day2 = await traffic(key, brandId, '&date_from=2026-03-02&date_to=2026-03-02');
  t.deepEqual(day2.body, {
    total_visits: 3,
    platform_breakdown: [
      { platform: 'chatgpt', visits: 1 },
      { platform: 'claude', visits: 1 },
      { platform: 'gemini', visits: 1 },
    ],
    top_pages: [
      { url: '/', visits: 1 },
      { url: '/blog/a', visits: 1 },
      { url: '/pricing', visits: 1 },
    ],
    country_breakdown: [
      { country: 'US', visits: 2 },
      { country: 'GB', visits: 1 },
    ],
  });
  const from2 = await traffic(key, brandId, '&date_from=2026-03-02');
  t.deepEqual(from2.body.platform_breakdown, [
    { platform: 'chatgpt', visits: 2 },
    { platform: 'claude', visits: 1 },
    { platform: 'gemini', visits: 1 },
    { platform: 'perplexity', visits: 1 },
  ]);
  t.is(from2.body.total_visits, 5);
  const stamp = await traffic(key, brandId, '&date_from=2026-03-02T12:00:00Z&date_to=2026-03-03T07:00:00Z');
  t.is(stamp.body.total_visits, 3, 'full timestamps bound to the millisecond, both ends inclusive');
  t.deepEqual((await traffic(key, brandId, '&date_to=2026-02-28')).body, EMPTY);

  // The Metrics API answer is byte-identical to the REST one.
  for (const q of ['', '&date_from=2026-03-02&date_to=2026-03-02']) {
    const rest = await api(`/api/mcp/ai-traffic?brand_id=${brandId}${q}`, key);
    t.is(rest.status, 200);
    t.is(rest.text, (await api(`/api/v1/ai-traffic?brand_id=${brandId}${q}`, key)).text);
  }

  // Another organization's brand does not exist for this key; bad parameters name themselves.
  const foreign = await api(`/api/v1/ai-traffic?brand_id=${other.brandId}`, key);
  t.is(foreign.status, 404);
  t.deepEqual(foreign.body, { error: 'Brand not found' });
  t.deepEqual((await api('/api/v1/ai-traffic', key)).body, { error: 'brand_id is required' });
  const bad = await api(`/api/v1/ai-traffic?brand_id=${brandId}&date_from=yesterday`, key);
  t.is(bad.status, 400);
  t.regex(bad.body.error, /date_from/);
  t.deepEqual((await traffic(other.key, other.brandId)).body.total_visits, 1);
});

test('top_pages holds the 10 most visited pages, ties by path', async (t) => {
  const { brandId, key } = await seedTenant(server);
  const rows = [];
  // /p01 gets 12 visits, /p02 11, ..., /p12 1: the top 10 are /p01../p10.
  for (let i = 1; i <= 12; i++) {
    for (let n = 0; n < 13 - i; n++) {
      rows.push({
        brand_id: brandId,
        ts: '2026-04-01 10:00:00.000',
        day: '2026-04-01',
        platform: 'chatgpt',
        path: `/p${String(i).padStart(2, '0')}`,
        country: 'XX',
        referrer_host: 'chatgpt.com',
      });
    }
  }
  // /a-tie ties with /p10 at 3 visits and sorts before it, so /p10 is the one left out.
  rows.push(...Array(3).fill({ ...rows[0], path: '/a-tie' }), { ...rows[0], path: '/z-tie' });
  await server.stores.ch.insert('ai_visits', rows);
  const r = await traffic(key, brandId);
  t.is(r.body.total_visits, 82);
  t.deepEqual(
    r.body.top_pages.map((p: any) => `${p.url}:${p.visits}`),
    ['/p01:12', '/p02:11', '/p03:10', '/p04:9', '/p05:8', '/p06:7', '/p07:6', '/p08:5', '/p09:4', '/a-tie:3'],
  );
  t.deepEqual(r.body.country_breakdown, [{ country: 'XX', visits: 82 }]);
});

test('a brand without visits gets zeros and empty lists', async (t) => {
  const { brandId, key } = await seedTenant(server);
  const r = await traffic(key, brandId);
  t.is(r.status, 200);
  t.deepEqual(r.body, EMPTY);
});
