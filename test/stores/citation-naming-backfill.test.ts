// 021_citation_naming.sql on a warehouse that already holds answers: every stored citation row gets
// whom its answer names in its generation (the entity rows named with a net positive sign: a
// replaced version's rows cancel), exactly once even when the file is applied a second time (as
// after a failure half-way), and the views fed by or feeding answer_citations work after it.
import test from 'ava';
import { applyMigration, migrationsBefore, scratchClickHouse } from '../helpers/scratch-clickhouse.ts';

const BRAND = '00000000-0000-4000-8000-000000000001';
const [C1, C2] = ['00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000c2'];
const answer = (i: number) => `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`;
const common = (i: number) => ({
  answer_id: answer(i),
  brand_id: BRAND,
  prompt_id: '00000000-0000-4000-8000-000000000009',
  platform: 'chatgpt',
  model: 'gpt-4o',
  region: 'US',
  day: '2026-03-10',
  collected_at: '2026-03-10 10:00:00.000',
});
const entity = (i: number, id: string, mentions: number, generation = 0, sign = 1) => ({
  ...common(i),
  entity_id: id,
  is_brand: id === BRAND ? 1 : 0,
  mentions,
  position: mentions ? 1 : 0,
  citations: 0,
  score: 0,
  generation,
  sentiment: 0,
  sentiment_score: 0,
  sign,
});
const citation = (i: number, url: string, generation = 0, sign = 1) => ({
  ...common(i),
  url,
  domain: new URL(url).host,
  category: 'editorial',
  article_type: 'other',
  title: '',
  domain_first: 1,
  group_first: 1,
  answer_first: 1,
  generation,
  sign,
});

test.serial('stored citations get whom their answer names, once, and the views still feed', async (t) => {
  const ch = await scratchClickHouse(t, migrationsBefore('021'));
  await ch.insert('answer_entities', [
    // 1: names the brand and C2, not C1 (a row for C1, cited only).
    entity(1, BRAND, 2),
    entity(1, C1, 0),
    entity(1, C2, 1),
    // 2: its first version named C1; replaced by one naming C2 and the brand only.
    entity(2, BRAND, 0),
    entity(2, C1, 1),
    entity(2, BRAND, 0, 0, -1),
    entity(2, C1, 1, 0, -1),
    entity(2, BRAND, 1),
    entity(2, C2, 3),
    // 3: names nobody. 4: in generation 1 names C1 and C2, in generation 0 only the brand.
    entity(3, BRAND, 0),
    entity(4, BRAND, 1),
    entity(4, BRAND, 0, 1),
    entity(4, C2, 1, 1),
    entity(4, C1, 1, 1),
  ]);
  await ch.insert('answer_citations', [
    citation(1, 'https://a.example/1'),
    citation(1, 'https://b.example/1'),
    citation(2, 'https://a.example/2'),
    citation(2, 'https://a.example/2', 0, -1),
    citation(2, 'https://a.example/2'),
    citation(3, 'https://c.example/3'),
    citation(4, 'https://d.example/4'),
    citation(4, 'https://d.example/4', 1),
  ]);

  await applyMigration(ch, '021_citation_naming.sql');
  await applyMigration(ch, '021_citation_naming.sql');

  const naming = await ch.system<{ a: string; g: number; n: number; brand: number; competitors: string[] }>(
    `SELECT toString(answer_id) AS a, generation AS g, sum(sign) AS n, any(names_brand) AS brand,
       any(arrayMap(x -> toString(x), named_competitors)) AS competitors
     FROM answer_citations GROUP BY answer_id, generation, names_brand, named_competitors ORDER BY a, g`,
  );
  t.deepEqual(
    naming.map((r) => [r.a.slice(-2), Number(r.g), Number(r.n), Number(r.brand), r.competitors]),
    [
      ['01', 0, 2, 1, [C2]],
      ['02', 0, 1, 1, [C2]],
      ['03', 0, 1, 0, []],
      ['04', 0, 1, 1, []],
      ['04', 1, 1, 0, [C1, C2]],
    ],
    'one group per answer: a cancelled row and its pair carry the same naming',
  );
  const [{ rows }] = await ch.system<{ rows: number }>('SELECT sum(sign) AS rows FROM answer_citations');
  t.is(Number(rows), 6, 'applied twice, the rows are there once');

  // The views: a new answer through answer_rows_in lands with its naming, and the rollups count it.
  await ch.command({
    query: `INSERT INTO answer_rows_in (answer_id, organization_id, brand_id, prompt_id, platform, model, region, mode,
      collected_at, day, text, citation_count, product_count, sign, entity_rows, citation_rows, generation, reanalysis)
      VALUES ('${answer(5)}', '${BRAND}', '${BRAND}', '${BRAND}', 'chatgpt', 'gpt-4o', 'US', 'standard',
      '2026-03-11 10:00:00.000', '2026-03-11', 'x', 1, 0, 1, [],
      [('https://e.example/5', 'e.example', 'editorial', 'other', '', 1, 1, 1, 1, ['${C1}'])], 0, 0)`,
  });
  const [five] = await ch.system<{ brand: number; competitors: string[] }>(
    `SELECT names_brand AS brand, arrayMap(x -> toString(x), named_competitors) AS competitors
     FROM answer_citations WHERE domain = 'e.example'`,
  );
  t.deepEqual({ ...five, brand: Number(five.brand) }, { brand: 1, competitors: [C1] });
  // The rollups hold what answer_citations holds, once: the copy fed no view, the new row fed them.
  const sums = (sql: string) => ch.system<{ domain: string; n: number }>(`${sql} GROUP BY domain ORDER BY domain`);
  const raw = await sums('SELECT domain, sum(sign) AS n FROM answer_citations');
  t.is(raw.length, 5);
  t.deepEqual(await sums('SELECT domain, sum(citation_sum) AS n FROM citation_domain_models_monthly'), raw);
  t.deepEqual(await sums('SELECT domain, sum(citation_sum) AS n FROM citation_urls_monthly'), raw);
});
