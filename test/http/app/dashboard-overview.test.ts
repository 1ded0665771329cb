// The overview and the answers explorer in Debian's Chromium: the cards hold the API's figures for
// the same filters, filters live in the address (a reload shows the same view), a figure's link
// opens the explorer on exactly the answers GET /api/mcp/answers lists for its filters, hostile
// texts and URLs stay text, axe-core finds nothing serious, and a CSV holds a header and every row.
// test-process: shared
// test-weight: 5
import fs from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import type { Browser, Locator, Page } from 'playwright-core';
import { get, ingestLines, startTestServer, type TestServer } from '../../helpers/server.ts';
import { HAVE_CHROMIUM, launch, person, seriousViolations, signIn, type Person } from './helpers.ts';

// Without Chromium these are reported as skipped, never as passed (README, Quick start).
const serialBrowserTest = HAVE_CHROMIUM ? test.serial : test.serial.skip;

// One test at a time: each drives the one browser through several pages, and six at once on a
// shared two-core machine only make every wait longer.
let server: TestServer;
let browser: Browser;
let who: Person;
let competitorId: string;

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The 14 complete UTC days before today: the range the tests put in the address. */
const FROM = dayOf(today - 14 * DAY_MS);
const TO = dayOf(today - DAY_MS);
const HOSTILE = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>`;
const PROMPTS = 12;

test.before(async () => {
  if (!HAVE_CHROMIUM) return;
  server = await startTestServer();
  browser = await launch();
  who = await person(server, [
    {
      name: 'Acme',
      slug: 'acme',
      industry: 'Software',
      region: 'US',
      domains: ['acme.example'],
      aliases: ['Acme Inc'],
      competitors: [{ name: 'Globex', domains: ['globex.example'], aliases: ['Globex Corp'] }],
      topics: [
        {
          name: 'CRM',
          prompts: Array.from({ length: PROMPTS }, (_, i) => ({
            text: `best crm number ${i + 1}`,
            platforms: ['chatgpt', 'perplexity'],
            regions: ['US'],
          })),
        },
      ],
    },
  ]);
  const competitors = await get(server, `/api/mcp/competitors?brand_id=${who.brandId}`, who.key);
  competitorId = competitors.body[0].id;
  // 28 days of answers (both periods of the change), three a day, varied so the filters matter.
  const lines: object[] = [];
  for (let d = 1; d <= 28; d++) {
    for (let k = 0; k < 3; k++) {
      const n = d * 3 + k;
      const names = n % 4 === 0 ? 'Globex Corp leads.' : n % 3 === 0 ? 'Acme Inc and Globex both.' : 'Acme is best.';
      lines.push({
        prompt_id: who.promptIds[n % PROMPTS],
        platform: k === 2 ? 'perplexity' : 'chatgpt',
        model: k === 2 ? 'sonar' : 'gpt-4o',
        region: 'US',
        collected_at: `${dayOf(today - d * DAY_MS)}T${String(8 + k).padStart(2, '0')}:00:00Z`,
        text: `Answer ${n}: ${names} ${n % 5 === 0 ? 'Acme is great, reliable and loved.' : ''}`,
        citations: [
          { url: n % 2 ? 'https://acme.example/pricing' : 'https://review.example/crm', title: `Page ${n % 7}` },
        ],
      });
    }
  }
  // A source cited beside Globex only: the citation gap's one domain.
  lines.push({
    prompt_id: who.promptIds[1],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: `${dayOf(today - 2 * DAY_MS)}T18:00:00Z`,
    text: 'Globex Corp is the pick of the forum.',
    citations: [{ url: 'https://forum.example/t/1', title: 'Forum thread' }],
  });
  // Yesterday's markdown answer, with markup and a javascript: link target among it.
  lines.push({
    prompt_id: who.promptIds[0],
    platform: 'perplexity',
    model: 'sonar',
    region: 'US',
    collected_at: `${TO}T19:00:00Z`,
    text: `## Top picks\n\n1. **Acme** boots: sturdy[1]\n2. Globex: see [the review](https://review.example/crm) or [trick](javascript:window.__xss=6) <i>x</i>`,
    citations: [{ url: 'https://review.example/crm', title: 'Review' }],
  });
  // Yesterday's hostile answer: markup in its text and title, a javascript: citation.
  lines.push({
    prompt_id: who.promptIds[0],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: `${TO}T20:00:00Z`,
    text: `Acme beats Globex. ${HOSTILE}`,
    citations: [
      { url: 'javascript:window.__xss=5', title: 'Click <b>me</b>' },
      { url: 'https://safe.example/a', title: `<script>window.__xss=4</script>` },
    ],
  });
  await ingestLines(server, lines);
});

