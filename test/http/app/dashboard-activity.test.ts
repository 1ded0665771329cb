// The site and content pages in Debian's Chromium: a site audit started from the page and watched
// to completion, a content brief and draft generated and an opportunity's status changed, AI
// traffic and AI crawler pages showing the API's figures (and how to send data when empty), the
// shopping page's products leading to their answers, text from outside shown as text, axe-core and
// the keyboard on every page. One server, one browser, one seeded organization.
// test-process: shared
// test-weight: 4
import fs from 'node:fs';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { call, startTestServer, type TestServer } from '../../helpers/server.ts';
import { startSite, type TestSite } from '../../audits/fixtures/site.ts';
import { contentBrands, ingest, PROMPTS, runJob, trackingAnswers, type ContentTenant } from '../../content/helpers.ts';
import { HAVE_CHROMIUM, launch, person, seriousViolations, signIn, type Person } from './helpers.ts';
import { platformName } from '../../../src/tenancy/tracked.ts';

// Without Chromium these are reported as skipped, never as passed (README, Quick start).
const browserTest = HAVE_CHROMIUM ? test : test.skip;

const PAGE =
  '<!doctype html><html lang="en"><head><title>Trail boots | Acme</title><meta name="description" content="Waterproof trail boots."></head>' +
  '<body><main><h1>Trail boots</h1><p>Our boots keep your feet dry on long hikes.</p></main></body></html>';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot';
const CLAUDEBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const MARKUP_PATH = '/<img src=x onerror="window.ran=1">guide';
const MARKUP_PRODUCT = '<img src=x onerror="window.ran=1"> Trail Boot';

let server: TestServer;
let browser: Browser;
let site: TestSite;
let who: Person;
let empty: Person;

const DAY_MS = 86_400_000;
/** A UTC day `n` days before today: inside the pages' default range (the last 30 complete days). */
const daysAgo = (n: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - n * DAY_MS);
const chTime = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');

test.before(async () => {
  if (!HAVE_CHROMIUM) return;
  server = await startTestServer({ ALLOW_PRIVATE_URLS: '1', AUDIT_TIMEOUT_MS: '5000', RATE_LIMIT_MAX: '5000' });
  site = await startSite({ '/': { body: PAGE } });
  browser = await launch();
  who = await person(server, contentBrands());
  empty = await person(server);

  // Content opportunities from the content tests' tracking answers.
  const ids = who.promptIds;
  const prompt = Object.fromEntries(Object.keys(PROMPTS).map((k, i) => [k, ids[i]])) as ContentTenant['prompt'];
  await ingest(server, trackingAnswers({ prompt } as ContentTenant));
  await runJob(server, 'generate-opportunities', who.brandId);

  // AI visits, as /api/collect stores them (test/traffic/collect.test.ts writes them the same way).
  const visit = (n: number, platform: string, path: string, country: string) => {
    const ts = chTime(new Date(daysAgo(n).getTime() + 9 * 3_600_000));
    return {
      brand_id: who.brandId,
      ts,
      day: ts.slice(0, 10),
      platform,
      path,
      country,
      referrer_host: `${platform}.example`,
    };
  };
  await server.stores.ch.insert('ai_visits', [
    visit(3, 'chatgpt', '/pricing', 'US'),
    visit(3, 'chatgpt', '/pricing', 'US'),
    visit(4, 'perplexity', '/', 'DE'),
    visit(5, 'chatgpt', MARKUP_PATH, 'GB'),
    visit(6, 'gemini', '/pricing', 'US'),
  ]);

  // AI crawler hits, through the batch endpoint as a log forwarder sends them.
  const hit = (n: number, path: string, ip: string, ua: string, status = 200) => ({
    timestamp: new Date(daysAgo(n).getTime() + 8 * 3_600_000).toISOString(),
    method: 'GET',
    host: 'acme.example',
    path,
    status_code: status,
    ip,
    user_agent: ua,
  });
  const posted = await call(server, 'POST', `/api/mcp/crawler-logs?brand_id=${who.brandId}`, {
    key: who.key,
    body: [
      hit(2, '/pricing', '20.171.206.10', GPTBOT),
      hit(2, '/pricing', '20.171.206.11', GPTBOT),
      hit(3, '/docs', '198.51.100.7', GPTBOT, 404),
      hit(4, '/pricing', '216.73.216.5', CLAUDEBOT),
    ],
  });
  if (posted.status !== 202) throw new Error(`crawler-logs answered ${posted.status}`);

  // Shopping answers with product cards.
  const shopping = (n: number, platform: string, products: object[]) => ({
    prompt_id: ids[0],
    platform,
    model: platform === 'chatgpt' ? 'gpt-4o' : 'sonar',
    region: 'US',
    mode: 'shopping',
    collected_at: new Date(daysAgo(n).getTime() + 7 * 3_600_000).toISOString(),
    text: 'Here are some CRM tools.',
    products,
  });
  await ingest(server, [
    shopping(2, 'chatgpt', [
      {
        position: 1,
        title: 'Acme CRM Starter',
        brand: 'Acme',
        price: 29,
        currency: 'USD',
        merchant_url: 'https://shop.example/acme',
        rating: 4.5,
        review_count: 120,
      },
      {
        position: 2,
        title: MARKUP_PRODUCT,
        brand: 'Globex',
        price: 35,
        currency: 'USD',
        merchant_url: 'javascript:alert(1)',
        rating: 4.1,
        review_count: 80,
      },
    ]),
    shopping(3, 'perplexity', [
      {
        position: 1,
        title: 'Acme CRM Starter',
        brand: 'Acme',
        price: 29,
        currency: 'USD',
        merchant_url: 'https://store.example/a',
        rating: 4.7,
        review_count: 30,
      },
    ]),
  ]);
});

