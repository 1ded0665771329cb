// Settings > Import (docs/app.md): another tracker's CSV uploaded with its name and column mapping
// in Chromium; the page shows what was imported, the lines refused with their number and reason,
// and the agreement report worked by hand (the same file as test/cli/import-tracker.test.ts). A
// mapped column the file lacks is said beside its field, and nothing is stored. The filter bar's
// Source select shows once the brand has imported answers, and counts the tracker's answers alone.
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { get, startTestServer, type TestServer } from '../../helpers/server.ts';
import { importTracker } from '../../../src/tracking/ingest/tracker-import.ts';
import { brandInOrganization } from '../../../src/tenancy/brands.ts';
import { HAVE_CHROMIUM, launch, person, seriousViolations, signIn, type Person } from './helpers.ts';

// Without Chromium these are reported as skipped, never as passed (README, Quick start).
const browserTest = HAVE_CHROMIUM ? test : test.skip;

let server: TestServer;
let who: Person;
let file: string;

// Lines 2-5 are read, 6 has a reading that is not yes/no, 7 a prompt the brand does not track.
//   2: tool yes, 1, no / Answerscope yes, 1, no     3: yes, 1, no / yes, 2, no (position differs)
//   4: tool yes, -, no / Answerscope no, -, no (mentioned differs)     5: no, -, no / no, -, no
const CSV = `Answer,Engine,Day,Query,Brand mentioned,Rank,Cited
"Acme is the CRM most startups pick.",ChatGPT,2026-11-02,Best CRM for startups,Yes,1,No
Globex leads the market; Acme follows closely.,perplexity,2026-11-02T08:00:00Z,best crm for startups,true,1,0
Globex is the one to buy.,Google AI Overviews,2026-11-03,best crm for startups,1,,false
Spreadsheets are enough for most.,chatgpt,2026-11-03,best crm for startups,no,,no
Acme again.,chatgpt,2026-11-04,best crm for startups,maybe,,no
Acme elsewhere.,chatgpt,2026-11-04,best crm for enterprises,yes,1,no
`;
const MAP: Record<string, string> = {
  'Answer text': 'Answer',
  Platform: 'Engine',
  Date: 'Day',
  Prompt: 'Query',
  Mentioned: 'Brand mentioned',
  Position: 'Rank',
  Cited: 'Cited',
};

test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  who = await person(server);
  file = path.join(fs.mkdtempSync(path.join(server.dataDir, 'upload-')), 'other.csv');
  fs.writeFileSync(file, CSV);
});
test.after.always(async () => {
  await server?.stop();
});

/** The brand's own readings from `source`: another test may import under the same name for its brand. */
const readings = async (source: string) =>
  (
    await server.stores.pg.query(
      'SELECT count(*)::int AS n FROM tracker_readings WHERE brand_id = $1 AND source = $2',
      [who.brandId, source],
    )
  ).rows[0].n;

/** A table's body cells by row, as text. */
const cells = (page: import('playwright-core').Page, caption: RegExp) =>
  page
    .locator('table', { has: page.locator('caption', { hasText: caption }) })
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td, th')].map((c) => c.textContent?.trim())));

