// The app used every day, on a laptop (1360 px) and a phone (390 px), in Debian's Chromium
// (docs/app.md, "Every day in the app"): filters follow the person across pages and brands and
// `Reset filters` clears them; tables sort by any header (aria-sort) with one count of decimals per
// column; platforms by their names; on a phone the navigation folds behind `Menu`, the title is on
// the first screen and no page scrolls sideways; a page that fails to draw says so with `Try again`;
// a read made stale by a newer choice is aborted; `New key` keeps the keyboard's place; the only
// admin is offered neither `Make member` nor `Remove`; CSV files say brand, table and dates;
// scripts, styles and JSON go compressed; axe-core finds nothing serious at either width.
// test-process: shared
// test-weight: 6
import http from 'node:http';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { get, ingestLines, startTestServer, type TestServer } from '../../helpers/server.ts';
import { focusedOnceAt, HAVE_CHROMIUM, launch, person, seriousViolations, signIn, type Person } from './helpers.ts';

// Without Chromium these are reported as skipped, never as passed (README, Quick start).
const browserTest = HAVE_CHROMIUM ? test : test.skip;

let server: TestServer;
let browser: Browser;
let who: Person;
let otherBrandId: string;

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const FROM = dayOf(today - 90 * DAY_MS);
const TO = dayOf(today - DAY_MS);
const LAPTOP = { width: 1360, height: 900 };
const PHONE = { width: 390, height: 844 };

const BRAND_PAGES = [
  '',
  '/answers',
  '/competitors',
  '/citations',
  '/prompts',
  '/ai-traffic',
  '/ai-crawlers',
  '/site-audits',
  '/content-opportunities',
  '/shopping',
  '/settings',
];
const SETTINGS = ['keys', 'members', 'webhooks', 'alerts', 'reports', 'usage', 'connect', 'account'];

const brand = (name: string, slug: string) => ({
  name,
  slug,
  industry: 'Outdoor',
  region: 'US',
  domains: [`${slug}.example`],
  aliases: [],
  competitors: [
    { name: 'Summit Supply', domains: ['summit.example'], aliases: [] },
    { name: 'Ridgeline', domains: ['ridgeline.example'], aliases: [] },
  ],
  topics: [
    {
      name: 'Hiking boots',
      prompts: Array.from({ length: 4 }, (_, i) => ({
        text: `best hiking boots ${i + 1}`,
        platforms: ['chatgpt', 'google_ai_mode'],
        regions: ['US', 'GB'],
      })),
    },
    { name: 'Tents', prompts: [{ text: 'best tent', platforms: ['chatgpt'], regions: ['US'] }] },
  ],
});

test.before(async () => {
  if (!HAVE_CHROMIUM) return;
  server = await startTestServer();
  browser = await launch();
  who = await person(server, [brand('Trailpeak', 'trailpeak'), brand('Bolt Gear', 'bolt')]);
  const brands = (await get(server, '/api/mcp/brands', who.key)).body;
  otherBrandId = brands.find((b: any) => b.id !== who.brandId).id;
  // 20 days of answers on two platforms: tables with several rows, shares with decimals.
  const lines: object[] = [];
  for (let d = 1; d <= 20; d++) {
    for (let k = 0; k < 4; k++) {
      const n = d * 4 + k;
      const names = ['Trailpeak', n % 3 ? 'Summit Supply' : '', n % 7 ? '' : 'Ridgeline'].filter(Boolean).join(', ');
      lines.push({
        prompt_id: who.promptIds[n % 4],
        platform: k % 2 ? 'google_ai_mode' : 'chatgpt',
        model: k % 2 ? 'google-ai-mode' : 'gpt-4o',
        region: n % 5 ? 'US' : 'GB',
        collected_at: `${dayOf(today - d * DAY_MS)}T${String(8 + k).padStart(2, '0')}:00:00Z`,
        text: `Answer ${n}: ${names} make good boots.`,
        citations: [
          { url: `https://site${n % 6}.example/page${n % 3}`, title: `Page ${n % 3}` },
          ...(n % 3 ? [{ url: 'https://forum.example/boots', title: 'Forum' }] : []),
        ],
      });
    }
  }
  await ingestLines(server, lines);
});

