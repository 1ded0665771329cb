// The daily digest carries how the day's answers spoke of the brand: the sentiment endpoint's brand
// row for the day, the day before's net sentiment and the change between them.
// test-process: shared
import test from 'ava';
import { get, ingestLines, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { buildDigest } from '../../jobs/digest.ts';

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

/** One answer per text on `date`, an hour apart. */
async function answers(x: Tenant, date: string, texts: string[]) {
  const lines = texts.map((text, i) => ({
    prompt_id: x.promptIds[0],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: `${date}T${String(i + 8).padStart(2, '0')}:00:00Z`,
    text,
    citations: [],
  }));
  await ingestLines(server, lines);
}

async function digestOf(x: Tenant, date: string) {
  const { rows } = await server.stores.pg.query<{ analysis_generation: number }>(
    'SELECT analysis_generation FROM brands WHERE id = $1',
    [x.brandId],
  );
  return buildDigest(
    server.stores,
    { id: x.brandId, name: 'Acme', organization_id: x.organizationId, ...rows[0] },
    date,
  );
}

const brandRow = async (x: Tenant, date: string) => {
  const r = await get(server, `/api/mcp/sentiment?brand_id=${x.brandId}&date_from=${date}&date_to=${date}`, x.key);
  const { entity_id, name, is_brand, ...counts } = r.body.entities[0];
  return counts;
};

test("the digest's sentiment is the endpoint's brand row of the day, with the change since the day before", async (t) => {
  const x = await tenant();
  await answers(x, '2026-10-01', ['Acme is excellent and reliable.', 'Acme is a great choice.', 'Nobody here.']);
  await answers(x, '2026-10-02', [
    'Acme is excellent and reliable.',
    'Avoid Acme: it is buggy and overpriced.',
    'Acme is terrible, with awful support.',
    'Acme exists.',
  ]);
  const digest = await digestOf(x, '2026-10-02');
  const today = await brandRow(x, '2026-10-02');
  const before = await brandRow(x, '2026-10-01');
  t.is(today.assessed, 4);
  t.true(today.negative >= 2, JSON.stringify(today));
  t.true(before.net_sentiment > today.net_sentiment, JSON.stringify([before, today]));
  t.deepEqual(digest.sentiment, {
    ...today,
    previous_net_sentiment: before.net_sentiment,
    change: Math.round((today.net_sentiment - before.net_sentiment) * 10) / 10,
  });
});

test('a day that named the brand nowhere has no net sentiment, and no change', async (t) => {
  const x = await tenant();
  await answers(x, '2026-10-05', ['Acme is excellent.']);
  await answers(x, '2026-10-06', ['Globex only.']);
  const digest = await digestOf(x, '2026-10-06');
  t.deepEqual(digest.sentiment, {
    assessed: 0,
    positive: 0,
    neutral: 0,
    negative: 0,
    net_sentiment: null,
    previous_net_sentiment: 100,
    change: null,
  });
});