browserTest('an upload shows the import, the refused lines and the agreement; a missing column is named', async (t) => {
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await signIn(page, server, who, '/app/settings/import');
    await page.getByRole('heading', { name: 'Import', level: 1 }).waitFor();
    await page.getByLabel("Tool's name").fill('othertool');
    await page.getByLabel(/^File/).setInputFiles(file);
    for (const [label, column] of Object.entries(MAP)) await page.getByLabel(label, { exact: true }).fill(column);

    // A mapped column the file lacks: said beside the field, nothing stored.
    await page.getByLabel('Sentiment', { exact: true }).fill('Tone');
    await page.getByRole('button', { name: 'Import' }).click();
    const beside = page.locator('#import-map-sentiment-error');
    await beside.waitFor();
    t.is(await beside.textContent(), 'The file has no column "Tone" (field sentiment); nothing was imported');
    t.is(await page.getByLabel('Sentiment', { exact: true }).getAttribute('aria-invalid'), 'true');
    t.is(await readings('othertool'), 0);

    await page.getByLabel('Sentiment', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByText('4 of 6 lines imported from othertool; 2 refused.').waitFor();
    t.is(await readings('othertool'), 4);
    t.deepEqual(await cells(page, /^Lines refused/), [
      ['6', 'mentioned must be true/false, yes/no or 1/0, got "maybe"'],
      ['7', `prompt "best crm for enterprises" is not one of the brand's prompts`],
    ]);
    // Mentioned: tool yes on 3 of 4, Answerscope on 2, alike on 3; kappa (0.75 - 0.5) / (1 - 0.5).
    // Positions both gave: (1, 1) and (1, 2): means 1 and 1.5, difference 0.5. Cited: all no, no kappa.
    // (A column of numbers shows one count of decimals: 1.5 makes Answerscope's 50% read 50.0%.)
    t.deepEqual(await cells(page, /^Readings of 4 answers/), [
      ['Mentioned (yes)', '4', '75%', '50.0%', '75%', '0.5', '–'],
      ['Position (mean)', '2', '1', '1.5', '–', '–', '0.5'],
      ['Sentiment (positive)', '0', '–', '–', '–', '–', '–'],
      ['Cited (yes)', '4', '0%', '0.0%', '100%', '–', '–'],
    ]);
    t.deepEqual(await cells(page, /^Answers read differently \(2\)/), [
      [
        '3',
        '2026-11-02',
        'perplexity',
        'position',
        'mentioned yes, position 1, sentiment –, cited no',
        'mentioned yes, position 2, sentiment neutral, cited no',
      ],
      [
        '4',
        '2026-11-03',
        'google_ai_overviews',
        'mentioned',
        'mentioned yes, position –, sentiment –, cited no',
        'mentioned no, position –, sentiment –, cited no',
      ],
    ]);
    t.deepEqual(await seriousViolations(page), []);
  } finally {
    await browser.close();
  }
});

// Columns named as the fields: no mapping. Three answers of the brand's prompt, all in November.
const RIVAL = `text,platform,date,prompt
Acme is the CRM most startups pick.,chatgpt,2026-11-02,best crm for startups
Globex leads; Acme follows.,perplexity,2026-11-03,best crm for startups
Spreadsheets are enough.,chatgpt,2026-11-04,best crm for startups
`;

browserTest(
  "the filter bar's Source shows only with an import; choosing it counts the tracker's answers",
  async (t) => {
    // A person of their own and another tool's name: the test above counts othertool's readings.
    const mine = await person(server);
    const browser = await launch();
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const dates = 'date_from=2026-11-01&date_to=2026-11-27';
      const overview = `/app/brands/${mine.brandId}?${dates}`;
      // The brand's sources answered (an empty list) and the page drawn: then no select is to come.
      const sources = page.waitForResponse((r) => r.url().includes('/app/api/op/import-sources?'));
      await signIn(page, server, mine, overview);
      t.deepEqual(await (await sources).json(), []);
      await page.locator('#main[data-ready="true"]').waitFor();
      t.is(await page.locator('#filter-source').count(), 0, 'no import, no Source select');

      const brand = await brandInOrganization(server.stores.pg, mine.organizationId, mine.brandId);
      const imported = await importTracker(server.stores, {
        body: RIVAL,
        fileName: 'rival.csv',
        brand,
        format: 'rivaltool',
        map: {},
      });
      t.is(imported.imported, 3);
      const summary = await get(
        server,
        `/api/mcp/visibility-summary?brand_id=${mine.brandId}&${dates}&source=rivaltool`,
        mine.key,
      );
      t.is(summary.status, 200);
      const expected: number = summary.body.totals.resultCount;
      t.is(expected, 3);

      await page.goto(`${server.url}${overview}`);
      const select = page.getByLabel('Source', { exact: true });
      await select.waitFor();
      t.deepEqual(await select.locator('option').allTextContents(), ['Answerscope', 'rivaltool (3 answers)']);
      t.is(await select.inputValue(), '');
      await select.selectOption('rivaltool');
      await page.waitForURL((u) => u.searchParams.get('source') === 'rivaltool');
      // The score card counts the tracker's answers, and links to them with the source.
      const counted = page
        .getByRole('region', { name: 'AI visibility score', exact: true })
        .locator(`.counted a[data-count="${expected}"]`);
      await counted.waitFor();
      t.is(await counted.textContent(), `${expected} answers`);
      t.is(new URL((await counted.getAttribute('href'))!, server.url).searchParams.get('source'), 'rivaltool');

      // Reset filters takes it away with the others: Answerscope's own answers again.
      await page.getByRole('button', { name: 'Reset filters' }).click();
      await page.waitForURL((u) => !u.searchParams.has('source'));
      t.is(await select.inputValue(), '');
    } finally {
      await browser.close();
    }
  },
);