test.after.always(async () => {
  await browser?.close();
  await server?.stop();
});

async function newPage(viewport = LAPTOP): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext({ viewport })).newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

/**
 * Waits until the page's heading is drawn and nothing is loading any more. A page that then shows a
 * problem (a read refused) fails the test with its words, rather than a later wait for what it lacks.
 */
async function settled(page: Page) {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(
    () => ![...document.querySelectorAll('[role="status"]')].some((s) => /loading/i.test(s.textContent ?? '')),
  );
  const problems = (await page.getByRole('alert').allInnerTexts()).filter((text) => text.trim());
  if (problems.length) throw new Error(`${page.url()} shows a problem: ${problems.join(' | ')}`);
}

const search = (page: Page) => new URL(page.url()).searchParams;

browserTest('filters follow the person across pages and brands; Reset filters clears them', async (t) => {
  const { page, errors } = await newPage();
  await signIn(page, server, who);
  const topicsOf = async (brandId: string) => {
    const res = await get(server, `/api/mcp/topics?brand_id=${brandId}`, who.key);
    if (res.status !== 200) throw new Error(`topics answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as { id: string; name: string }[];
  };
  const topics = await topicsOf(who.brandId);
  const otherTopics = await topicsOf(otherBrandId);
  const topic = topics.find((x) => x.name === 'Hiking boots')?.id ?? '';
  const filters = { date_from: FROM, date_to: TO, model: 'gpt-4o', region: 'US', topic_id: topic };
  await page.goto(`${server.url}/app/brands/${who.brandId}?${new URLSearchParams(filters)}`);
  await settled(page);

  // The sidebar's links carry them, and so does a click on one.
  const nav = page.getByRole('navigation', { name: 'Main' });
  const href = await nav.getByRole('link', { name: 'Competitors' }).getAttribute('href');
  t.like(Object.fromEntries(new URL(href ?? '', server.url).searchParams), filters);
  await nav.getByRole('link', { name: 'Competitors' }).click();
  await page.waitForURL(/\/competitors\?/);
  t.like(Object.fromEntries(search(page)), filters);
  await settled(page);
  t.is(await page.getByLabel('Region').inputValue(), 'US');
  await nav.getByRole('link', { name: 'Citations' }).click();
  await page.waitForURL(/\/citations\?/);
  t.like(Object.fromEntries(search(page)), filters);
  // A settings page keeps them in its address, so the way back keeps them too.
  await nav.getByRole('link', { name: 'API keys' }).click();
  await page.waitForURL(/\/settings\/keys/);
  await nav.getByRole('link', { name: 'Overview' }).click();
  await page.waitForURL((u) => u.pathname === `/app/brands/${who.brandId}`);
  t.like(Object.fromEntries(search(page)), filters);

  // The brand picker: the same page of the other brand, the same dates, model and region, and the
  // other brand's topic of the same name.
  await page.getByLabel('Brand').selectOption({ label: 'Bolt Gear' });
  await page.waitForURL((u) => u.pathname === `/app/brands/${otherBrandId}`);
  const sameName = otherTopics.find((x) => x.name === 'Hiking boots')?.id;
  t.like(Object.fromEntries(search(page)), { ...filters, topic_id: sameName });
  await settled(page);

  await page.getByRole('button', { name: 'Reset filters' }).click();
  await page.waitForURL((u) => u.search === '');
  await settled(page);
  t.is(await page.getByLabel('Region').inputValue(), '');
  t.deepEqual(errors, []);
});

browserTest('tables sort by any header with aria-sort; a column of numbers has one count of decimals', async (t) => {
  const { page, errors } = await newPage();
  await signIn(page, server, who);
  await page.goto(`${server.url}/app/brands/${who.brandId}/citations?date_from=${FROM}&date_to=${TO}`);
  await settled(page);
  // The cited domains: sort by the first column of numbers, then the other way round.
  const table = page.getByRole('table', { name: 'Top cited domains' });
  const header = table.locator('th.num').first();
  const label = ((await header.textContent()) ?? '').replace(/[▲▼↕]/g, '').trim();
  const column = await header.evaluate((th) => [...th.parentElement!.children].indexOf(th));
  const values = async () =>
    (await table.locator(`tbody tr td:nth-child(${column + 1})`).allInnerTexts()).map((v) =>
      Number.parseFloat(v.replace(/[^\d.-]/g, '')),
    );
  t.true((await values()).length >= 3, 'rows to sort');
  await header.getByRole('button').click();
  t.is(await header.getAttribute('aria-sort'), 'descending');
  const down = await values();
  t.deepEqual(
    down,
    [...down].sort((a, b) => b - a),
    label,
  );
  await header.getByRole('button').click();
  t.is(await header.getAttribute('aria-sort'), 'ascending');
  const up = await values();
  t.deepEqual(
    up,
    [...up].sort((a, b) => a - b),
    label,
  );
  // A text column sorts too, from A.
  const first = table.locator('th').first();
  await first.getByRole('button').click();
  t.is(await first.getAttribute('aria-sort'), 'ascending');
  const names = await table.locator('tbody tr td:nth-child(1)').allInnerTexts();
  t.deepEqual(
    names,
    [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true })),
  );

  // Every right-aligned column of every table on these pages: numbers with the same decimals.
  for (const path of ['/citations', '/competitors', '/prompts', '']) {
    await page.goto(`${server.url}/app/brands/${who.brandId}${path}?date_from=${FROM}&date_to=${TO}`);
    await settled(page);
    const uneven = await page.evaluate(() =>
      [...document.querySelectorAll('table')].flatMap((table) => {
        const heads = [...table.querySelectorAll('thead th')];
        return heads.flatMap((th, i) => {
          if (!th.classList.contains('num')) return [];
          const decimals = [...table.querySelectorAll(`tbody tr td:nth-child(${i + 1})`)]
            .map((td) => /-?\d+(?:\.(\d+))?/.exec(td.textContent ?? ''))
            .filter((m) => m !== null)
            .map((m) => m[1]?.length ?? 0);
          return new Set(decimals).size > 1 ? [`${th.textContent}: ${decimals.join(',')}`] : [];
        });
      }),
    );
    t.deepEqual(uneven, [], path || 'overview');
  }
  t.deepEqual(errors, []);
});

browserTest('platforms by their names, model ids only beside them', async (t) => {
  const { page } = await newPage();
  await signIn(page, server, who);
  await page.goto(`${server.url}/app/brands/${who.brandId}/competitors?date_from=${FROM}&date_to=${TO}`);
  await settled(page);
  // The models come from a read of their own, which may end after the page has settled.
  await page
    .getByLabel('Platform / model')
    .locator('option', { hasText: 'ChatGPT · gpt-4o' })
    .waitFor({ state: 'attached' });
  const options = await page.getByLabel('Platform / model').locator('option').allInnerTexts();
  t.true(options.includes('ChatGPT · gpt-4o'), options.join('|'));
  t.true(options.includes('Google AI Mode · google-ai-mode'), options.join('|'));
  for (const caption of [/Share of voice by platform/, /Mention rate by platform/]) {
    const rows = page.getByRole('table', { name: caption }).locator('tbody tr');
    await rows.first().waitFor();
    const platforms = await rows.locator('td:nth-child(1)').allInnerTexts();
    t.deepEqual([...platforms].sort(), ['ChatGPT', 'Google AI Mode'], String(caption));
  }
  // Nowhere a slug stands where a person reads a platform: the text as drawn, cells apart (an
  // element's textContent runs cells together, and "Ridgelinechatgpt40" hides the slug from \b).
  // The site's setup names chatgpt.com, a referrer.
  const slugs: string[] = [];
  for (const path of BRAND_PAGES) {
    await page.goto(`${server.url}/app/brands/${who.brandId}${path}?date_from=${FROM}&date_to=${TO}`);
    await settled(page);
    const text = await page.locator('main').innerText();
    slugs.push(
      ...(text.match(/\bgoogle_ai_mode\b|\bchatgpt\b(?!\.com)/g) ?? []).map((slug) => `${path || '/'}: ${slug}`),
    );
    if (path === '/answers') t.true(text.includes('Google AI Mode · google-ai-mode'));
  }
  t.deepEqual(slugs, []);
});

browserTest('on a phone the menu folds, the title and first figures lead, and no page scrolls sideways', async (t) => {
  const { page, errors } = await newPage(PHONE);
  await signIn(page, server, who);
  await page.goto(`${server.url}/app/brands/${who.brandId}?date_from=${FROM}&date_to=${TO}`);
  await settled(page);
  const menu = page.getByRole('button', { name: 'Menu' });
  t.is(await menu.getAttribute('aria-expanded'), 'false');
  t.false(await page.getByRole('navigation', { name: 'Main' }).isVisible());
  // The title and the first card within the first screen.
  const title = await page.getByRole('heading', { level: 1 }).boundingBox();
  const card = await page.locator('.card').first().boundingBox();
  t.true(title !== null && title.y + title.height <= PHONE.height, `title at ${title?.y}`);
  t.true(card !== null && card.y < PHONE.height, `first figure at ${card?.y}`);
  await menu.click();
  t.is(await menu.getAttribute('aria-expanded'), 'true');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Competitors' }).click();
  await page.waitForURL(/\/competitors/);
  t.false(await page.getByRole('navigation', { name: 'Main' }).isVisible(), 'the menu folds again');

  const sideways: string[] = [];
  const broken: string[] = [];
  const paths = [
    ...BRAND_PAGES.map((p) => `/app/brands/${who.brandId}${p}?date_from=${FROM}&date_to=${TO}`),
    ...SETTINGS.map((s) => `/app/settings/${s}`),
  ];
  for (const path of paths) {
    await page.goto(`${server.url}${path}`);
    await settled(page);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (wide > 0) sideways.push(`${path}: ${wide}px`);
    // Cells wrap between words only; a table wider than the phone scrolls inside a focusable region.
    broken.push(
      ...(await page.evaluate(() =>
        [...document.querySelectorAll('td, th')]
          .filter((c) => {
            const s = getComputedStyle(c);
            return s.overflowWrap === 'anywhere' || s.wordBreak === 'break-all' || s.overflowWrap === 'break-word';
          })
          .map((c) => `${location.pathname}: ${c.textContent}`),
      )),
      ...(await page.evaluate(() =>
        [...document.querySelectorAll('.table-scroll')]
          .filter(
            (r) =>
              r.scrollWidth > r.clientWidth && (r.getAttribute('tabindex') !== '0' || !r.getAttribute('aria-label')),
          )
          .map(() => `${location.pathname}: a wide table that cannot take focus`),
      )),
    );
  }
  t.deepEqual(sideways, []);
  t.deepEqual(broken, []);
  t.deepEqual(errors, []);
});

browserTest('axe-core finds no serious or critical violation on any page at 1360 and 390 px', async (t) => {
  const found: string[] = [];
  for (const viewport of [LAPTOP, PHONE]) {
    const { page } = await newPage(viewport);
    await signIn(page, server, who);
    const paths = [
      ...BRAND_PAGES.map((p) => `/app/brands/${who.brandId}${p}?date_from=${FROM}&date_to=${TO}`),
      ...SETTINGS.map((s) => `/app/settings/${s}`),
    ];
    for (const path of paths) {
      await page.goto(`${server.url}${path}`);
      await settled(page);
      found.push(...(await seriousViolations(page)).map((v) => `${viewport.width}px ${path}: ${v}`));
    }
    if (viewport === PHONE) {
      await page.getByRole('button', { name: 'Menu' }).click();
      found.push(...(await seriousViolations(page)).map((v) => `menu open: ${v}`));
    }
    await page.context().close();
  }
  t.deepEqual(found, []);
});

browserTest('a page that fails to draw shows its error with Try again; a stale read is aborted', async (t) => {
  const { page } = await newPage();
  await signIn(page, server, who);
  // visibility-change answers a shape the cards cannot draw: the page says so, the frame stays.
  await page.route('**/app/api/op/visibility-change?*', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }),
  );
  await page.goto(`${server.url}/app/brands/${who.brandId}?date_from=${FROM}&date_to=${TO}`);
  await page.getByRole('button', { name: 'Try again' }).waitFor();
  t.true(await page.getByRole('navigation', { name: 'Main' }).isVisible());
  t.true(await page.getByRole('alert').first().isVisible());
  await page.unroute('**/app/api/op/visibility-change?*');
  await page.getByRole('button', { name: 'Try again' }).click();
  await page.locator('.card').first().waitFor();
  t.false(await page.getByRole('button', { name: 'Try again' }).isVisible());

  // A read held back, then a newer choice of dates: the first read is aborted, not left running.
  const aborted: string[] = [];
  page.on('requestfailed', (r) => {
    if (r.url().includes('/op/citations')) aborted.push(r.failure()?.errorText ?? '');
  });
  let held = 0;
  await page.route('**/app/api/op/citations?*', async (route) => {
    if (held++ === 0) await new Promise((r) => setTimeout(r, 3000));
    await route.continue().catch(() => {});
  });
  await page.goto(`${server.url}/app/brands/${who.brandId}/citations?date_from=${FROM}&date_to=${TO}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.getByLabel('Dates').selectOption('7');
  await settled(page);
  t.true(
    aborted.some((e) => /ABORTED/i.test(e)),
    aborted.join(','),
  );
});

browserTest(
  'New key keeps the keyboard in place; the focus ring is 3:1 against white; the only admin cannot be demoted',
  async (t) => {
    const { page } = await newPage();
    await signIn(page, server, who);
    await page.goto(`${server.url}/app/settings/keys`);
    await settled(page);
    await page.getByRole('button', { name: 'New key' }).focus();
    await page.keyboard.press('Enter');
    t.is(await focusedOnceAt(page, 'name'), 'name');
    await page.keyboard.type('Sheets');
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: 'New API key' }).waitFor();
    t.is(await focusedOnceAt(page, 'new-key'), 'new-key');
    await page.getByRole('button', { name: 'Done' }).click();
    t.is(await focusedOnceAt(page, 'New key'), 'New key');

    // WCAG 1.4.11: the ring is a control's edge, 3:1 against the white it is drawn on.
    const ring = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--focus').trim(),
    );
    const lum = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
      const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    t.true(1.05 / (lum(ring) + 0.05) >= 3, `${ring} against white`);

    await page.goto(`${server.url}/app/settings/members`);
    await settled(page);
    t.is(await page.getByRole('button', { name: /Make member/ }).count(), 0);
    t.is(await page.getByRole('button', { name: /^Remove/ }).count(), 0);
    t.true(await page.getByText('Only admin').isVisible());
  },
);

