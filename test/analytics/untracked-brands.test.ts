// untracked-brands against the running service: names opening list items, bold names and shopping
// cards' brands, counted per answer; every form of the brand and its competitors left out (aliases,
// case, a product line starting with one); the 3-answer threshold, order, first_seen and platforms
// from the answers as listed; the filters; the surfaces alike; another organization's brand.
// test-process: shared
import test from 'ava';
import {
  call,
  get,
  ingestLines,
  seedTenant,
  startTestServer,
  type Tenant,
  type TestServer,
} from '../helpers/server.ts';
import { connect } from '../mcp/client.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
});
test.after.always(async () => {
  await server?.stop();
});

const BRAND = {
  name: 'Trailpeak',
  slug: 'trailpeak',
  domains: ['trailpeak.example'],
  aliases: ['Trail Peak'],
  competitors: [{ name: 'Northfork', aliases: ['North Fork Gear'], domains: ['northfork.example'] }],
  topics: [{ name: 'Packs', prompts: [{ text: 'best hiking pack' }, { text: 'light pack' }] }],
};

const TEXTS = [
  // Osprey (list item, bold), Gregory (list item), Trailpeak and North Fork Gear: tracked.
  '1. **Osprey** - the classic.\n2. Gregory Packs: roomy.\n3. Trailpeak Summit 40 is fine.\n4. North Fork Gear.',
  // Osprey bold in prose; a bulleted Gregory Packs; a lower-case bullet is no name.
  'Many like **Osprey** for fit.\n- Gregory Packs\n- cheap options abound',
  // Deuter twice in one answer counts once; TRAIL PEAK is the brand in capitals.
  '* Deuter\n* **Deuter**\n* TRAIL PEAK',
];

let minute = 0;
async function seeded(): Promise<Tenant> {
  const x = await seedTenant(server, [BRAND]);
  const line = (day: string, platform: string, text: string, more: object = {}) => ({
    prompt_id: x.promptIds[minute % 2],
    platform,
    model: platform === 'chatgpt' ? 'gpt-4o' : 'sonar',
    region: 'US',
    collected_at: `2026-07-${day}T10:${String(minute++ % 60).padStart(2, '0')}:00Z`,
    text,
    citations: [],
    ...more,
  });
  await ingestLines(server, [
    line('01', 'chatgpt', TEXTS[0]),
    line('02', 'perplexity', TEXTS[0]),
    line('03', 'chatgpt', TEXTS[1]),
    line('04', 'chatgpt', TEXTS[2]),
    line('05', 'perplexity', TEXTS[2]),
    // Deuter's third answer is a shopping card; Northfork's card is tracked.
    line('06', 'chatgpt', 'Packs to buy.', {
      mode: 'shopping',
      products: [
        { position: 1, title: 'Deuter Aircontact', brand: 'Deuter', price: '$199' },
        { position: 2, title: 'Northfork 50', brand: 'Northfork', price: '$149' },
      ],
    }),
  ]);
  return x;
}