test.after.always(async () => {
  await browser?.close();
  await site?.close();
  await server?.stop();
});

async function signedIn(as: Person, path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext()).newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, server, as, path);
  return { page, errors };
}

const api = async (path: string, key = who.key) => {
  const r = await call(server, 'GET', path, { key });
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

/** The cells of a table (named by its caption) as text, row by row, header row left out. */
async function tableRows(page: Page, caption: string | RegExp): Promise<string[][]> {
  const table = page.getByRole('table', { name: caption });
  await table.waitFor();
  return table
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())))
    .then((rows) => rows.map((r) => r.map(asGiven)));
}

/**
 * A cell as the API wrote its figure: a column of numbers writes each with the column's decimals
 * (75 beside 59.7 is 75.0), so a number's padding zeros are taken off before comparing.
 */
const asGiven = (cell: string) => {
  const m = /^(-?\d+\.\d+)(%?)$/.exec(cell);
  return m ? `${Number(m[1])}${m[2]}` : cell;
};

browserTest('a site audit started from the page completes with its score, signals and recommendations', async (t) => {
  const { page, errors } = await signedIn(who, `/app/brands/${who.brandId}/site-audits`);
  const before = await api('/api/mcp/site-audits/quota');
  await page.getByText(`${before.used} of ${before.limit} site audits used this month`).waitFor();

  // A bad address: the API's message beside the field, nothing started.
  await page.getByLabel('Page URL').fill('ftp://acme.example/file');
  await page.getByRole('button', { name: 'Start audit' }).click();
  await page.getByText('url must be an http(s) URL').waitFor();
  t.is(await page.getByLabel('Page URL').getAttribute('aria-invalid'), 'true');
  t.deepEqual(await api(`/api/mcp/site-audits?brand_id=${who.brandId}`), []);

  await page.getByLabel('Page URL').fill(site.url('/'));
  await page.getByRole('button', { name: 'Start audit' }).click();
  await page.waitForURL(/\/site-audits\?audit=/);
  const id = new URL(page.url()).searchParams.get('audit')!;
  // Watched until it finishes, with no reload by hand.
  await page
    .getByRole('region', { name: /Audit of/ })
    .getByText('Completed')
    .waitFor();
  const audit = await api(`/api/mcp/site-audits/${id}`);
  t.is(audit.status, 'completed');
  const total = page.getByRole('region', { name: 'Total score' });
  t.is((await total.locator('.value').textContent())?.replace(/\s+/g, ' ').trim(), `${audit.totalScore} / 100`);
  const signals = await tableRows(page, 'Signals checked');
  t.is(signals.length, audit.signals.length);
  t.deepEqual(
    signals.map((r) => [r[0], r[4]]),
    audit.signals.map((s: any) => [s.key, s.evidence]),
  );
  for (const r of audit.recommendations) await page.getByText(r.fix, { exact: true }).first().waitFor();
  // The quota shown went up by the one audit, as the API counts it.
  await page.getByText(`${before.used + 1} of ${before.limit} site audits used this month`).waitFor();
  // The list shows it, and a reload of the address shows the same audit.
  t.deepEqual((await tableRows(page, 'The 50 most recent audits, newest first'))[0].slice(0, 3), [
    site.url('/'),
    'Completed',
    String(audit.totalScore),
  ]);
  await page.reload();
  await page
    .getByRole('region', { name: /Audit of/ })
    .getByText('Completed')
    .waitFor();

  // The quota used up: the API's 402 message under the form, and no audit started.
  await server.stores.pg.query('UPDATE organizations SET quota_audits = 1 WHERE id = $1', [who.organizationId]);
  const refused = await call(server, 'POST', '/api/mcp/site-audits', {
    key: who.key,
    body: { brand_id: who.brandId, url: site.url('/') },
  });
  t.is(refused.status, 402);
  await page.getByLabel('Page URL').fill(site.url('/'));
  await page.getByRole('button', { name: 'Start audit' }).click();
  await page.getByRole('alert').getByText(refused.body.error, { exact: true }).waitFor();
  t.is(await page.getByLabel('Page URL').getAttribute('aria-invalid'), null);
  t.is((await api(`/api/mcp/site-audits?brand_id=${who.brandId}`)).length, 1);
  await server.stores.pg.query('UPDATE organizations SET quota_audits = NULL WHERE id = $1', [who.organizationId]);
  t.deepEqual(errors, []);
});

