// The brand's competitors, citations, prompts and workspace settings pages in Debian's Chromium:
// the settings forms run their operation (seen over the API) and show the API's refusals beside
// their field, the figure pages show the API's numbers for the same filters, a figure's link opens
// the explorer with filters whose answers are the ones the figure counts, axe-core finds no serious
// or critical violation, and Tab reaches every control.
// test-process: shared
// test-weight: 4
import fs from 'node:fs';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { call, get, ingestLines, seedTenant, startTestServer, type TestServer } from '../../helpers/server.ts';
import { HAVE_CHROMIUM, launch, seriousViolations, signIn } from './helpers.ts';
import { missedByTab } from './keyboard.ts';
import { BRAND, seededPerson, type SeededPerson } from './workspace-seed.ts';
import { setPasswordByEmail } from '../../../src/tenancy/accounts.ts';

// Without Chromium these are reported as skipped, never as passed (README, Quick start).
const browserTest = HAVE_CHROMIUM ? test : test.skip;

let server: TestServer;
let browser: Browser;

test.before(async () => {
  if (!HAVE_CHROMIUM) return;
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  browser = await launch();
});

test.after.always(async () => {
  await browser?.close();
  await server?.stop();
});

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The app's default range: the last 30 complete UTC days. */
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const LAST_30 = { date_from: day(today - 30 * DAY_MS), date_to: day(today - DAY_MS) };

async function signedIn(who: { email: string; password: string }, path = '/app'): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, server, who, path);
  return page;
}

const api = (who: SeededPerson, path: string) => get(server, `/api/mcp${path}`, who.key);

/** The cells of a table found by its caption, row by row, as the reader sees them. */
async function cells(page: Page, caption: string): Promise<string[][]> {
  await page.getByRole('table', { name: caption }).waitFor();
  return page.evaluate((cap) => {
    const table = [...document.querySelectorAll('table')].find((t) => t.caption?.textContent === cap);
    // A figure's interval (.ci) is read apart: the cell's value is the rest of its text. (No named
    // function in here: the test's transpiler would wrap it in a helper the page does not have.)
    return [...(table?.tBodies[0]?.rows ?? [])].map((r) =>
      [...r.cells].map((c) =>
        [...c.childNodes]
          .filter((n) => !(n instanceof Element && n.classList.contains('ci')))
          .map((n) => n.textContent ?? '')
          .join(' ')
          .trim()
          // A column of numbers writes each with the column's decimals (72 beside 71.3 is 72.0):
          // the padding zeros come off before comparing with the API's figure.
          .replace(/^(-?\d+)\.(\d*?)0+(%?)$/, (_m, int, frac, pct) => `${int}${frac ? `.${frac}` : ''}${pct}`),
      ),
    );
  }, caption);
}

const shown = (v: number | null) => (v === null ? '—' : String(v));

/** Every answer the explorer's filters select, over the API (following next_cursor). */
async function answersOf(who: SeededPerson, params: URLSearchParams): Promise<number> {
  let n = 0;
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams(params);
    q.set('brand_id', who.brandId);
    q.set('limit', '100');
    if (cursor) q.set('cursor', cursor);
    const r = await api(who, `/answers?${q}`);
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    n += r.body.answers.length;
    cursor = r.body.next_cursor;
  } while (cursor);
  return n;
}

/** Follows a link; the explorer's address, and the filters in it. */
async function follow(page: Page, name: string): Promise<URL> {
  await page.getByRole('link', { name, exact: true }).first().click();
  await page.waitForURL(/\/answers\?/);
  return new URL(page.url());
}

browserTest('a webhook without events: the API refusal beside the events, and nothing is created', async (t) => {
  const who = await seededPerson(server);
  const page = await signedIn(who, '/app/settings/webhooks');
  const form = page.getByRole('form', { name: 'Add webhook' });
  await form.getByLabel('URL').fill('https://hooks.example/answerscope');
  await form.getByRole('checkbox', { checked: true }).uncheck();
  await form.getByRole('button', { name: 'Add webhook' }).click();
  const error = page.locator('#events-error');
  await error.waitFor();
  t.is(
    await error.textContent(),
    'events must be a non-empty list of: opportunity.sent, digest.daily, webhook.test, alert.fired',
  );
  t.is(await form.getByRole('group', { name: 'Events' }).getAttribute('aria-describedby'), 'events-error');
  t.deepEqual((await api(who, '/webhooks')).body, []);
  await page.close();
});

