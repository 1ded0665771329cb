// The real script in a real browser: a page served on loopback embeds /t.js from the running app
// (another origin, as on a customer's site), headless Chromium opens it with a referrer, and the
// visit shows in GET /api/v1/ai-traffic, or does not.
// test-process: shared
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { Browser, BrowserContext, Request } from 'playwright-core';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium } from '../helpers/chromium.ts';
import { seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';

// Headless Chromium says "HeadlessChrome" in its user agent, which the collector rightly treats as
// a bot; the page is opened with an ordinary desktop Chrome user agent instead.
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

let server: TestServer;
let site: http.Server;
let siteUrl: string;
let browser: Browser;

test.before(async () => {
  if (!HAVE_CHROMIUM) return;
  server = await startTestServer();
  // The customer's site: /anything?site=TRACKING_ID embeds the tracking script as docs/api.md section 6 says.
  site = http.createServer((req, res) => {
    const id = new URL(req.url ?? '/', 'http://x').searchParams.get('site') ?? '';
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html><head><title>Acme</title>
<script async src="${server.url}/t.js" data-site="${id.replace(/[^A-Za-z0-9_-]/g, '')}"></script>
</head><body><h1>Acme</h1></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

test.after.always(async () => {
  await browser?.close();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  await server?.stop();
});

async function trackingId(brandId: string): Promise<string> {
  const { rows } = await server.stores.pg.query<{ tracking_id: string }>(
    'SELECT tracking_id FROM brands WHERE id = $1',
    [brandId],
  );
  return rows[0].tracking_id;
}

async function aiTraffic(key: string, brandId: string) {
  await server.traffic.flush();
  const res = await fetch(`${server.url}/api/v1/ai-traffic?brand_id=${brandId}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return res.json();
}

/** Opens the page with a referrer; resolves once /t.js has run, with the beacons the page sent. */
async function visit(context: BrowserContext, url: string, referer: string): Promise<Request[]> {
  const page = await context.newPage();
  const beacons: Request[] = [];
  page.on('request', (r) => {
    if (r.url() === `${server.url}/api/collect`) beacons.push(r);
  });
  await page.goto(url, { referer, waitUntil: 'load' });
  await page.waitForFunction(() => (window as any).__answerscope === 1);
  // A beacon leaves as the script runs; give its request event a moment to arrive.
  await page.waitForTimeout(300);
  await page.close();
  return beacons;
}

/** Polls until the ai-traffic total reaches `total` (the beacon is asynchronous) or 10 s pass. */
async function waitForTotal(key: string, brandId: string, total: number) {
  const until = Date.now() + 10_000;
  for (;;) {
    const r = await aiTraffic(key, brandId);
    if (r.total_visits >= total || Date.now() > until) return r;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// The customer's site is served on loopback, so that is the brand's domain: a beacon counts only for
// a page on one of the brand's domains (docs/api.md section 9).
const seedSite = () => seedTenant(server, [{ name: 'Acme', slug: 'acme', domains: ['127.0.0.1'] }]);

const browserTest = HAVE_CHROMIUM ? test.serial : test.skip;
const skipped = HAVE_CHROMIUM ? '' : ` (skipped: ${CHROMIUM} is absent; apt-get install chromium)`;

browserTest(`a visit from ChatGPT is counted; one from Google is not${skipped}`, async (t) => {
  const { brandId, key } = await seedSite();
  const id = await trackingId(brandId);
  const context = await browser.newContext({ userAgent: CHROME });
  try {
    const fromChatgpt = await visit(context, `${siteUrl}/pricing?site=${id}`, 'https://chatgpt.com/');
    t.is(fromChatgpt.length, 1, 'one beacon per page view');
    const sent = JSON.parse(fromChatgpt[0].postData() ?? '{}');
    t.deepEqual(sent, { site: id, url: `${siteUrl}/pricing?site=${id}`, referrer: 'https://chatgpt.com/' });
    t.falsy(fromChatgpt[0].headers().cookie);

    const counted = await waitForTotal(key, brandId, 1);
    t.deepEqual(counted, {
      total_visits: 1,
      platform_breakdown: [{ platform: 'chatgpt', visits: 1 }],
      top_pages: [{ url: '/pricing', visits: 1 }],
      // A loopback address has no country.
      country_breakdown: [{ country: 'XX', visits: 1 }],
    });

    // From Google the script sends nothing at all, and nothing is counted.
    const fromGoogle = await visit(context, `${siteUrl}/blog?site=${id}`, 'https://www.google.com/');
    t.is(fromGoogle.length, 0);
    t.is((await aiTraffic(key, brandId)).total_visits, 1);
  } finally {
    await context.close();
  }
});

browserTest(`utm_source names the platform when the referrer does not${skipped}`, async (t) => {
  const { brandId, key } = await seedSite();
  const id = await trackingId(brandId);
  const context = await browser.newContext({ userAgent: CHROME });
  try {
    const beacons = await visit(context, `${siteUrl}/docs?utm_source=perplexity&site=${id}`, 'https://www.google.com/');
    t.is(beacons.length, 1);
    const r = await waitForTotal(key, brandId, 1);
    t.deepEqual(r.platform_breakdown, [{ platform: 'perplexity', visits: 1 }]);
    t.deepEqual(r.top_pages, [{ url: '/docs', visits: 1 }]);
  } finally {
    await context.close();
  }
});