browserTest('a brief and a draft are generated and shown as text, and the status changes', async (t) => {
  const list = await api(`/api/mcp/content-opportunities?brand_id=${who.brandId}`);
  t.true(list.length > 0);
  const target = list[0];
  const { page, errors } = await signedIn(who, `/app/brands/${who.brandId}/content-opportunities`);
  const rows = await tableRows(page, 'Content opportunities, highest score first');
  t.deepEqual(
    rows.map((r) => [r[0], r[3]]),
    list.map((o: any) => [o.title, String(o.opportunity_score)]),
  );
  const usage = await api('/api/mcp/usage');
  await page.getByRole('region', { name: 'Content briefs' }).getByText(`of ${usage.briefs.limit}`).waitFor();

  await page.getByRole('link', { name: target.title, exact: true }).click();
  await page.getByRole('heading', { name: target.title, level: 2 }).waitFor();
  // A draft needs a brief: the API's message.
  await page.getByRole('button', { name: 'Generate draft' }).click();
  await page.getByText('Generate a content brief before generating the full draft.').waitFor();

  await page.getByRole('button', { name: 'Generate brief' }).click();
  await page.getByText(/^Brief generated/).waitFor();
  const saved = (await api(`/api/mcp/content-opportunities/${target.id}`)).brief;
  t.truthy(saved);
  await page.getByText(saved.suggestedTitle, { exact: true }).waitFor();
  for (const line of saved.outline) await page.getByText(line, { exact: true }).waitFor();
  await page.getByText(`${usage.briefs.used + 1} of ${usage.briefs.limit} briefs used this month`).waitFor();

  await page.getByRole('button', { name: 'Generate draft' }).click();
  await page.getByText(/^Draft generated/).waitFor();
  // The article's HTML is shown as its source: the tags are text, none is rendered.
  const shown = await page.getByLabel('Article (HTML source)').inputValue();
  t.true(shown.startsWith('<article>'), shown.slice(0, 40));
  t.is(await page.locator('.generated article, .generated h1').count(), 0);

  // Status: the select and its button, and the API agrees.
  await page.getByLabel('Set status to').selectOption('in_progress');
  await page.getByRole('button', { name: 'Change status' }).click();
  await page.getByText(/^Status set to In progress/).waitFor();
  // The opportunity reloads with its new status, and the note stays.
  await page.locator('section[aria-labelledby="opportunity-title"] .badge', { hasText: 'In progress' }).waitFor();
  t.true(await page.getByText(/^Status set to In progress/).isVisible());
  t.is((await api(`/api/mcp/content-opportunities/${target.id}`)).status, 'in_progress');

  // At the limit: 402 as the API words it.
  await server.stores.pg.query('UPDATE organizations SET quota_briefs = 1 WHERE id = $1', [who.organizationId]);
  const refused = await call(server, 'POST', `/api/mcp/content-opportunities/${target.id}/brief`, { key: who.key });
  t.is(refused.status, 402);
  await page.getByRole('button', { name: 'Generate a new brief' }).click();
  await page.getByText(refused.body.error, { exact: true }).waitFor();
  await server.stores.pg.query('UPDATE organizations SET quota_briefs = NULL WHERE id = $1', [who.organizationId]);
  t.deepEqual(errors, []);
});

