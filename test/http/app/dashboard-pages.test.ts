// Every page of the app (src/web/routes.ts), on a brand with the demo's simulated answers: axe-core
// finds no serious or critical violation, the keyboard alone reaches every control, a copied
// address reloads to the same view, and every table's CSV has its header and every row it shows.
// One server and one browser for the file; pages are read from routes.ts, so new pages join in.
// test-process: shared
// test-weight: 25
import fs from 'node:fs';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { ingestLines, startTestServer, type TestServer } from '../../helpers/server.ts';
import { HAVE_CHROMIUM, launch, person, seriousViolations, signIn, type Person } from './helpers.ts';
import { missedByTab } from './keyboard.ts';
import { simulateDays } from '../../../src/tracking/capture/simulated/answers.ts';
import { loadSimBrands } from '../../../src/tracking/capture/simulated/brands.ts';
import { DAY_MS, isoDay } from '../../../src/instant.ts';

// Without Chromium these are reported as skipped, never as passed (README, Quick start).
const browserTest = HAVE_CHROMIUM ? test : test.skip;

/**
 * The pages as routes.ts lists them. Read as text: the module imports the pages, which need a
 * browser (uPlot, style sheets) to load.
 */
const ROUTES = [
  ...fs
    .readFileSync(new URL('../../../src/web/routes.ts', import.meta.url), 'utf8')
    .matchAll(/\{\s*path: '([^']+)',\s*label: '([^']+)'/g),
].map((m) => ({ path: m[1], label: m[2] }));

let server: TestServer;
let browser: Browser;
let who: Person;

test.before(async () => {
  if (!HAVE_CHROMIUM) return;
  server = await startTestServer();
  browser = await launch();
  // The demo's outdoor brand with 35 days of its simulated answers, up to yesterday.
  const demo = JSON.parse(fs.readFileSync(new URL('../../../examples/demo-workspace.json', import.meta.url), 'utf8'));
  who = await person(server, [demo.organizations[0].brands[0]]);
  const brands = await loadSimBrands(server.stores.pg, [who.brandId]);
  const from = isoDay(Date.now() - 35 * DAY_MS);
  await ingestLines(server, [...simulateDays({ seed: 'pages', brands, from, days: 35 })]);
});

test.after.always(async () => {
  await browser?.close();
  await server?.stop();
});

const url = (path: string) => server.url + path.replace(':brandId', who.brandId);

/** Requests in flight per page: after a change of filters (no navigation) the page is settled when none is. */
const inflight = new WeakMap<Page, number>();

async function signedIn(): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  inflight.set(page, 0);
  const done = () => inflight.set(page, (inflight.get(page) ?? 1) - 1);
  page.on('request', () => inflight.set(page, (inflight.get(page) ?? 0) + 1));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  await signIn(page, server, who);
  return { page, errors };
}

/** Opens a page and waits until nothing on it is loading. */
async function open(page: Page, path: string) {
  await page.goto(url(path));
  await settled(page);
}
async function settled(page: Page) {
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(
    () =>
      !document.querySelector('[aria-busy="true"]') &&
      ![...document.querySelectorAll('[role="status"]')].some((s) => /loading/i.test(s.textContent ?? '')),
  );
  // A change of filters may keep the previous figures on screen while the new ones load (nothing
  // says busy then): wait until no request has been in flight for half a second, then until the
  // page's text holds still.
  for (let i = 0, idle = 0; idle < 4 && i < 400; i++) {
    await page.waitForTimeout(150);
    idle = inflight.get(page) === 0 ? idle + 1 : 0;
  }
  let last = '';
  for (let i = 0; i < 60; i++) {
    const now = (await page.locator('main').textContent()) ?? '';
    if (now === last) return;
    last = now;
    await page.waitForTimeout(400);
  }
}

test('the pages tested are those routes.ts lists', (t) => {
  t.true(ROUTES.length >= 9, ROUTES.map((r) => r.path).join(' '));
  t.true(ROUTES.some((r) => r.path === '/app/brands/:brandId'));
  t.true(ROUTES.some((r) => r.path === '/app/settings/keys'));
});

