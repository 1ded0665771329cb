// 020_rollups_by_year.sql on a warehouse that already holds rows: the daily entity rollup and the
// monthly citation rollups are rebuilt partitioned by year, with every sum they held, also when the
// file is applied again after failing half-way; and every view feeds the rebuilt tables after it.
import fs from 'node:fs';
import test from 'ava';
import { clickhouseStatements } from '../../src/stores/migrate.ts';
import { applyMigration, migrationsBefore, scratchClickHouse } from '../helpers/scratch-clickhouse.ts';
import type { ClickHouse } from '../../src/stores/clickhouse.ts';

const FILE = '020_rollups_by_year.sql';
const ROLLUPS = ['entity_daily', 'citation_domain_models_monthly', 'citation_domains_monthly', 'citation_urls_monthly'];
const brand = '00000000-0000-4000-8000-000000000001';
// Days in two years and three months; two generations; every third answer replaced (its cancel
// copy and a new version), so the sums hold subtractions.
const DAYS = ['2025-11-30', '2025-12-31', '2026-01-01', '2026-03-15'];

function facts(from: number, to: number) {
  const entities: Record<string, unknown>[] = [];
  const citations: Record<string, unknown>[] = [];
  for (let i = from; i < to; i++) {
    const day = DAYS[i % DAYS.length];
    const common = {
      answer_id: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`,
      brand_id: brand,
      prompt_id: '00000000-0000-4000-8000-000000000009',
      platform: i % 2 ? 'chatgpt' : 'perplexity',
      model: i % 2 ? 'gpt-4o' : 'sonar',
      region: i % 5 ? 'US' : 'GB',
      day,
      collected_at: `${day} 10:00:0${i % 10}.000`,
      generation: i % 4 === 0 ? 1 : 0,
      sign: 1,
    };
    const entity = {
      ...common,
      entity_id: `00000000-0000-4000-8000-00000000000${i % 3}`,
      is_brand: i % 3 === 0 ? 1 : 0,
      mentions: i % 4,
      position: i % 4 ? (i % 3) + 1 : 0,
      citations: i % 2,
      score: 0.5,
      sentiment: (i % 3) - 1,
      sentiment_score: ((i % 3) - 1) / 2,
    };
    const citation = {
      ...common,
      url: `https://site${i % 7}.example/p${i % 11}`,
      domain: `site${i % 7}.example`,
      category: i % 7 ? 'editorial' : 'you',
      article_type: i % 2 ? 'listicle' : 'review',
      title: i % 4 ? `Title ${i}` : '',
      domain_first: 1,
      group_first: i % 2,
      answer_first: 1,
    };
    entities.push(entity);
    citations.push(citation);
    if (i % 3 === 0) {
      entities.push({ ...entity, sign: -1 }, { ...entity, mentions: entity.mentions + 1 });
      citations.push({ ...citation, sign: -1 }, { ...citation, title: `${citation.title} (new)` });
    }
  }
  return { entities, citations };
}

async function write(ch: ClickHouse, from: number, to: number) {
  const { entities, citations } = facts(from, to);
  await ch.insert('answer_entities', entities);
  await ch.insert('answer_citations', citations);
}

/** Every rollup's rows, folded by their sort key as a read folds them. */
async function contents(ch: ClickHouse) {
  const out: Record<string, unknown> = {};
  for (const table of [...ROLLUPS, 'citation_urls_quarterly']) {
    out[table] = await ch.system(`SELECT * FROM ${table} FINAL ORDER BY ALL`);
  }
  return out;
}

const partitionKeys = async (ch: ClickHouse) =>
  Object.fromEntries(
    (
      await ch.system<{ name: string; partition_key: string }>(
        `SELECT name, partition_key FROM system.tables WHERE database = currentDatabase()
           AND (name LIKE '%\\_by\\_year' OR name IN {names:Array(String)}) ORDER BY name`,
        { names: ROLLUPS },
      )
    ).map((r) => [r.name, r.partition_key]),
  );

test.serial('the rollups are rebuilt by year with every sum, and the views feed them after', async (t) => {
  const ch = await scratchClickHouse(t, migrationsBefore('020'));
  await write(ch, 0, 240);
  const before = await contents(ch);
  t.true((before.entity_daily as unknown[]).length > 20);
  t.true((before.citation_urls_monthly as unknown[]).length > 20);

  // Half-way: the first table exchanged, the second copy only filled. Then the whole file, twice.
  const statements = clickhouseStatements(
    fs.readFileSync(new URL(`../../clickhouse/${FILE}`, import.meta.url), 'utf8'),
  );
  const secondInsert = statements.findIndex((s) => s.startsWith('INSERT INTO citation_domain_models_monthly_by_year'));
  t.true(secondInsert > 0);
  for (const query of statements.slice(0, secondInsert + 1)) await ch.command({ query });
  await applyMigration(ch, FILE);
  await applyMigration(ch, FILE);

  t.deepEqual(await partitionKeys(ch), {
    citation_domain_models_monthly: 'toYear(month)',
    citation_domains_monthly: 'toYear(month)',
    citation_urls_monthly: 'toYear(month)',
    entity_daily: 'toYear(day)',
  });
  t.deepEqual(await contents(ch), before);

  // Written after the migration: every view (the quarterly fold too) reaches its rebuilt table.
  await write(ch, 240, 400);
  const sums = async (table: string, column: string) =>
    Number((await ch.system<{ n: number }>(`SELECT sum(${column}) AS n FROM ${table}`))[0].n);
  const entityRows = await sums('answer_entities', 'sign');
  const citationRows = await sums('answer_citations', 'sign');
  t.is(entityRows, 400);
  t.is(await sums('entity_daily', 'row_count'), entityRows);
  t.is(
    await sums('entity_daily', 'positive_count'),
    await sums('answer_entities', 'sign * (mentions > 0 AND sentiment = 1)'),
  );
  for (const table of [...ROLLUPS.slice(1), 'citation_urls_quarterly']) {
    t.is(await sums(table, 'citation_sum'), citationRows, table);
  }
});
