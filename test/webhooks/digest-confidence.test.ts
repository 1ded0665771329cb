// The daily digest says whether each movement it reports is inside the day's 95% interval: its
// intervals are visibility-confidence's for that day, and a move far beyond them is called so.
// test-process: shared
import test from 'ava';
import { get, ingestLines, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { buildDigest, scoreStatement, withinInterval } from '../../jobs/digest.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

async function tenant(): Promise<Tenant> {
  return seedTenant(server, [
    {
      name: 'Acme',
      slug: 'acme',
      domains: ['acme.example'],
      competitors: [{ name: 'Globex', domains: ['globex.example'] }],
      topics: [{ name: 'CRM', prompts: [{ text: 'best crm' }] }],
    },
  ]);
}

/** Ten answers on `day`, the first `named` of them naming Acme first (and Globex in `globex` of them). */
async function day(x: Tenant, date: string, named: number, globex = 0) {
  const lines = Array.from({ length: 10 }, (_, i) => ({
    prompt_id: x.promptIds[0],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: `${date}T${String(i + 8).padStart(2, '0')}:00:00Z`,
    text: [i < named ? 'Acme' : 'Nobody', i < globex ? 'Globex' : ''].join(' '),
    citations: [],
  }));
  await ingestLines(server, lines);
}

async function digestOf(x: Tenant, date: string) {
  const { rows } = await server.stores.pg.query<{ analysis_generation: number }>(
    'SELECT analysis_generation FROM brands WHERE id = $1',
    [x.brandId],
  );
  const brand = { id: x.brandId, name: 'Acme', organization_id: x.organizationId, ...rows[0] };
  return buildDigest(server.stores, brand, date);
}

const confidenceOn = async (x: Tenant, date: string) =>
  (await get(server, `/api/mcp/visibility-confidence?brand_id=${x.brandId}&date_from=${date}&date_to=${date}`, x.key))
    .body;

test("a small move is within the day's interval: may be noise", async (t) => {
  const x = await tenant();
  await day(x, '2026-06-01', 5, 2);
  await day(x, '2026-06-02', 6, 4);
  const digest = await digestOf(x, '2026-06-02');
  const api = await confidenceOn(x, '2026-06-02');
  const brand = api.entities[0];
  // 6 of 10 named, always first: 100 x (0.6 x 0.6 + 0.15) = 51; the day before 45.
  t.deepEqual(digest.confidence.ai_visibility_score, {
    value: 51,
    ci95: brand.ai_visibility_score.ci95,
    previous: 45,
    within_interval: true,
  });
  t.is(digest.confidence.n, 10);
  t.is(digest.confidence.samples_per_slot, api.samples_per_slot);
  const [lo, hi] = brand.ai_visibility_score.ci95.map((x: number) => x.toFixed(1));
  t.is(
    digest.confidence.statement,
    `AI visibility score 51.0, up 6.0 from 45.0: within the 95% interval (${lo}-${hi}), may be noise.`,
  );
  // The competitor mover carries its own interval from the same read.
  const [globex] = digest.top_movers.competitors;
  t.is(globex.name, 'Globex');
  t.deepEqual(globex.ci95, api.entities[1].ai_visibility_score.ci95);
  t.is(globex.within_interval, withinInterval(globex.ci95, globex.previous_ai_visibility_score));
  // The figures the digest already carried are unchanged.
  t.is(digest.summary.totals.aiVisibilityScore, 51);
  t.is(digest.change.aiVisibilityScore, 6);
});

test("a large move is outside the day's interval", async (t) => {
  const x = await tenant();
  await day(x, '2026-06-01', 10, 0);
  await day(x, '2026-06-02', 1, 10);
  const digest = await digestOf(x, '2026-06-02');
  const score = digest.confidence.ai_visibility_score;
  // 1 of 10 named (first): 100 x (0.06 + 0.15) = 21; the day before 75.
  t.is(score.value, 21);
  t.is(score.previous, 75);
  t.false(score.within_interval);
  t.regex(digest.confidence.statement, /^AI visibility score 21\.0, down 54\.0 from 75\.0: outside the 95% interval/);
  // Globex went from 0 (never named) to 74.3 (named in all ten, second once): far outside.
  const [globex] = digest.top_movers.competitors;
  t.is(globex.previous_ai_visibility_score, 0);
  t.false(globex.within_interval);
});

test('no answers the day before, or none on the day: nothing to call noise', async (t) => {
  const x = await tenant();
  await day(x, '2026-06-02', 3);
  const first = await digestOf(x, '2026-06-02');
  t.is(first.confidence.ai_visibility_score.previous, null);
  t.is(first.confidence.ai_visibility_score.within_interval, null);
  t.regex(first.confidence.statement, /no answers the day before to compare with\.$/);
  const empty = await digestOf(x, '2026-06-03');
  t.deepEqual(empty.confidence.ai_visibility_score, { value: null, ci95: null, previous: 33, within_interval: null });
  t.is(empty.confidence.statement, 'No answers on this day: no AI visibility score to compare.');
});

test('the statement and the inside test at their edges', (t) => {
  t.true(withinInterval([40, 50], 40));
  t.true(withinInterval([40, 50], 50));
  t.false(withinInterval([40, 50], 50.1));
  t.is(withinInterval(null, 3), null);
  t.is(withinInterval([1, 2], null), null);
  t.is(
    scoreStatement(12.5, [3, 30.25], 12.5),
    'AI visibility score 12.5, unchanged from the day before: within the 95% interval (3.0-30.3), may be noise.',
  );
});
