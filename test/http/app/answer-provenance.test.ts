// The answers explorer says where each answer comes from (provenance: docs/metrics.md): an answer
// captured by Answerscope names its adapter, one from an answer file says so, both with the
// model and the analysis version the API gives.
// test-process: shared
import { randomUUID } from 'node:crypto';
import test from 'ava';
import pino from 'pino';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { trackPrompts } from '../../../jobs/track-prompts.ts';
import { IngestCache, ingestBatch } from '../../../src/tracking/ingest/batch.ts';
import { validateAnswer } from '../../../src/tracking/ingest/answer-schema.ts';
import { HAVE_CHROMIUM, launch, person, seriousViolations, signIn, type Person } from './helpers.ts';

// Without Chromium these are reported as skipped, never as passed (README, Quick start).
const browserTest = HAVE_CHROMIUM ? test : test.skip;

let server: TestServer;
let who: Person;
const DAY = '2026-11-02';

test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  who = await person(server);
  const ctx = {
    stores: server.stores,
    config: { ...server.config, tracking: { ...server.config.tracking, engine: 'simulated' as const } },
    log: pino({ level: 'silent' }),
    now: () => new Date(`${DAY}T06:00:00Z`),
  };
  await trackPrompts.run(ctx, { brandId: who.brandId, date: DAY });
  const line = validateAnswer({
    id: randomUUID(),
    prompt_id: who.promptIds[0],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: `${DAY}T23:00:00.000Z`,
    text: 'Acme is a CRM for startups.',
    citations: [],
  });
  if (!line.ok) throw new Error(line.error);
  await ingestBatch(server.stores, new IngestCache(server.stores), [line.answer]);
});
test.after.always(async () => {
  await server?.stop();
});

browserTest('each answer card on the explorer says where the answer comes from', async (t) => {
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await signIn(page, server, who);
    await page.goto(`${server.url}/app/brands/${who.brandId}/answers?date_from=${DAY}&date_to=${DAY}`);
    await page.locator('article[data-answer-id]').first().waitFor();
    const lines = await page.locator('.answer-provenance').allTextContents();
    t.true(lines.length >= 2);
    t.is(lines[0], 'Imported from an answer file · model gpt-4o · analysis gen-0');
    t.true(
      lines.slice(1).every((l) => /^Captured by simulated\/1 · model \S+ · analysis gen-0$/.test(l)),
      lines.join('\n'),
    );
    t.deepEqual(await seriousViolations(page), []);
    if (process.env.SCREENSHOTS) await page.screenshot({ path: process.env.SCREENSHOTS, fullPage: false });
  } finally {
    await browser.close();
  }
});