browserTest('a CSV file says brand, table and dates', async (t) => {
  const { page } = await newPage();
  await signIn(page, server, who);
  await page.goto(`${server.url}/app/brands/${who.brandId}/competitors?date_from=${FROM}&date_to=${TO}`);
  await settled(page);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByRole('button', { name: /Download CSV/ })
      .first()
      .click(),
  ]);
  t.regex(download.suggestedFilename(), new RegExp(`^trailpeak-[a-z-]+-${FROM}-to-${TO}\\.csv$`));
});

/** A response's Content-Encoding for a request accepting `encoding`. */
const encodingOf = (url: string, encoding: string, headers: Record<string, string> = {}) =>
  new Promise<string | undefined>((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': encoding, ...headers } }, (res) => {
        res.resume();
        resolve(res.headers['content-encoding']);
      })
      .on('error', reject);
  });

browserTest('scripts, styles and JSON go gzip- or brotli-encoded when the browser accepts it', async (t) => {
  const { page } = await newPage();
  await signIn(page, server, who);
  const script = await page.evaluate(() => document.querySelector<HTMLScriptElement>('script[src]')?.src);
  const style = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]')?.href);
  if (!script || !style) return t.fail('no script or style sheet in the page');
  t.is(await encodingOf(script, 'gzip, deflate, br'), 'br');
  t.is(await encodingOf(style, 'gzip'), 'gzip');
  t.is(await encodingOf(script, 'identity'), undefined);
  // JSON of the app's reads, for a signed-in browser.
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const json = `${server.url}/app/api/op/citations?brand_id=${who.brandId}&date_from=${FROM}&date_to=${TO}`;
  t.is(await encodingOf(json, 'gzip', { cookie }), 'gzip');
});