browserTest('the settings forms run their operations and show the API refusals beside their field', async (t) => {
  const who = await seededPerson(server);
  const page = await signedIn(who, `/app/brands/${who.brandId}/settings`);
  await page.getByRole('heading', { name: 'Workspace settings', level: 1 }).waitFor();
  const status = page.locator('[data-state]');

  // Add a competitor: listed over the API, and the re-analysis it queued runs to its end on the page.
  const add = page.getByRole('form', { name: 'Add a competitor' });
  await add.getByLabel('Name').fill('Hooli');
  await add.getByLabel('Domains').fill('hooli.example, www.hooli.io');
  await add.getByRole('button', { name: 'Add competitor' }).click();
  await page.getByRole('cell', { name: 'Hooli', exact: true }).waitFor();
  const listed = await api(who, `/competitors?brand_id=${who.brandId}`);
  t.deepEqual(
    listed.body.map((c: any) => [c.name, c.domains]),
    [
      ['Globex', ['globex.example']],
      ['Hooli', ['hooli.example', 'hooli.io']],
      ['Initech', ['initech.example']],
    ],
  );
  await page.waitForFunction(() => document.querySelector('[data-state]')?.getAttribute('data-state') === 'idle');
  const report = await api(who, `/brands/${who.brandId}/reanalysis`);
  t.is(report.body.state, 'idle');
  t.truthy(report.body.last_finished_at);
  t.regex((await status.textContent()) ?? '', /Up to date[\s\S]*Last finished/);

  // The same name again: the 409, as the API words it, beside the Name field.
  await add.getByLabel('Name').fill('Globex');
  await add.getByRole('button', { name: 'Add competitor' }).click();
  const nameError = page.locator('#competitor-new-name-error');
  await nameError.waitFor();
  t.is(await nameError.textContent(), 'Competitor "Globex" already exists');
  t.is(await add.getByLabel('Name').getAttribute('aria-invalid'), 'true');

  // A list item the API refuses: its message beside the list's field.
  await add.getByLabel('Name').fill('Umbrella');
  await add.getByLabel('Domains').fill('umbrella.example, not a domain');
  await add.getByRole('button', { name: 'Add competitor' }).click();
  const domainsError = page.locator('#competitor-new-domains-error');
  await domainsError.waitFor();
  t.regex((await domainsError.textContent()) ?? '', /^domains\.1: domains must be bare domains/);
  t.false(await nameError.isVisible());

  // Remove it, after the confirmation.
  await page.getByRole('button', { name: 'Remove Hooli' }).click();
  await page.getByRole('button', { name: 'Remove competitor' }).click();
  await page.getByRole('cell', { name: 'Hooli', exact: true }).waitFor({ state: 'detached' });
  t.deepEqual(
    (await api(who, `/competitors?brand_id=${who.brandId}`)).body.map((c: any) => c.name),
    ['Globex', 'Initech'],
  );

  // The brand: only what changed is sent; a new alias queues a re-analysis.
  const brandForm = page.getByRole('form', { name: 'Brand' });
  await brandForm.getByLabel('Aliases').fill('Acme Outdoors, Acme Gear');
  await brandForm.getByRole('button', { name: 'Save brand' }).click();
  await page.getByText('Saved. A re-analysis of the stored answers is queued.').waitFor();
  const brand = (await api(who, '/brands')).body.find((b: any) => b.id === who.brandId);
  t.deepEqual([brand.name, brand.aliases], ['Acme', ['Acme Outdoors', 'Acme Gear']]);

  // Sampling: adaptive with max below min is refused beside Most a day; then saved as typed.
  const samplingForm = page.getByRole('form', { name: 'Sampling' });
  await samplingForm.getByLabel('Sampling', { exact: true }).selectOption('adaptive');
  await samplingForm.getByLabel('Fewest a day').fill('3');
  await samplingForm.getByLabel('Most a day').fill('2');
  await samplingForm.getByRole('button', { name: 'Save sampling' }).click();
  const maxError = page.locator('#sampling-max-error');
  await maxError.waitFor();
  t.is(await maxError.textContent(), 'sampling.max_samples: max_samples must be at least min_samples');
  await samplingForm.getByLabel('Most a day').fill('6');
  await samplingForm.getByRole('button', { name: 'Save sampling' }).click();
  await page.getByText('Saved: the next daily capture samples this way.').waitFor();
  const sampled = (await api(who, '/brands')).body.find((b: any) => b.id === who.brandId);
  t.deepEqual(sampled.sampling, { mode: 'adaptive', min_samples: 3, max_samples: 6, target_half_width: 5 });

  // A topic created, then deactivated.
  const topicForm = page.getByRole('form', { name: 'Create a topic' });
  await topicForm.getByLabel('Topic name').fill('Camping');
  await topicForm.getByRole('button', { name: 'Create topic' }).click();
  await page.getByRole('cell', { name: 'Camping', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Deactivate Camping' }).click();
  await page.getByRole('button', { name: 'Activate Camping', exact: true }).waitFor();
  const topics = (await api(who, `/topics?brand_id=${who.brandId}`)).body;
  t.deepEqual(
    topics.map((x: any) => [x.name, x.is_active]),
    [
      ['Hiking boots', true],
      ['Trail running', true],
      ['Camping', false],
    ],
  );

  // Two prompts added at once into that topic, for one platform; one prompt moved off a platform.
  const addPrompts = page.getByRole('form', { name: 'Add prompts' });
  await addPrompts.getByLabel('Prompts', { exact: true }).fill('best tent for two\n\nfour season tent');
  await addPrompts.getByLabel('Topic').selectOption({ label: 'Camping (inactive)' });
  await addPrompts.getByLabel('Claude').check();
  await addPrompts.getByRole('button', { name: 'Add prompts' }).click();
  await page.getByText('2 prompts added.').waitFor();
  await page.getByRole('button', { name: 'Change best waterproof hiking boots' }).click();
  const edit = page.getByRole('form', { name: 'Change prompt: best waterproof hiking boots' });
  await edit.getByLabel('Perplexity').uncheck();
  await edit.getByRole('button', { name: 'Save prompt' }).click();
  await edit.waitFor({ state: 'detached' });
  const prompts = (await api(who, `/prompts?brand_id=${who.brandId}`)).body;
  const byText = new Map(prompts.map((p: any) => [p.text, p]));
  t.like(byText.get('best tent for two'), { topic_name: 'Camping', platforms: ['claude'], is_active: true });
  t.like(byText.get('four season tent'), { topic_name: 'Camping', platforms: ['claude'] });
  t.deepEqual((byText.get('best waterproof hiking boots') as any).platforms, ['chatgpt']);
  await page.getByRole('button', { name: 'Deactivate four season tent' }).click();
  await page.getByRole('button', { name: 'Activate four season tent', exact: true }).waitFor();
  const after = (await api(who, `/prompts?brand_id=${who.brandId}`)).body;
  t.false(after.find((p: any) => p.text === 'four season tent').is_active);
});

browserTest('a prompt past the plan limit shows the 402 beside the prompts and adds nothing', async (t) => {
  const tenant = await seedTenant(server, [BRAND], 'starter');
  const password = 'a long test passphrase';
  await setPasswordByEmail(server.stores.pg, tenant.email, password);
  // The seeded three and 47 more: the starter plan's 50.
  const fill = await call(server, 'POST', '/api/mcp/prompts', {
    key: tenant.key,
    body: { brand_id: tenant.brandId, prompts: Array.from({ length: 47 }, (_, i) => ({ text: `filler prompt ${i}` })) },
  });
  t.is(fill.status, 200, JSON.stringify(fill.body));
  const page = await signedIn({ email: tenant.email, password }, `/app/brands/${tenant.brandId}/settings`);
  const form = page.getByRole('form', { name: 'Add prompts' });
  await form.getByLabel('Prompts', { exact: true }).fill('one prompt too many');
  await form.getByRole('button', { name: 'Add prompts' }).click();
  const error = page.locator('#prompts-new-error');
  await error.waitFor();
  t.is(await error.textContent(), 'Active prompt limit reached (50 on the starter plan)');
  t.is(await form.getByLabel('Prompts', { exact: true }).getAttribute('aria-invalid'), 'true');
  const listed = await get(server, `/api/mcp/prompts?brand_id=${tenant.brandId}&limit=500`, tenant.key);
  t.is(listed.body.length, 50);
  t.false(listed.body.some((p: any) => p.text === 'one prompt too many'));
});

browserTest(
  'competitors: the API figures at the same filters; a row opens the answers naming that entity',
  async (t) => {
    const who = await seededPerson(server);
    const filters = new URLSearchParams({ ...LAST_30, model: 'gpt-4o' });
    const page = await signedIn(who, `/app/brands/${who.brandId}/competitors?${filters}`);
    const rows = await cells(page, 'Leaderboard: the brand and its competitors');
    // The score is headed by its one name (figure-definitions.ts), as on the overview's leaderboard.
    const board = page.getByRole('table', { name: 'Leaderboard: the brand and its competitors' });
    t.is(await board.getByRole('columnheader', { name: 'AI visibility score' }).count(), 1);
    // The answers naming each entity, headed as on the overview's leaderboard.
    t.is(await board.getByRole('columnheader', { name: 'Answers naming' }).count(), 1);
    const q = `brand_id=${who.brandId}&${filters}`;
    const [comparison, confidence, sentiment] = await Promise.all([
      api(who, `/competitor-comparison?${q}`),
      api(who, `/visibility-confidence?${q}`),
      api(who, `/sentiment?${q}`),
    ]);
    const entities = [comparison.body.brand, ...comparison.body.competitors];
    t.is(rows.length, entities.length);
    for (const [i, e] of entities.entries()) {
      const id = i === 0 ? who.brandId : e.competitor_id;
      const rate = confidence.body.entities.find((x: any) => x.entity_id === id).mention_rate;
      const net = sentiment.body.entities.find((x: any) => x.entity_id === id).net_sentiment;
      const [name, score, mentionRate, answers, , mentions, citations, sent] = rows[i];
      t.true(name.startsWith(e.name), name);
      t.deepEqual(
        [score, mentionRate, answers, mentions, citations, sent],
        [
          shown(e.ai_visibility_score),
          `${rate.value}%`,
          String(e.appearance_count),
          String(e.total_mentions),
          String(e.total_citations),
          shown(net),
        ],
        e.name,
      );
    }
    t.true(comparison.body.brand.appearance_count > 0);
    const sov = page.getByRole('region', { name: 'Share of voice' });
    t.is(await sov.locator('.value').textContent(), `${comparison.body.share_of_voice.overall_sov_pct}%`);

    // Globex's row: the explorer with the page's filters and mentioned=<its id>, whose answers are the ones counted.
    const globex = comparison.body.competitors.find((c: any) => c.name === 'Globex');
    const url = await follow(page, 'Globex: answers naming it');
    t.deepEqual(Object.fromEntries(url.searchParams), {
      ...Object.fromEntries(filters),
      mentioned: globex.competitor_id,
    });
    t.is(await answersOf(who, url.searchParams), globex.appearance_count);
  },
);

browserTest(
  'untracked brands: each count opens the explorer on exactly its answers, though its words are in others',
  async (t) => {
    const who = await seededPerson(server);
    // Vasque and Merrell Moab open list items in three answers; Vasque is a shopping card's brand in a
    // fourth; both are named in prose in a fifth (Vasque in a sixth too), which the words search finds
    // and the counts leave out.
    const line = (ago: number, text: string, more: object = {}) => ({
      prompt_id: who.promptIds[0],
      platform: 'chatgpt',
      model: 'gpt-4o',
      region: 'US',
      collected_at: `${day(today - ago * DAY_MS)}T18:00:00Z`,
      text,
      citations: [],
      ...more,
    });
    await ingestLines(server, [
      ...[2, 3, 4].map((ago) => line(ago, '1. **Vasque** - sturdy.\n2. Merrell Moab: roomy.')),
      line(5, 'Boots to buy.', {
        mode: 'shopping',
        products: [{ position: 1, title: 'Vasque Breeze', brand: 'Vasque', price: '$180' }],
      }),
      line(6, 'Vasque and Merrell Moab are fine too.'),
      line(7, 'Vasque resoles boots.'),
    ]);
    const filters = new URLSearchParams(LAST_30);
    const listed = (await api(who, `/untracked-brands?brand_id=${who.brandId}&${filters}`)).body.brands;
    t.deepEqual(
      listed.map((b: any) => [b.name, b.answers]),
      [
        ['Vasque', 4],
        ['Merrell Moab', 3],
      ],
    );
    const page = await signedIn(who, `/app/brands/${who.brandId}/competitors?${filters}`);
    const rows = await cells(page, 'Untracked brands named in the answers');
    t.deepEqual(
      rows.map((r) => [r[0], r[1]]),
      listed.map((b: any) => [b.name, String(b.answers)]),
    );
    for (const b of listed) {
      // The words search would list more: the prose answer names both.
      const words = (await api(who, `/answers?brand_id=${who.brandId}&${filters}&q=${encodeURIComponent(b.name)}`))
        .body;
      t.not(words.total, b.answers, b.name);
      const url = await follow(page, `${b.answers} answers naming ${b.name}`);
      t.deepEqual(Object.fromEntries(url.searchParams), { ...LAST_30, untracked: b.name });
      const total = page.locator('.answers-total[data-total]');
      await total.waitFor();
      t.is(await total.getAttribute('data-total'), String(b.answers), b.name);
      t.is(await total.textContent(), `${b.answers} answers`, b.name);
      t.is(await answersOf(who, url.searchParams), b.answers, b.name);
      await page.goBack();
      await page.getByRole('table', { name: 'Untracked brands named in the answers' }).waitFor();
    }
  },
);

browserTest(
  'citations and the gap: the API figures at the same filters; a domain or a page opens the answers citing it',
  async (t) => {
    const who = await seededPerson(server);
    const [hiking] = who.topicIds;
    const filters = new URLSearchParams({ ...LAST_30, topic_id: hiking });
    const page = await signedIn(who, `/app/brands/${who.brandId}/citations?${filters}`);
    const q = `brand_id=${who.brandId}&${filters}`;
    const [citations, gap, globexGap] = await Promise.all([
      api(who, `/citations?${q}&limit=50`),
      api(who, `/citation-gap?${q}`),
      api(who, `/citation-gap?${q}&competitor_id=${who.competitorIds[0]}`),
    ]);
    const domains = await cells(page, 'Top cited domains');
    t.deepEqual(
      domains.map((r) => [r[0], r[2], r[4]]),
      citations.body.top_domains.map((d: any) => [d.domain, String(d.results_citing), String(d.total_citations)]),
    );
    // Its CSV: a header and every domain the API lists at its most (200), not only the 50 shown.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV: Top cited domains' }).click(),
    ]);
    const csv = fs
      .readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\r\n');
    const all = await api(who, `/citations?${q}&limit=200`);
    t.is(csv[0], 'Domain,Category,Answers citing,Share of answers,Citations,Models');
    t.deepEqual(
      csv.slice(1),
      all.body.top_domains.map(
        (d: any) =>
          `${d.domain},${d.category},${d.results_citing},${d.usage_pct},${d.total_citations},${d.models.join('; ')}`,
      ),
    );

    const caption = 'Citation gap: domains the gap answers cite';
    const gapRows = async () => (await cells(page, caption)).map((r) => [r[0], r[2]]);
    t.deepEqual(
      await gapRows(),
      gap.body.domains.map((d: any) => [d.domain, String(d.gap_answers)]),
    );
    t.true(gap.body.domains.length > 0);

    // One competitor: picked, kept in the address, and the table follows it.
    await page.getByLabel('Competitor', { exact: true }).selectOption({ label: 'Globex' });
    await page.waitForURL(/competitor_id=/);
    await page.waitForFunction(
      ([cap, n]) =>
        [...document.querySelectorAll('table')].find((t) => t.caption?.textContent === cap)?.tBodies[0].rows.length ===
        n,
      [caption, globexGap.body.domains.length] as const,
    );
    t.deepEqual(
      await gapRows(),
      globexGap.body.domains.map((d: any) => [d.domain, String(d.gap_answers)]),
    );

    // A gap domain for that competitor: its answers are exactly those counted.
    const first = globexGap.body.domains[0];
    const gapUrl = await follow(page, `${first.domain}: ${first.gap_answers} gap answers citing it`);
    t.deepEqual(Object.fromEntries(gapUrl.searchParams), {
      ...Object.fromEntries(filters),
      gap: 'true',
      domain: first.domain,
      mentioned: who.competitorIds[0],
    });
    t.is(await answersOf(who, gapUrl.searchParams), first.gap_answers);
    // Its answers naming the brand: every such count opens exactly its answers, 0 included.
    await page.goBack();
    for (const d of globexGap.body.domains) {
      const brandUrl = await follow(page, `${d.domain}: ${d.brand_answers} answers naming you citing it`);
      t.deepEqual(Object.fromEntries(brandUrl.searchParams), {
        ...Object.fromEntries(filters),
        domain: d.domain,
        mentioned: 'brand',
      });
      t.is(await answersOf(who, brandUrl.searchParams), d.brand_answers, d.domain);
      await page.goBack();
    }
    t.true(globexGap.body.domains.some((d: any) => d.brand_answers > 0));
    // A gap domain's top page for that competitor: the gap answers naming it that cite the page.
    const page1 = first.top_urls[0];
    t.truthy(page1, 'the gap domain lists a page');
    const pageUrl = await follow(page, `${page1.gap_answers} gap answers citing ${page1.url}`);
    t.deepEqual(Object.fromEntries(pageUrl.searchParams), {
      ...Object.fromEntries(filters),
      gap: 'true',
      url: page1.url,
      mentioned: who.competitorIds[0],
    });
    t.is(await answersOf(who, pageUrl.searchParams), page1.gap_answers);
    await page.goBack();

    // A top domain: the answers citing it.
    const top = citations.body.top_domains[0];
    const url = await follow(page, `${top.domain}: answers citing it`);
    t.deepEqual(Object.fromEntries(url.searchParams), { ...Object.fromEntries(filters), domain: top.domain });
    t.is(await answersOf(who, url.searchParams), top.results_citing);
    // A top page's count: the answers citing that page, the explorer's total that count.
    await page.goBack();
    const topPage = citations.body.top_urls[0];
    const pageAnswers = await follow(page, `${topPage.results_citing} answers citing ${topPage.url}`);
    t.deepEqual(Object.fromEntries(pageAnswers.searchParams), { ...Object.fromEntries(filters), url: topPage.url });
    const total = page.locator('.answers-total[data-total]');
    await total.waitFor();
    t.is(await total.getAttribute('data-total'), String(topPage.results_citing));
    t.is(await answersOf(who, pageAnswers.searchParams), topPage.results_citing);
  },
);

