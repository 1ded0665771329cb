// Ingestion through the real command line (reaching the running server's stores): idempotent by
// answer id before and after merges, replacements exact, bad lines named by number.
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { seedTenant, startTestServer, uniq, type Tenant, type TestServer } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

function writeLines(lines: (object | string)[]): string {
  const file = path.join(server.dataDir, `${uniq('answers')}.jsonl`);
  fs.writeFileSync(file, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  return file;
}

/** Net stored rows of the brand, per table, and the brand's summed figures. */
async function stored(brandId: string) {
  const q = (sql: string) => server.stores.ch.system<any>(sql, { b: brandId }).then((r) => r[0]);
  return {
    answers: (await q('SELECT sum(sign) AS n FROM answers WHERE brand_id = {b:UUID}')).n,
    entities: await q(
      'SELECT sum(sign) AS n, sum(mentions * sign) AS mentions, sum(citations * sign) AS citations FROM answer_entities WHERE brand_id = {b:UUID}',
    ),
    citations: (await q('SELECT sum(sign) AS n FROM answer_citations WHERE brand_id = {b:UUID}')).n,
    cards: (await q('SELECT sum(sign) AS n FROM shopping_cards WHERE brand_id = {b:UUID}')).n,
  };
}

function answersFor(t: Tenant) {
  const [prompt] = t.promptIds;
  return [
    {
      prompt_id: prompt,
      platform: 'chatgpt',
      model: 'gpt-4o',
      region: 'US',
      mode: 'standard',
      collected_at: '2026-11-01T06:00:00Z',
      text: 'Acme is great. Globex too. [Acme](https://acme.example/x) again.',
      citations: [
        { url: 'https://acme.example/pricing', title: 'Pricing' },
        { url: 'https://www.globex.example/', title: 'Globex' },
        { url: 'https://acme.example/pricing?utm_source=x' },
      ],
    },
    {
      prompt_id: prompt,
      platform: 'perplexity',
      model: 'sonar',
      region: 'US',
      collected_at: '2026-11-01T07:00:00Z',
      text: 'Globex leads; Acme Inc follows.',
      citations: [],
    },
    {
      id: '5d0c1f3e-0000-4000-8000-000000000001',
      prompt_id: prompt,
      platform: 'chatgpt',
      model: 'gpt-4o',
      region: 'US',
      mode: 'shopping',
      collected_at: '2026-11-02T06:00:00Z',
      text: 'Products',
      citations: [],
      products: [
        {
          position: 1,
          title: 'Acme CRM Pro',
          brand: 'Acme',
          price: '$1,299.99',
          merchant_url: 'https://shop.example/p/1',
        },
        { position: 2, title: 'Globex Suite', brand: 'Globex', price: 49, currency: 'EUR' },
      ],
    },
  ];
}

test('a file ingested twice stores everything once, and merges change nothing', async (t) => {
  const tenant = await seedTenant(server);
  const file = writeLines(answersFor(tenant));
  const first = await cli(['ingest', file], server.env);
  t.is(first.code, 0, first.stderr);
  t.deepEqual(first.json, { read: 3, inserted: 3, replaced: 0, rejected: [] });
  const before = await stored(tenant.brandId);
  // Mentions: answer 1 names Acme twice (text and link label, not the link target) and Globex once;
  // answer 2 names Globex and "Acme Inc" (the alias, one mention). Citations: the two acme.example
  // URLs are one after normalisation, plus globex.example: Acme 1, Globex 1.
  t.deepEqual(before, { answers: 3, entities: { n: 4, mentions: 5, citations: 2 }, citations: 2, cards: 2 });

  const second = await cli(['ingest', file], server.env);
  t.deepEqual(second.json, { read: 3, inserted: 0, replaced: 3, rejected: [] });
  t.deepEqual(await stored(tenant.brandId), before);

  for (const table of ['answers', 'answer_entities', 'answer_citations', 'shopping_cards']) {
    await server.stores.ch.command({ query: `OPTIMIZE TABLE ${table} FINAL` });
  }
  t.deepEqual(await stored(tenant.brandId), before);
});

test('re-importing an id with new content replaces the old rows exactly, even across days', async (t) => {
  const tenant = await seedTenant(server);
  const id = '5d0c1f3e-0000-4000-8000-00000000a001';
  const base = { id, prompt_id: tenant.promptIds[0], platform: 'claude', model: 'claude-sonnet-4', region: 'US' };
  await cli(
    [
      'ingest',
      writeLines([
        {
          ...base,
          collected_at: '2026-11-03T06:00:00Z',
          text: 'Acme, Acme and Globex.',
          citations: [{ url: 'https://acme.example/a' }, { url: 'https://news.example/b' }],
        },
      ]),
    ],
    server.env,
  );
  t.deepEqual((await stored(tenant.brandId)).entities, { n: 2, mentions: 3, citations: 1 });

  const r = await cli(
    [
      'ingest',
      writeLines([{ ...base, collected_at: '2026-11-05T09:00:00Z', text: 'Only Globex here.', citations: [] }]),
    ],
    server.env,
  );
  t.deepEqual(r.json, { read: 1, inserted: 0, replaced: 1, rejected: [] });
  const after = await stored(tenant.brandId);
  t.deepEqual(after, { answers: 1, entities: { n: 2, mentions: 1, citations: 0 }, citations: 0, cards: 0 });
  const days = await server.stores.ch.system<{ day: string }>(
    'SELECT day FROM answers WHERE brand_id = {b:UUID} GROUP BY day HAVING sum(sign) > 0',
    { b: tenant.brandId },
  );
  t.deepEqual(days, [{ day: '2026-11-05' }]);
});

test('the same id twice in one file: the last line wins and counts as a replacement', async (t) => {
  const tenant = await seedTenant(server);
  const a = {
    id: '5d0c1f3e-0000-4000-8000-00000000b001',
    prompt_id: tenant.promptIds[0],
    platform: 'gemini',
    model: 'gemini-2.5-flash',
    region: 'US',
    collected_at: '2026-11-03T06:00:00Z',
    citations: [],
  };
  const r = await cli(
    [
      'ingest',
      writeLines([
        { ...a, text: 'Acme' },
        { ...a, text: 'Acme and Acme' },
      ]),
    ],
    server.env,
  );
  t.deepEqual(r.json, { read: 2, inserted: 1, replaced: 1, rejected: [] });
  // Globex is neither named nor cited: only the brand's row is stored.
  t.deepEqual((await stored(tenant.brandId)).entities, { n: 1, mentions: 2, citations: 0 });
});

test('bad lines are rejected with their numbers and reasons; good lines are imported', async (t) => {
  const tenant = await seedTenant(server);
  const good = {
    prompt_id: tenant.promptIds[0],
    platform: 'chatgpt',
    model: 'gpt-5',
    region: 'GB',
    collected_at: '2026-11-04T06:00:00+01:00',
    text: 'Acme',
    citations: [],
  };
  const file = writeLines([
    good,
    '{"prompt_id": ',
    { ...good, prompt_id: '00000000-0000-4000-8000-000000000000' },
    { ...good, platform: 'altavista' },
    { ...good, collected_at: '2026-13-45T00:00:00Z' },
    { ...good, collected_at: 'yesterday' },
    '',
    { ...good, collected_at: '2026-11-04T08:00:00Z', text: 'Globex' },
    { ...good, text: undefined },
  ]);
  const r = await cli(['ingest', file], server.env);
  t.is(r.code, 0, r.stderr);
  t.is(r.json.read, 8);
  t.is(r.json.inserted, 2);
  t.is(r.json.replaced, 0);
  t.deepEqual(
    r.json.rejected.map((x: any) => x.line),
    [2, 3, 4, 5, 6, 9],
  );
  t.regex(r.json.rejected[0].error, /^not valid JSON/);
  t.is(r.json.rejected[1].error, 'prompt_id: unknown prompt 00000000-0000-4000-8000-000000000000');
  t.regex(r.json.rejected[2].error, /^platform: must be one of: chatgpt, perplexity/);
  t.is(r.json.rejected[3].error, 'collected_at: is not a valid date');
  t.is(r.json.rejected[4].error, 'collected_at: must be an ISO 8601 timestamp with a time zone');
  t.is(r.json.rejected[5].error, 'text: is required');
  t.is((await stored(tenant.brandId)).answers, 2);
});

test("an answer lands on its prompt's brand and no other", async (t) => {
  const a = await seedTenant(server);
  const b = await seedTenant(server);
  const r = await cli(
    [
      'ingest',
      writeLines([
        {
          prompt_id: b.promptIds[0],
          platform: 'chatgpt',
          model: 'gpt-4o',
          region: 'US',
          collected_at: '2026-11-04T06:00:00Z',
          text: 'Globex',
          citations: [],
        },
      ]),
    ],
    server.env,
  );
  t.is(r.json.inserted, 1);
  t.is((await stored(a.brandId)).answers, 0);
  t.is((await stored(b.brandId)).answers, 1);
});