test.after.always(async () => {
  await browser?.close();
  await server?.stop();
});

async function newPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext({ acceptDownloads: true })).newPage();
  // A waiting step fails on what the page shows, not on a slow machine: the wait is generous.
  page.setDefaultTimeout(90_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

const api = async (op: string, params: Record<string, string>) => {
  const res = await get(server, `/api/mcp/${op}?${new URLSearchParams({ brand_id: who.brandId, ...params })}`, who.key);
  if (res.status !== 200) throw new Error(`${op} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};

/** Every answer id GET /api/mcp/answers lists for `params`, walking its pages. */
async function apiAnswerIds(params: Record<string, string>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await api('answers', { ...params, limit: '7', ...(cursor ? { cursor } : {}) });
    ids.push(...page.answers.map((a: any) => a.id));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return ids;
}

/** The answer ids the explorer shows, after "Load more" until there is no more. */
async function explorerAnswerIds(page: Page): Promise<string[]> {
  await page.getByRole('status').filter({ hasText: 'answers shown' }).or(page.getByText('No answers match')).waitFor();
  for (;;) {
    const more = page.getByRole('button', { name: 'Load more' });
    if (!(await more.count())) break;
    const before = await page.locator('article[data-answer-id]').count();
    await more.click();
    await page.waitForFunction((n) => document.querySelectorAll('article[data-answer-id]').length > n, before);
    await page.getByRole('status').filter({ hasText: 'answers shown' }).waitFor();
  }
  return page
    .locator('article[data-answer-id]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-answer-id')!));
}

const CARDS = [
  ['AI visibility score', 'ai_visibility_score'],
  ['Mention rate', 'mention_rate'],
  ['Citation rate', 'citation_rate'],
  ['Share of voice', 'share_of_voice'],
  ['Average position', 'average_position'],
  ['Net sentiment', 'net_sentiment'],
] as const;

/** Each card's value, interval and verdict lines as the page shows them. */
async function cardTexts(page: Page) {
  const out: Record<string, { value: string; text: string }> = {};
  for (const [title] of CARDS) {
    const card = page.getByRole('region', { name: title, exact: true });
    out[title] = {
      value: (await card.locator('.figure').textContent()) ?? '',
      text: (await card.textContent()) ?? '',
    };
  }
  return out;
}

/** Until every part of the page shows the figures of the filters in the address. */
const settled = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('main [aria-busy="true"], main [role="status"]'));

async function openOverview(page: Page, query: string) {
  await page.goto(`${server.url}/app/brands/${who.brandId}?${query}`);
  await page.getByRole('region', { name: 'Net sentiment', exact: true }).locator('.figure').waitFor();
  await settled(page);
}

/** A CSV as RFC 4180 writes it: rows of fields, quoted fields may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

async function download(page: Page, button: Locator): Promise<string[][]> {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return parseCsv(fs.readFileSync((await file.path())!, 'utf8'));
}

serialBrowserTest(
  'the cards hold the API figures for the same filters, with interval and verdict in words',
  async (t) => {
    const { page, errors } = await newPage();
    await signIn(page, server, who);
    const filters = { date_from: FROM, date_to: TO, model: 'gpt-4o' };
    await openOverview(page, new URLSearchParams(filters).toString());
    const [change, confidence] = await Promise.all([
      api('visibility-change', filters),
      api('visibility-confidence', filters),
    ]);
    const brand = confidence.entities.find((e: any) => e.is_brand);
    const shown = await cardTexts(page);
    const words: Record<string, string> = {
      up: 'up',
      down: 'down',
      within_noise: 'within noise',
      not_enough_data: 'not enough data',
    };
    for (const [title, metric] of CARDS) {
      const m = change.metrics.find((x: any) => x.metric === metric);
      t.is(shown[title].value, m.current === null ? '—' : String(m.current), title);
      t.true(shown[title].text.includes(words[m.verdict]), `${title}: verdict ${m.verdict}`);
      const ci = brand[metric]?.ci95;
      if (ci) t.true(shown[title].text.includes(String(ci[0])) && shown[title].text.includes(String(ci[1])), title);
    }
    // The data decides at least one verdict other than not_enough_data (both periods hold 20+ answers).
    t.true(change.current.n >= 20 && change.previous.n >= 20);
    t.deepEqual(errors, []);
  },
);

serialBrowserTest('a filter changed is written to the address, and a reload of it shows the same view', async (t) => {
  const { page, errors } = await newPage();
  await signIn(page, server, who);
  await openOverview(page, `date_from=${FROM}&date_to=${TO}`);
  const all = await cardTexts(page);
  await page.getByLabel('Platform / model').selectOption('sonar');
  await page.waitForURL((u) => u.searchParams.get('model') === 'sonar');
  const url = new URL(page.url());
  t.is(url.searchParams.get('date_from'), FROM);
  t.is(url.searchParams.get('date_to'), TO);
  const change = await api('visibility-change', { date_from: FROM, date_to: TO, model: 'sonar' });
  const mentionRate = String(change.metrics.find((m: any) => m.metric === 'mention_rate').current);
  await page.waitForFunction(
    (want) => document.querySelector('[aria-labelledby="card-mention-rate"] .figure')?.textContent === want,
    mentionRate,
  );
  await settled(page);
  const filtered = await cardTexts(page);
  t.not(filtered['Mention rate'].value, all['Mention rate'].value, 'the model filter changes the figure');
  await page.reload();
  await page.getByRole('region', { name: 'Net sentiment', exact: true }).locator('.figure').waitFor();
  await settled(page);
  t.deepEqual(await cardTexts(page), filtered);
  t.is(await page.getByLabel('Platform / model').inputValue(), 'sonar');
  // A preset range writes both dates: the address says which days, whatever day it is read on.
  await page.getByLabel('Dates').selectOption('7');
  await page.waitForURL((u) => u.searchParams.get('date_from') === dayOf(today - 7 * DAY_MS));
  t.is(new URL(page.url()).searchParams.get('date_to'), TO);
  t.is(new URL(page.url()).searchParams.get('model'), 'sonar');
  t.deepEqual(errors, []);
});

serialBrowserTest(
  'links from a card, a leaderboard row, a prompt and a domain open the explorer on the answers the API lists',
  async (t) => {
    const { page, errors } = await newPage();
    await signIn(page, server, who);
    const query = `date_from=${FROM}&date_to=${TO}&region=US`;
    const follow = async (link: Locator, expect: Record<string, string>) => {
      await openOverview(page, query);
      await link.click();
      await page.waitForURL((u) => u.pathname.endsWith('/answers'));
      const params = Object.fromEntries(new URL(page.url()).searchParams);
      t.like(params, { date_from: FROM, date_to: TO, region: 'US', ...expect });
      const shown = await explorerAnswerIds(page);
      const listed = await apiAnswerIds(params);
      t.true(listed.length > 0);
      t.deepEqual(shown, listed);
    };
    await follow(page.getByRole('link', { name: /^Mention rate:/ }), {});
    await follow(
      page.getByRole('table', { name: 'Competitor leaderboard' }).getByRole('link', { name: 'Globex', exact: true }),
      { mentioned: competitorId },
    );
    await follow(page.getByRole('link', { name: 'best crm number 3', exact: true }), { prompt_id: who.promptIds[2] });
    // A domain opens the answers citing it; a competitor beside a gap domain, those that name it too.
    await follow(
      page.getByRole('table', { name: 'Top cited domains' }).getByRole('link', { name: 'review.example', exact: true }),
      { domain: 'review.example' },
    );
    // A top page's count opens the answers citing that page; the explorer shows the filter to clear.
    await follow(
      page
        .getByRole('table', { name: 'Top cited URLs' })
        .getByRole('link', { name: /^Answers citing https:/ })
        .first(),
      { url: 'https://review.example/crm' },
    );
    await page.getByLabel('Citing the page', { exact: true }).selectOption('');
    await page.waitForURL((u) => !u.searchParams.has('url'));
    const gap = page.getByRole('table', { name: 'Citation gap: domains' });
    await follow(gap.getByRole('link', { name: 'forum.example', exact: true }), { domain: 'forum.example' });
    await follow(
      gap.getByRole('row').filter({ hasText: 'forum.example' }).getByRole('link', { name: 'Globex', exact: true }),
      { gap: 'true', domain: 'forum.example', mentioned: competitorId },
    );
    // The explorer's own selects write the address under the operation's names; the empty choice
    // removes the parameter and the others stay.
    await page.getByLabel('Citing', { exact: true }).selectOption('');
    await page.waitForURL((u) => !u.searchParams.has('domain'));
    await page.getByLabel('Prompt', { exact: true }).selectOption(who.promptIds[2]);
    await page.waitForURL((u) => u.searchParams.get('prompt_id') === who.promptIds[2]);
    t.like(Object.fromEntries(new URL(page.url()).searchParams), {
      date_from: FROM,
      region: 'US',
      mentioned: competitorId,
      prompt_id: who.promptIds[2],
    });
    t.is(await page.getByLabel('Prompt', { exact: true }).inputValue(), who.promptIds[2]);
    t.deepEqual(errors, []);
  },
);

serialBrowserTest(
  'hostile answer texts, titles and URLs are text; names are marked; a javascript: citation is no link',
  async (t) => {
    const { page, errors } = await newPage();
    await signIn(page, server, who);
    const query = `date_from=${TO}&date_to=${TO}&prompt_id=${who.promptIds[0]}`;
    // The ingest keeps only http(s) citations, so the API never serves a javascript: URL; the app's
    // own guard is tried on a response given one on its way to the page.
    const listed = await api('answers', Object.fromEntries(new URLSearchParams(query)));
    t.false(JSON.stringify(listed.answers.map((a: any) => a.citations)).includes('javascript:'));
    await page.route('**/app/api/op/answers?*', async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      for (const a of body.answers)
        a.citations.unshift({
          url: 'javascript:window.__xss=5',
          domain: 'x',
          category: 'other',
          article_type: 'other',
          title: 'Click <b>me</b>',
        });
      await route.fulfill({ response: res, json: body });
    });
    await page.goto(`${server.url}/app/brands/${who.brandId}/answers?${query}`);
    const hostile = page.locator('article[data-answer-id]').filter({ hasText: 'Acme beats Globex' });
    await hostile.waitFor();
    t.is(await hostile.locator('.answer-text').textContent(), `Acme beats Globex. ${HOSTILE}`);
    t.deepEqual(await hostile.locator('.answer-text mark').allTextContents(), ['Acme', 'Globex']);
    t.is(await hostile.getByText('Click <b>me</b>', { exact: true }).count(), 1);
    t.is(await hostile.locator('a[href^="javascript"]').count(), 0);
    await hostile.getByText('Click <b>me</b>', { exact: true }).click();
    await t.notThrowsAsync(hostile.getByRole('link', { name: '<script>window.__xss=4</script>' }).waitFor());
    // Markdown is shown as elements, its markup and non-web link targets as text.
    const md = page.locator('article[data-answer-id]').filter({ hasText: 'Top picks' });
    t.is(await md.locator('.answer-heading strong').textContent(), 'Top picks');
    t.deepEqual(await md.locator('.answer-text ol > li').allTextContents(), [
      'Acme boots: sturdy1',
      'Globex: see the review or trick <i>x</i>',
    ]);
    t.is(await md.locator('.answer-text li strong mark').textContent(), 'Acme');
    t.is(await md.locator('.answer-text sup').textContent(), '1');
    const review = md.locator('.answer-text').getByRole('link', { name: 'the review', exact: true });
    t.is(await review.getAttribute('href'), 'https://review.example/crm');
    t.is(await review.getAttribute('rel'), 'noopener noreferrer nofollow');
    t.is(await md.locator('.answer-text a').count(), 1);
    await md.getByText('trick').click();
    // Each named entity's sentiment is shown in words.
    t.regex((await hostile.locator('.entity-list').textContent()) ?? '', /Acme.*(Positive|Neutral|Negative)/);
    t.is(await page.evaluate(() => (window as any).__xss), undefined);
    t.is(await page.locator('main img, main script, main b, main i').count(), 0);
    t.deepEqual(errors, []);
  },
);

/** Opens the explorer at `href` (a page load: no total of the page before it stays): its shown total is `n`. */
async function explorerTotalIs(t: ExecutionContext, explorer: Page, href: string, n: string, what: string) {
  await explorer.goto(`${server.url}${href}`);
  const total = explorer.locator('.answers-total[data-total]');
  await total.waitFor();
  t.is(await total.getAttribute('data-total'), n, `${what}: ${href}`);
  t.is(await total.textContent(), `${Number(n).toLocaleString('en')} ${n === '1' ? 'answer' : 'answers'}`, what);
}

serialBrowserTest(
  "each card's and table's counts open an explorer whose total is that count; the trend draws entity-trend",
  async (t) => {
    const { page, errors } = await newPage();
    await signIn(page, server, who);
    const query = `date_from=${FROM}&date_to=${TO}`;
    await openOverview(page, query);
    // One session for the explorer the counts open, beside the overview's.
    const explorer = await (await browser.newContext()).newPage();
    await signIn(explorer, server, who);
    const change = await api('visibility-change', { date_from: FROM, date_to: TO });
    const expected: Record<string, number[]> = {
      'AI visibility score': [change.counts.answers],
      'Mention rate': [change.counts.mention_answers],
      'Citation rate': [change.counts.citation_answers],
      'Share of voice': [change.counts.mention_answers],
      'Average position': [change.counts.mention_answers],
      'Net sentiment': [change.counts.positive_answers, change.counts.negative_answers],
    };
    t.true(change.counts.positive_answers > 0, 'the data has positive answers');
    for (const [title] of CARDS) {
      const links = page.getByRole('region', { name: title, exact: true }).locator('.counted a');
      const hrefs = await links.evaluateAll((els) =>
        els.map((e) => [e.getAttribute('href')!, e.getAttribute('data-count')!]),
      );
      t.deepEqual(
        hrefs.map(([, n]) => Number(n)),
        expected[title],
        title,
      );
      // The About control opens the definition docs/metrics.md holds.
      await page.getByRole('region', { name: title, exact: true }).getByText('About').click();
      t.true(await page.getByRole('region', { name: title, exact: true }).locator('.about p').isVisible(), title);
      for (const [href, n] of hrefs) await explorerTotalIs(t, explorer, href, n, title);
    }
    // Every count of answers in the overview's tables: one link a row (the first three followed: each
    // is the same link of another row), opening that many answers.
    for (const caption of ['Competitor leaderboard', 'Top cited domains', 'Top cited URLs', 'Citation gap: domains']) {
      const table = page.getByRole('table', { name: caption, exact: true });
      const counted = await table
        .locator('tbody a[data-count]')
        .evaluateAll((els) => els.map((e) => [e.getAttribute('href')!, e.getAttribute('data-count')!]));
      t.is(counted.length, await table.locator('tbody tr').count(), caption);
      t.true(counted.length > 0, caption);
      for (const [href, n] of counted.slice(0, 3)) await explorerTotalIs(t, explorer, href, n, caption);
    }
    await explorer.context().close();
    // The score is headed by its one name (figure-definitions.ts), as on the Competitors page.
    const leaderboard = page.getByRole('table', { name: 'Competitor leaderboard', exact: true });
    t.is(await leaderboard.getByRole('columnheader', { name: 'AI visibility score' }).count(), 1);
    // The trend: one line per entity of entity-trend, the same buckets in its table, every count a link.
    const trend = await api('entity-trend', { date_from: FROM, date_to: TO });
    await page.getByText('Show as table').click();
    const table = page.getByRole('table', { name: 'AI visibility score by day' });
    t.is(await table.locator('tbody tr').count(), trend.buckets.length);
    const firstRow = await table.locator('tbody tr').first().locator('td').allTextContents();
    const b0 = trend.buckets[0];
    t.deepEqual(firstRow.slice(1), [
      String(b0.answers),
      ...trend.entities.map((e: any) => (b0.values[e.entity_id] === null ? '—' : String(b0.values[e.entity_id]))),
    ]);
    // A click on the chart opens that day's answers.
    const canvas = page.locator('.chart-canvas .u-over');
    const box = (await canvas.boundingBox())!;
    await canvas.click({ position: { x: box.width - 2, y: box.height / 2 } });
    await page.waitForURL((u) => u.pathname.endsWith('/answers'));
    const opened = new URL(page.url()).searchParams;
    t.is(opened.get('date_from'), opened.get('date_to'));
    t.is(opened.get('date_from'), trend.buckets.at(-1).date);
    t.deepEqual(errors, []);
  },
);

serialBrowserTest('axe-core finds no serious or critical violation on the overview and the explorer', async (t) => {
  const { page } = await newPage();
  await signIn(page, server, who);
  await openOverview(page, `date_from=${FROM}&date_to=${TO}`);
  const overview = await seriousViolations(page);
  await page.getByText('Show as table').click();
  const trendTable = await seriousViolations(page);
  await page.goto(`${server.url}/app/brands/${who.brandId}/answers?date_from=${FROM}&date_to=${TO}`);
  await page.locator('article[data-answer-id]').first().waitFor();
  const explorer = await seriousViolations(page);
  await page.goto(`${server.url}/app/brands/${who.brandId}/answers?date_from=${FROM}&date_to=${TO}&mentioned=brand`);
  await page.locator('article[data-answer-id]').first().waitFor();
  const filtered = await seriousViolations(page);
  await page.goto(`${server.url}/app/brands/${who.brandId}/competitors?date_from=${FROM}&date_to=${TO}`);
  await page
    .getByRole('table', { name: 'Untracked brands named in the answers' })
    .or(page.getByText('No untracked name'))
    .first()
    .waitFor();
  await settled(page);
  const competitors = await seriousViolations(page);
  await page.goto(`${server.url}/app/brands/${who.brandId}/citations?date_from=${FROM}&date_to=${TO}`);
  await page.getByRole('table', { name: 'Citation gap: domains the gap answers cite' }).waitFor();
  await settled(page);
  const citations = await seriousViolations(page);
  await page.goto(`${server.url}/app/brands/${who.brandId}/prompts?date_from=${FROM}&date_to=${TO}`);
  await page.getByRole('table', { name: 'Prompt performance' }).waitFor();
  await settled(page);
  const prompts = await seriousViolations(page);
  await openOverview(page, `date_from=${FROM}&date_to=${TO}`);
  t.deepEqual(
    { overview, trendTable, explorer, filtered, competitors, citations, prompts },
    { overview: [], trendTable: [], explorer: [], filtered: [], competitors: [], citations: [], prompts: [] },
  );
});

serialBrowserTest('CSV downloads hold a header and every row, not only those on screen', async (t) => {
  const { page, errors } = await newPage();
  await signIn(page, server, who);
  // The explorer: every answer at the filters, though the screen shows the first 20.
  const filters = { date_from: FROM, date_to: TO };
  await page.goto(`${server.url}/app/brands/${who.brandId}/answers?${new URLSearchParams(filters)}`);
  await page.getByRole('status').filter({ hasText: 'answers shown' }).waitFor();
  t.is(await page.locator('article[data-answer-id]').count(), 20);
  const rows = await download(page, page.getByRole('button', { name: 'Download CSV' }));
  t.is(rows[0][0], 'id');
  t.true(rows[0].includes('text'));
  const ids = await apiAnswerIds(filters);
  t.true(ids.length > 20);
  t.deepEqual(
    rows.slice(1).map((r) => r[0]),
    ids,
  );
  // The hostile text survives as one quoted field, neutralised nowhere since it starts with a letter.
  const textColumn = rows[0].indexOf('text');
  t.true(rows.slice(1).some((r) => r[textColumn] === `Acme beats Globex. ${HOSTILE}`));

  // The overview's prompts table shows ten; its CSV holds every prompt with answers.
  await openOverview(page, new URLSearchParams(filters).toString());
  const prompts = page.getByRole('table', { name: 'Prompts by visibility' });
  t.is(await prompts.locator('tbody tr').count(), 10);
  const csv = await download(page, page.getByRole('button', { name: 'Download CSV: Prompts by visibility' }));
  const performance = await api('prompt-performance', { ...filters, sort_by: 'ai_visibility_score', limit: '100' });
  t.deepEqual(csv[0], [
    'Prompt',
    'Prompt id',
    'Topic',
    'Answers',
    'Your score',
    'Your mention rate',
    'Best competitor',
    'Its score',
    'Its mention rate',
  ]);
  t.is(csv.length - 1, PROMPTS);
  t.deepEqual(
    csv.slice(1).map((r) => [r[1], Number(r[3])]),
    performance.prompts.map((p: any) => [p.prompt_id, p.result_count]),
  );
  // By the score the table shows, highest first.
  const scores = csv.slice(1).map((r) => Number(r[4]));
  t.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
  );
  t.deepEqual(errors, []);
});