browserTest('prompts: the API figures at the default range; a prompt opens its answers', async (t) => {
  const who = await seededPerson(server);
  const page = await signedIn(who, `/app/brands/${who.brandId}/prompts?sort_by=mentions&order=asc`);
  const perf = await api(
    who,
    `/prompt-performance?brand_id=${who.brandId}&date_from=${LAST_30.date_from}&date_to=${LAST_30.date_to}&sort_by=mentions&order=asc&limit=100`,
  );
  const rows = await cells(page, 'Prompt performance');
  t.deepEqual(
    rows.map((r) => r.slice(2)),
    perf.body.prompts.map((p: any) => [
      String(p.result_count),
      shown(p.ai_visibility_score),
      p.mention_rate === null ? '—' : `${p.mention_rate}%`,
      p.best_competitor?.name ?? 'None named',
      shown(p.best_competitor?.ai_visibility_score ?? null),
      p.best_competitor?.mention_rate == null ? '—' : `${p.best_competitor.mention_rate}%`,
      String(p.total_mentions),
      String(p.total_citations),
    ]),
  );
  t.is(rows.length, 3);
  const p = perf.body.prompts[0];
  const url = await follow(page, `${p.prompt_text}: its answers`);
  t.deepEqual(Object.fromEntries(url.searchParams), { ...LAST_30, prompt_id: p.prompt_id });
  t.is(await answersOf(who, url.searchParams), p.result_count);
});