browserTest('axe-core finds no serious or critical violation on any page', async (t) => {
  const { page, errors } = await signedIn();
  const found: Record<string, string[]> = {};
  for (const r of ROUTES) {
    await open(page, r.path);
    found[r.label] = await seriousViolations(page);
  }
  t.deepEqual(
    Object.entries(found).filter(([, v]) => v.length),
    [],
  );
  t.deepEqual(errors, []);
});

browserTest('the keyboard alone reaches every control of every page', async (t) => {
  const { page } = await signedIn();
  for (const r of ROUTES) {
    await open(page, r.path);
    // What a disclosure holds counts too: open them all (a person opens one with Enter on its summary).
    await page.evaluate(() => {
      for (const d of document.querySelectorAll('details')) d.open = true;
    });
    const { controls, missed } = await missedByTab(page);
    t.true(controls.length > 0, r.label);
    t.deepEqual(missed, [], `not reached by Tab on ${r.label}`);
  }
});

/** What a page shows: the main region's text. */
const shown = (page: Page) => page.locator('main').textContent();

browserTest('a copied address reloads to the same view, filters included', async (t) => {
  const { page } = await signedIn();
  const { page: other } = await signedIn();
  for (const r of ROUTES.filter((x) => x.path.includes(':brandId'))) {
    await open(page, r.path);
    // A narrower view where the page has filters: the last 7 days on one platform.
    const dates = page.getByLabel('Dates');
    if (await dates.count()) {
      await dates.selectOption({ label: 'Last 7 days' });
      await settled(page);
      t.regex(page.url(), /date_from=/, r.label);
      const platform = page.getByLabel('Platform / model'); // not on pages whose figures have no platform
      if (await platform.count()) {
        await platform.selectOption({ index: 1 });
        await settled(page);
        t.regex(page.url(), /[?&]model=/, r.label);
      }
    }
    const before = await shown(page);
    await other.goto(page.url());
    await settled(other);
    t.is(await shown(other), before, `${r.label} at ${page.url()}`);
  }
});

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [],
    field = '',
    quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') field += text[++i];
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

browserTest('every table downloads as CSV with its header and at least every row it shows', async (t) => {
  const { page } = await signedIn();
  let tables = 0;
  for (const r of ROUTES) {
    await open(page, r.path);
    const buttons = page.getByRole('button', { name: /^Download CSV/ });
    for (let i = 0; i < (await buttons.count()); i++) {
      const button = buttons.nth(i);
      // The table the button belongs to, as drawn: its column headers and its rows' first cells.
      // (No named function inside: tsx would wrap it in a helper the page does not have.)
      // A column whose label is only for screen readers holds buttons, not data: no CSV column.
      const [allHeaders, firstCells] = await button.evaluate((b) =>
        ['thead th', 'tbody tr > :first-child'].map((sel) =>
          [...(b.closest('.data-table')?.querySelector('table')?.querySelectorAll(sel) ?? [])].map((c) =>
            c.querySelector(':scope > .sr-only') ? '' : (c.textContent ?? '').trim(),
          ),
        ),
      );
      const headers = allHeaders.filter(Boolean);
      const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
      const csv = parseCsv(fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, ''));
      const name = `${r.label}: ${await button.getAttribute('aria-label')}`;
      t.true(csv.length >= 1, name);
      // The header names every column the table shows (the CSV may add columns it does not draw).
      for (const h of headers) t.true(csv[0].includes(h), `${name}: no "${h}" in ${csv[0].join(',')}`);
      t.true(csv.length - 1 >= firstCells.length, `${name}: ${csv.length - 1} rows for ${firstCells.length} shown`);
      // Rows hold the API's values (a category "other" where the screen says "Other"): their count is
      // what can be compared from here; each page's own test checks the values.
      t.true(
        csv.slice(1).every((row) => row.length === csv[0].length),
        `${name}: ragged rows`,
      );
      tables++;
    }
  }
  t.true(tables > 0, 'some page has a table');
});