async function untracked(x: Tenant, query = '', surface = 'mcp') {
  const r = await get(server, `/api/${surface}/untracked-brands?brand_id=${x.brandId}${query}`, x.key);
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

test('names from list items, bold and shopping cards, tracked forms left out, 3 answers or more', async (t) => {
  const x = await seeded();
  const all = await untracked(x);
  t.deepEqual(all.analysis_versions, ['gen-0']);
  t.deepEqual(all.brands, [
    { name: 'Deuter', answers: 3, first_seen: '2026-07-04', platforms: ['chatgpt', 'perplexity'] },
    { name: 'Gregory Packs', answers: 3, first_seen: '2026-07-01', platforms: ['chatgpt', 'perplexity'] },
    { name: 'Osprey', answers: 3, first_seen: '2026-07-01', platforms: ['chatgpt', 'perplexity'] },
  ]);
  // The range counts: from the 2nd, Osprey and Gregory are in 2 answers, under the threshold.
  t.deepEqual(
    (await untracked(x, '&date_from=2026-07-02')).brands.map((b: any) => [b.name, b.answers]),
    [['Deuter', 3]],
  );
  t.deepEqual((await untracked(x, '&model=gpt-4o')).brands, []);
});

/** list_answers' total for these filters. */
async function total(x: Tenant, query: string, surface = 'mcp'): Promise<number> {
  const r = await get(server, `/api/${surface}/answers?brand_id=${x.brandId}${query}`, x.key);
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body.total;
}

test("untracked=<name> lists exactly the answers a name's count counts; the words search lists others", async (t) => {
  const x = await seeded();
  // Osprey and Deuter in prose: the words find this answer, the names' counts do not count it.
  await ingestLines(server, [
    {
      prompt_id: x.promptIds[0],
      platform: 'chatgpt',
      model: 'gpt-4o',
      region: 'US',
      collected_at: '2026-07-07T10:00:00Z',
      text: 'Some swear by Osprey, others by Deuter.',
      citations: [],
    },
  ]);
  const listed = (await untracked(x)).brands;
  t.deepEqual(
    listed.map((b: any) => [b.name, b.answers]),
    [
      ['Deuter', 3],
      ['Gregory Packs', 3],
      ['Osprey', 3],
    ],
  );
  for (const b of listed) {
    const name = encodeURIComponent(b.name);
    t.is(await total(x, `&untracked=${name}`), b.answers, b.name);
    t.is(await total(x, `&untracked=${name}`, 'v1'), b.answers, b.name);
  }
  // The words search lists the prose answer too (Osprey), and misses Deuter's shopping card.
  t.is(await total(x, '&q=Osprey'), 4);
  t.is(await total(x, '&q=Deuter'), 3);
  const deuter = await get(server, `/api/mcp/answers?brand_id=${x.brandId}&untracked=Deuter`, x.key);
  t.deepEqual(deuter.body.answers.map((a: any) => a.mode).sort(), ['shopping', 'standard', 'standard']);
  // The other filters narrow it as they narrow the count.
  t.is(await total(x, '&untracked=Deuter&mode=standard'), 2);
  const later = (await untracked(x, '&date_from=2026-07-02')).brands;
  t.deepEqual(
    later.map((b: any) => [b.name, b.answers]),
    [['Deuter', 3]],
  );
  t.is(await total(x, '&untracked=Deuter&date_from=2026-07-02'), 3);
  t.is(await total(x, '&untracked=Osprey&date_from=2026-07-02'), 2);
  // A tracked form, or a product line of one, is counted nowhere: no answers.
  t.is(await total(x, `&untracked=${encodeURIComponent('Trailpeak Summit 40')}`), 0);
  t.is(await total(x, `&untracked=${encodeURIComponent('North Fork Gear')}`), 0);
  // The name as listed, not a search: another case is another name.
  t.is(await total(x, '&untracked=osprey'), 0);
  const mcp = await connect(server, x.key);
  try {
    const res: any = await mcp.callTool({
      name: 'list_answers',
      arguments: { brand_id: x.brandId, untracked: 'Gregory Packs' },
    });
    t.falsy(res.isError, JSON.stringify(res.content));
    t.is(res.structuredContent.total, 3);
  } finally {
    await mcp.close();
  }
});

test('a name tracked later leaves the list; the surfaces answer alike; another brand is 404', async (t) => {
  const x = await seeded();
  const r = await call(server, 'POST', '/api/mcp/competitors', {
    key: x.key,
    body: { brand_id: x.brandId, name: 'Osprey' },
  });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.true(r.body.reanalysis_queued);
  const after = await untracked(x);
  t.deepEqual(
    after.brands.map((b: any) => b.name),
    ['Deuter', 'Gregory Packs'],
  );
  t.deepEqual(await untracked(x, '', 'v1'), after);
  const mcp = await connect(server, x.key);
  try {
    const res: any = await mcp.callTool({ name: 'get_untracked_brands', arguments: { brand_id: x.brandId } });
    t.falsy(res.isError, JSON.stringify(res.content));
    t.deepEqual(res.structuredContent, after);
  } finally {
    await mcp.close();
  }
  const other = await seedTenant(server, [{ ...BRAND, slug: 'other' }]);
  const foreign = await get(server, `/api/mcp/untracked-brands?brand_id=${other.brandId}`, x.key);
  t.is(foreign.status, 404);
});

test("a new brand's set-up suggests as competitors the brands its answers of the last 30 days name most", async (t) => {
  const x = await seedTenant(server, [{ ...BRAND, slug: 'trailpeak-setup' }]);
  const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
  const lines = [1, 2, 3, 40, 41, 42].map((ago, i) => ({
    prompt_id: x.promptIds[i % 2],
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: `${day(ago)}T09:${String(i).padStart(2, '0')}:00Z`,
    // Osprey is named in three recent answers; Deuter only in three older ones.
    text: ago < 30 ? '1. **Osprey** - fits well.\n2. Northfork' : '- Deuter\n- Trailpeak',
    citations: [],
  }));
  await ingestLines(server, lines);
  const r = await get(server, `/api/mcp/setup-suggestions?brand_id=${x.brandId}`, x.key);
  t.is(r.status, 200);
  const fromAnswers = r.body.competitors.filter((c: any) => c.source === 'answers').map((c: any) => c.name);
  t.deepEqual(fromAnswers, ['Osprey']);
});