browserTest('prompts: a sort orders by the values its column shows, not by an older average', async (t) => {
  const who = await seededPerson(server);
  // The third prompt gains answers naming Acme third (after Globex and Initech) and answers naming no
  // one: its mean per-answer score (avg_visibility) passes the second prompt's, its AI visibility
  // score (shown as Your score) stays below it.
  const line = (ago: number, text: string) => ({
    prompt_id: who.promptIds[2],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: `${day(today - ago * DAY_MS)}T20:00:00Z`,
    text,
    citations: [],
  });
  await ingestLines(server, [
    ...[1, 2, 3, 4].map((ago) => line(ago, 'Globex and Initech lead; Acme trails.')),
    ...[5, 6, 7, 8].map((ago) => line(ago, 'Fit matters most.')),
  ]);
  const q = `brand_id=${who.brandId}&date_from=${LAST_30.date_from}&date_to=${LAST_30.date_to}&limit=100`;
  const texts = async (sort: string, order = 'desc') =>
    (await api(who, `/prompt-performance?${q}&sort_by=${sort}&order=${order}`)).body.prompts.map(
      (p: any) => p.prompt_text,
    );
  // The older average orders them otherwise, so a sort by it fails the checks below.
  t.notDeepEqual(await texts('visibility'), await texts('ai_visibility_score'));

  const page = await signedIn(who, `/app/brands/${who.brandId}/prompts`);
  const sort = page.getByLabel('Sort by');
  t.is(await sort.locator('option:checked').textContent(), 'Your score');
  /** The rows once they are in this order of prompts. */
  const rowsIn = async (order: string[]) => {
    await page.waitForFunction(
      (want) =>
        JSON.stringify(
          [
            ...([...document.querySelectorAll('table')].find((x) => x.caption?.textContent === 'Prompt performance')
              ?.tBodies[0]?.rows ?? []),
          ].map((r) => r.cells[0].textContent?.trim()),
        ) === JSON.stringify(want),
      order,
    );
    return cells(page, 'Prompt performance');
  };
  const value = (cell: string) => Number(cell.replace('%', ''));
  const sorted = (values: number[], dir: 1 | -1) => values.every((v, i) => i === 0 || dir * (v - values[i - 1]) >= 0);
  // Your score, highest first, then lowest first: the scores as shown are in that order.
  const desc = await rowsIn(await texts('ai_visibility_score'));
  t.is(desc.length, 3);
  t.true(
    sorted(
      desc.map((r) => value(r[3])),
      -1,
    ),
    JSON.stringify(desc.map((r) => r[3])),
  );
  await page.getByLabel('Order').selectOption('asc');
  const asc = await rowsIn(await texts('ai_visibility_score', 'asc'));
  t.true(
    sorted(
      asc.map((r) => value(r[3])),
      1,
    ),
    JSON.stringify(asc.map((r) => r[3])),
  );
  // Your mention rate: the rates as shown.
  await sort.selectOption({ label: 'Your mention rate' });
  await page.waitForURL(/sort_by=mention_rate/);
  const rates = await rowsIn(await texts('mention_rate', 'asc'));
  t.true(
    sorted(
      rates.map((r) => value(r[4])),
      1,
    ),
    JSON.stringify(rates.map((r) => r[4])),
  );
  // Every choice is a column of the table, named as its header.
  const headers = await page.getByRole('table', { name: 'Prompt performance' }).locator('thead th').allTextContents();
  for (const label of await sort.locator('option').allTextContents()) t.true(headers.includes(label), label);
});

browserTest('each page: no serious or critical axe violation, and Tab reaches every control', async (t) => {
  const who = await seededPerson(server);
  const page = await signedIn(who);
  for (const name of ['competitors', 'citations', 'prompts', 'settings']) {
    await page.goto(`${server.url}/app/brands/${who.brandId}/${name}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForFunction(() => !document.body.textContent?.includes('Loading…'));
    t.deepEqual(await seriousViolations(page), [], name);
    const { controls, missed } = await missedByTab(page);
    t.deepEqual(missed, [], `not reached by Tab on ${name}`);
    t.true(controls.length > 10, name);
  }
});