browserTest('AI traffic and AI crawlers show the API figures for the dates in the address', async (t) => {
  await server.traffic.flush();
  const { page, errors } = await signedIn(who, `/app/brands/${who.brandId}/ai-traffic`);
  await page.getByRole('region', { name: 'AI visits' }).waitFor();
  const q = new URL(page.url()).searchParams;
  const from =
    q.get('date_from') ??
    (await page.getByRole('region', { name: 'AI visits' }).textContent())!.match(/(\d{4}-\d{2}-\d{2}) to/)![1];
  const to =
    q.get('date_to') ??
    (await page.getByRole('region', { name: 'AI visits' }).textContent())!.match(/to (\d{4}-\d{2}-\d{2})/)![1];
  const traffic = await api(`/api/mcp/ai-traffic?brand_id=${who.brandId}&date_from=${from}&date_to=${to}`);
  t.is(traffic.total_visits, 5);
  t.is(await page.getByRole('region', { name: 'AI visits' }).locator('.value').textContent(), '5');
  t.deepEqual(
    await tableRows(page, 'Visits by AI platform, most first'),
    traffic.platform_breakdown.map((r: any) => [platformName(r.platform), String(r.visits)]),
  );
  t.deepEqual(
    await tableRows(page, 'The 10 most visited pages (paths on your site)'),
    traffic.top_pages.map((r: any) => [r.url, String(r.visits)]),
  );
  // A page path holding markup is text: shown as typed, nothing run.
  await page.getByText(MARKUP_PATH, { exact: true }).waitFor();
  t.false(await page.evaluate(() => 'ran' in window));

  // A range that leaves out the oldest visits: the page follows the address, as the API does.
  const narrow = { from: daysAgo(4).toISOString().slice(0, 10), to: daysAgo(1).toISOString().slice(0, 10) };
  await page.goto(`${server.url}/app/brands/${who.brandId}/ai-traffic?date_from=${narrow.from}&date_to=${narrow.to}`);
  const fewer = await api(`/api/mcp/ai-traffic?brand_id=${who.brandId}&date_from=${narrow.from}&date_to=${narrow.to}`);
  t.is(fewer.total_visits, 3);
  await page
    .getByRole('region', { name: 'AI visits' })
    .locator('.value')
    .getByText(String(fewer.total_visits))
    .waitFor();

  await page.goto(`${server.url}/app/brands/${who.brandId}/ai-crawlers?date_from=${from}&date_to=${to}`);
  await page.getByRole('region', { name: 'AI crawler hits' }).waitFor();
  const crawlers = await api(`/api/mcp/ai-crawlers?brand_id=${who.brandId}&date_from=${from}&date_to=${to}`);
  t.is(crawlers.total_hits, 3); // the spoofed GPTBot hit counts only as spoofed
  t.is(
    await page.getByRole('region', { name: 'AI crawler hits' }).locator('.value').textContent(),
    String(crawlers.total_hits),
  );
  const bots = await tableRows(page, /^Hits by bot/);
  t.deepEqual(
    bots.map((r) => r.slice(0, 2).concat(r.slice(3, 6))),
    crawlers.by_bot.map((b: any) => [
      b.bot_name,
      b.provider,
      String(b.hits),
      String(b.verified_hits),
      String(b.spoofed_hits),
    ]),
  );
  t.deepEqual(
    await tableRows(page, 'The 20 most fetched pages (paths on your site) and how many different bots fetched each'),
    crawlers.top_pages.map((r: any) => [r.path, String(r.hits), String(r.bots)]),
  );
  t.deepEqual(errors, []);
});

