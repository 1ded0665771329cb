// 004_citation_monthly.sql and 017 (its quarterly URL fold) on a warehouse that already holds
// citations (replaced ones included): their one-off inserts must roll up exactly what
// answer_citations holds, once, even when a file is applied a second time (as after a failure
// half-way). One chDB per process, so the tests run one after the other.
import test from 'ava';
import { applyMigration, migrationsBefore, scratchClickHouse } from '../helpers/scratch-clickhouse.ts';

test.serial('the monthly citation rollups are backfilled once, exactly', async (t) => {
  const ch = await scratchClickHouse(t, ['001_facts.sql']);
  // Two brands over two months; every third row replaced (its cancel copy and a new version).
  const brand = (i: number) => `00000000-0000-4000-8000-00000000000${i}`;
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < 300; i++) {
    const day = i % 2 ? '2026-01-15' : '2026-02-03';
    const row = {
      answer_id: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`,
      brand_id: brand(i % 2),
      prompt_id: brand(9),
      platform: 'chatgpt',
      model: i % 3 ? 'gpt-4o' : 'sonar',
      region: i % 5 ? 'US' : 'GB',
      day,
      collected_at: `${day} 10:00:00.000`,
      url: `https://site${i % 7}.example/p${i % 11}`,
      domain: `site${i % 7}.example`,
      category: i % 7 ? 'editorial' : 'you',
      article_type: 'listicle',
      title: i % 4 ? `Title ${i}` : '',
      domain_first: 1,
      group_first: i % 2,
      answer_first: i % 2,
      sign: 1,
    };
    rows.push(row);
    if (i % 3 === 0) rows.push({ ...row, sign: -1 }, { ...row, title: `${row.title} (new)`, sign: 1 });
  }
  await ch.insert('answer_citations', rows);

  await applyMigration(ch, '004_citation_monthly.sql');
  await applyMigration(ch, '004_citation_monthly.sql');

  const sums = (table: string, columns: string, extra = '') =>
    ch.system(
      `SELECT brand_id, toString(month) AS m, domain, ${columns} FROM ${table} GROUP BY brand_id, m, domain${extra} ORDER BY ALL`,
    );
  const raw = (columns: string, extra = '') =>
    ch.system(
      `SELECT brand_id, toString(toStartOfMonth(day)) AS m, domain, ${columns} FROM answer_citations GROUP BY brand_id, m, domain${extra} ORDER BY ALL`,
    );
  const flags = 'sum(sign * domain_first) AS df, sum(sign * group_first) AS gf, sum(sign * answer_first) AS af';
  const rolled = 'sum(domain_firsts) AS df, sum(group_firsts) AS gf, sum(answer_firsts) AS af';
  t.deepEqual(
    await sums('citation_domains_monthly', `category, sum(citation_sum) AS n, ${rolled}`, ', category'),
    await raw(`category, sum(sign) AS n, ${flags}`, ', category'),
  );
  t.deepEqual(
    await sums('citation_domain_models_monthly', `model, region, sum(citation_sum) AS n, ${rolled}`, ', model, region'),
    await raw(`model, region, sum(sign) AS n, ${flags}`, ', model, region'),
  );
  t.deepEqual(
    await sums('citation_urls_monthly', 'url_hash, sum(citation_sum) AS n, max(titled_day) AS td', ', url_hash'),
    await raw("url_hash, sum(sign) AS n, maxIf(day, sign > 0 AND title != '') AS td", ', url_hash'),
  );
  const [{ n }] = await ch.system<{ n: number }>('SELECT sum(citation_sum) AS n FROM citation_domains_monthly');
  t.is(Number(n), 300);
});

// 017_citation_urls_quarterly.sql: backfilled once from the monthly URL rollup, then fed by its view.
test.serial('the quarterly URL rollup is backfilled once and then kept by its view, exactly', async (t) => {
  const ch = await scratchClickHouse(t, migrationsBefore('017'));
  // Citations over five months of two quarters, in two generations; every third one replaced.
  const rowsOf = (from: number, to: number) => {
    const rows: Record<string, unknown>[] = [];
    for (let i = from; i < to; i++) {
      const day = ['2026-02-10', '2026-03-31', '2026-04-01', '2026-05-20', '2026-06-30'][i % 5];
      const row = {
        answer_id: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`,
        brand_id: '00000000-0000-4000-8000-000000000001',
        prompt_id: '00000000-0000-4000-8000-000000000009',
        platform: 'chatgpt',
        model: 'gpt-4o',
        region: 'US',
        day,
        collected_at: `${day} 10:00:00.000`,
        url: `https://site${i % 7}.example/p${i % 11}`,
        url_hash: 0,
        domain: `site${i % 7}.example`,
        category: 'editorial',
        article_type: i % 2 ? 'listicle' : 'review',
        title: i % 4 ? `Title ${i}` : '',
        domain_first: 1,
        group_first: 1,
        answer_first: 1,
        generation: i % 4 === 0 ? 1 : 0,
        sign: 1,
      };
      rows.push(row);
      if (i % 3 === 0) rows.push({ ...row, sign: -1 }, { ...row, title: `${row.title} (new)`, sign: 1 });
    }
    return rows.map(({ url_hash, ...r }) => r);
  };
  await ch.insert('answer_citations', rowsOf(0, 200));
  await applyMigration(ch, '017_citation_urls_quarterly.sql');
  await applyMigration(ch, '017_citation_urls_quarterly.sql');

  const byQuarter = async () => ({
    rolled: await ch.system(
      `SELECT generation, toString(quarter) AS q, domain, url_hash, article_type, sum(citation_sum) AS n,
         max(latest_day) AS ld, max(titled_day) AS td
       FROM citation_urls_quarterly GROUP BY ALL ORDER BY ALL`,
    ),
    raw: await ch.system(
      `SELECT generation, toString(toStartOfQuarter(day)) AS q, domain, url_hash, article_type, sum(sign) AS n,
         maxIf(day, sign > 0) AS ld, maxIf(day, sign > 0 AND title != '') AS td
       FROM answer_citations GROUP BY ALL ORDER BY ALL`,
    ),
  });
  const once = await byQuarter();
  t.true(once.raw.length > 10);
  t.deepEqual(once.rolled, once.raw);
  // Citations written after the migration reach the quarterly rollup through the monthly one's view.
  await ch.insert('answer_citations', rowsOf(200, 320));
  const later = await byQuarter();
  t.deepEqual(later.rolled, later.raw);
  t.notDeepEqual(later.raw, once.raw);
});