browserTest('with no data, the traffic and crawler pages say how to send it', async (t) => {
  const { page, errors } = await signedIn(empty, `/app/brands/${empty.brandId}/ai-traffic`);
  const snippet = await page.getByLabel('Add this line to every page, before </head>').inputValue();
  const { rows } = await server.stores.pg.query('SELECT tracking_id FROM brands WHERE id = $1', [empty.brandId]);
  t.is(snippet, `<script async src="${server.url}/t.js" data-site="${rows[0].tracking_id}"></script>`);
  await page.goto(`${server.url}/app/brands/${empty.brandId}/ai-crawlers`);
  t.is(
    await page.getByLabel(/Post batches of up to 1,000 log entries/).inputValue(),
    `${server.url}/api/mcp/crawler-logs?brand_id=${empty.brandId}`,
  );
  // Another organization's brand is not found, and gives nothing away.
  const other = await page.evaluate(
    (id) => fetch(`/app/api/brands/${id}/site-setup`).then((r) => r.status),
    who.brandId,
  );
  t.is(other, 404);
  t.deepEqual(errors, []);
});

browserTest('shopping lists the API cards, and each product leads to its shopping answers', async (t) => {
  const cards = (await api(`/api/mcp/shopping-cards?brand_id=${who.brandId}`)).cards;
  t.is(cards.length, 3);
  const { page, errors } = await signedIn(who, `/app/brands/${who.brandId}/shopping`);
  const rows = await tableRows(page, 'Product cards in shopping answers, newest first');
  t.deepEqual(
    rows.map((r) => r[0]),
    cards.map((c: any) => c.product_title),
  );
  // The CSV has a header and every card, the raw fields folded on screen as columns of their own.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV: Product cards in shopping answers, newest first' }).click(),
  ]);
  const csv = fs
    .readFileSync((await download.path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  t.is(csv[0], 'Product,Maker,Role,Position,Price,Currency,Merchant,Merchant URL,Rating,Reviews,Answers,Region,Seen');
  t.is(csv.length, 1 + cards.length);
  for (const c of cards) {
    const fields = `,${c.product_brand},${c.matched_brand_role},${c.position},${c.price_amount},${c.price_currency},`;
    t.true(
      csv.some((line) => line.includes(fields)),
      fields,
    );
  }
  // Markup in a title is text; a merchant URL that is not http(s) is not a link.
  await page.getByRole('link', { name: MARKUP_PRODUCT, exact: true }).waitFor();
  t.false(await page.evaluate(() => 'ran' in window));
  t.is(await page.locator('a[href^="javascript:"]').count(), 0);
  const platformLink = page
    .getByRole('table', { name: 'Product cards in shopping answers, newest first' })
    .getByRole('link', { name: platformName(cards[0].platform) })
    .first();
  const href = new URL((await platformLink.getAttribute('href'))!, server.url);
  t.is(href.pathname, `/app/brands/${who.brandId}/answers`);
  const cardDay = cards[0].created_at.slice(0, 10);
  t.deepEqual(Object.fromEntries(href.searchParams), {
    mode: 'shopping',
    platform: cards[0].platform,
    region: cards[0].region,
    date_from: cardDay,
    date_to: cardDay,
  });
  // The answer the card came from is among those the explorer lists with those filters.
  const cardAnswers = await api(`/api/mcp/answers?brand_id=${who.brandId}&${href.searchParams}`);
  t.true(cardAnswers.answers.some((a: any) => a.id === cards[0].prompt_result_id));

  // One product: its figures as product-visibility gives them, each leading to the shopping answers.
  await page.getByRole('link', { name: 'Acme CRM Starter', exact: true }).first().click();
  await page.getByRole('heading', { name: 'Acme CRM Starter', level: 2 }).waitFor();
  const vis = await api(
    `/api/mcp/product-visibility?brand_id=${who.brandId}&product_title=${encodeURIComponent('Acme CRM Starter')}`,
  );
  t.deepEqual(
    await tableRows(page, 'Appearances by platform'),
    vis.by_platform.map((r: any) => [platformName(r.platform), String(r.count)]),
  );
  const byPlatform = page.getByRole('table', { name: 'Appearances by platform' }).getByRole('link').first();
  const link = new URL((await byPlatform.getAttribute('href'))!, server.url);
  const days = vis.by_date.map((d: any) => d.date).sort();
  t.deepEqual(Object.fromEntries(link.searchParams), {
    mode: 'shopping',
    date_from: days[0],
    date_to: days[days.length - 1],
    platform: vis.by_platform[0].platform,
  });
  // The explorer opened from the figure lists what its API call with those filters returns.
  const explorer = await api(`/api/mcp/answers?brand_id=${who.brandId}&${link.searchParams}`);
  t.true(explorer.answers.length > 0);
  t.true(explorer.answers.every((a: any) => a.platform === vis.by_platform[0].platform));
  await byPlatform.click();
  await page.waitForURL(/\/answers\?/);
  await page.locator('article.answer').first().waitFor();
  t.deepEqual(
    await page.locator('article.answer').evaluateAll((els) => els.map((e) => e.getAttribute('data-answer-id'))),
    explorer.answers.map((a: any) => a.id),
  );
  t.deepEqual(errors, []);
});

browserTest('axe-core finds no serious or critical violation, and Tab reaches every control', async (t) => {
  const { page } = await signedIn(who, `/app/brands/${who.brandId}/ai-traffic`);
  const opportunities = await api(`/api/mcp/content-opportunities?brand_id=${who.brandId}`);
  const audits = await api(`/api/mcp/site-audits?brand_id=${who.brandId}`);
  const pages = [
    'ai-traffic',
    'ai-crawlers',
    'site-audits',
    ...(audits[0] ? [`site-audits?audit=${audits[0].id}`] : []),
    'content-opportunities',
    `content-opportunities?opportunity=${opportunities[0].id}`,
    'shopping',
    `shopping?product=${encodeURIComponent('Acme CRM Starter')}`,
  ];
  const found: Record<string, string[]> = {};
  const missed: Record<string, string[]> = {};
  for (const path of pages) {
    await page.goto(`${server.url}/app/brands/${who.brandId}/${path}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.locator('[role="status"]:text("Loading…")').first().waitFor({ state: 'detached' });
    found[path] = await seriousViolations(page);
    missed[path] = await unreachedControls(page);
  }
  const { page: emptyPage } = await signedIn(empty, `/app/brands/${empty.brandId}/ai-traffic`);
  for (const path of ['ai-traffic', 'ai-crawlers']) {
    await emptyPage.goto(`${server.url}/app/brands/${empty.brandId}/${path}`);
    await emptyPage.getByRole('heading', { level: 2, name: /^Start/ }).waitFor();
    found[`${path} (empty)`] = await seriousViolations(emptyPage);
    missed[`${path} (empty)`] = await unreachedControls(emptyPage);
  }
  t.deepEqual(
    Object.entries(found).filter(([, v]) => v.length),
    [],
  );
  t.deepEqual(
    Object.entries(missed).filter(([, v]) => v.length),
    [],
  );
});

const CONTROLS = 'a[href], button, input, select, textarea, summary, [tabindex="0"]';

/** The visible, enabled controls of the page that Tab does not reach from the top, by tag and name. */
async function unreachedControls(page: Page): Promise<string[]> {
  const controls = await page.evaluate(
    (selector) =>
      [...document.querySelectorAll<HTMLElement>(selector)]
        .filter((el) => el.checkVisibility({ visibilityProperty: true }) && !(el as HTMLButtonElement).disabled)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()} ${(el.getAttribute('aria-label') ?? el.textContent ?? el.id).trim().slice(0, 60)}`,
        ),
    CONTROLS,
  );
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const reached = new Set<number>();
  for (let i = 0; i < controls.length + 20; i++) {
    await page.keyboard.press('Tab');
    const index = await page.evaluate(
      (selector) =>
        [...document.querySelectorAll<HTMLElement>(selector)]
          .filter((el) => el.checkVisibility({ visibilityProperty: true }) && !(el as HTMLButtonElement).disabled)
          .indexOf(document.activeElement as HTMLElement),
      CONTROLS,
    );
    if (index < 0 && reached.size) break; // focus left the page: the round is done
    if (reached.has(index)) break;
    if (index >= 0) reached.add(index);
  }
  return controls.filter((_, i) => !reached.has(i));
}
