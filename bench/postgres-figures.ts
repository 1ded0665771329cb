// The comparison bench/analytics draws: the same figures computed by Postgres alone, over the
// measured brand's rows copied into plain tables with indexes that mirror the ClickHouse sort keys
// (the design a user would otherwise pick). Returns the median time per endpoint name.
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { ClickHouse } from '../src/stores/clickhouse.ts';

const range = ['2025-01-01', '2025-12-31'];

const QUERIES: Record<string, string[]> = {
  'visibility-summary': [
    `SELECT entity_id, is_brand, count(*), count(*) FILTER (WHERE mentions > 0), count(*) FILTER (WHERE citations > 0),
      sum(mentions), sum(citations), sum(1.0 / position) FILTER (WHERE position > 0)
    FROM bench_answer_entities WHERE brand_id = $1 AND day BETWEEN $2 AND $3 GROUP BY entity_id, is_brand`,
  ],
  'visibility-trend': [
    `SELECT day, count(*) FILTER (WHERE is_brand), count(*) FILTER (WHERE is_brand AND mentions > 0),
      count(*) FILTER (WHERE is_brand AND citations > 0), sum(mentions) FILTER (WHERE is_brand), sum(citations) FILTER (WHERE is_brand),
      sum(1.0 / position) FILTER (WHERE is_brand AND position > 0), count(*) FILTER (WHERE NOT is_brand),
      count(*) FILTER (WHERE NOT is_brand AND mentions > 0), count(*) FILTER (WHERE NOT is_brand AND citations > 0),
      sum(1.0 / position) FILTER (WHERE NOT is_brand AND position > 0)
    FROM bench_answer_entities WHERE brand_id = $1 AND day BETWEEN $2 AND $3 GROUP BY day ORDER BY day`,
  ],
  'visibility-trend (week)': [
    `SELECT date_trunc('week', day), count(*) FILTER (WHERE is_brand), count(*) FILTER (WHERE is_brand AND mentions > 0),
      sum(mentions) FILTER (WHERE is_brand), count(*) FILTER (WHERE NOT is_brand)
    FROM bench_answer_entities WHERE brand_id = $1 AND day BETWEEN $2 AND $3 GROUP BY 1 ORDER BY 1`,
  ],
  'competitor-comparison': [
    `SELECT entity_id, is_brand, count(*), count(*) FILTER (WHERE mentions > 0), count(*) FILTER (WHERE citations > 0),
      sum(mentions), sum(citations), sum(1.0 / position) FILTER (WHERE position > 0)
    FROM bench_answer_entities WHERE brand_id = $1 AND day BETWEEN $2 AND $3 GROUP BY entity_id, is_brand`,
    `SELECT model, platform, sum(mentions) FILTER (WHERE is_brand), sum(mentions) FILTER (WHERE NOT is_brand)
    FROM bench_answer_entities WHERE brand_id = $1 AND day BETWEEN $2 AND $3 GROUP BY model, platform`,
  ],
  citations: [
    `SELECT count(*), count(DISTINCT domain), count(DISTINCT url), count(DISTINCT answer_id)
    FROM bench_answer_citations WHERE brand_id = $1 AND day BETWEEN $2 AND $3`,
    `SELECT domain, count(*), count(DISTINCT answer_id), array_agg(DISTINCT model)
    FROM bench_answer_citations WHERE brand_id = $1 AND day BETWEEN $2 AND $3 GROUP BY domain ORDER BY 2 DESC, 1 LIMIT 50`,
    `SELECT url, count(*), count(DISTINCT answer_id)
    FROM bench_answer_citations WHERE brand_id = $1 AND day BETWEEN $2 AND $3 GROUP BY url ORDER BY 2 DESC, 1 LIMIT 50`,
  ],
  'prompt-performance': [
    `SELECT prompt_id, count(*) FILTER (WHERE is_brand), count(*) FILTER (WHERE is_brand AND mentions > 0),
      sum(mentions) FILTER (WHERE is_brand), sum(citations) FILTER (WHERE is_brand), count(*) FILTER (WHERE NOT is_brand)
    FROM bench_answer_entities WHERE brand_id = $1 AND day BETWEEN $2 AND $3 GROUP BY prompt_id`,
  ],
  'ai-traffic': [
    `SELECT platform, count(*) AS visits FROM bench_ai_visits WHERE brand_id = $1 AND day BETWEEN $2 AND $3
    GROUP BY platform ORDER BY visits DESC, platform`,
    `SELECT path, count(*) AS visits FROM bench_ai_visits WHERE brand_id = $1 AND day BETWEEN $2 AND $3
    GROUP BY path ORDER BY visits DESC, path LIMIT 10`,
    `SELECT country, count(*) AS visits FROM bench_ai_visits WHERE brand_id = $1 AND day BETWEEN $2 AND $3
    GROUP BY country ORDER BY visits DESC, country`,
  ],
};

export async function postgresFigures(
  ch: ClickHouse,
  pool: pg.Pool,
  brandId: string,
  dir: string,
  runs: number,
  log: (m: string) => void,
) {
  fs.chmodSync(dir, 0o755); // the Postgres server reads the CSV files as its own OS user
  const entities = path.join(dir, 'entities.csv');
  const citations = path.join(dir, 'citations.csv');
  await ch.command({
    query: `SELECT brand_id, entity_id, is_brand, prompt_id, platform, model, region, day, mentions, position, citations, score
    FROM answer_entities WHERE brand_id = {b:UUID} INTO OUTFILE '${entities}' FORMAT CSV`,
    query_params: { b: brandId },
  });
  await ch.command({
    query: `SELECT answer_id, brand_id, prompt_id, model, day, url, domain, category, article_type
    FROM answer_citations WHERE brand_id = {b:UUID} INTO OUTFILE '${citations}' FORMAT CSV`,
    query_params: { b: brandId },
  });
  const visits = path.join(dir, 'visits.csv');
  await ch.command({
    query: `SELECT brand_id, day, platform, path, country FROM ai_visits WHERE brand_id = {b:UUID}
    INTO OUTFILE '${visits}' FORMAT CSV`,
    query_params: { b: brandId },
  });
  for (const f of [entities, citations, visits]) fs.chmodSync(f, 0o644);
  await pool.query(`DROP TABLE IF EXISTS bench_answer_entities, bench_answer_citations, bench_ai_visits`);
  await pool.query('CREATE TABLE bench_ai_visits (brand_id uuid, day date, platform text, path text, country text)');
  await pool.query(`COPY bench_ai_visits FROM '${visits}' WITH (FORMAT csv)`);
  await pool.query('CREATE INDEX ON bench_ai_visits (brand_id, day)');
  await pool.query('ANALYZE bench_ai_visits');
  await pool.query(`CREATE TABLE bench_answer_entities (brand_id uuid, entity_id uuid, is_brand boolean, prompt_id uuid, platform text,
    model text, region text, day date, mentions int, position int, citations int, score float8)`);
  await pool.query(`CREATE TABLE bench_answer_citations (answer_id uuid, brand_id uuid, prompt_id uuid, model text, day date,
    url text, domain text, category text, article_type text)`);
  await pool.query(`COPY bench_answer_entities FROM '${entities}' WITH (FORMAT csv)`);
  await pool.query(`COPY bench_answer_citations FROM '${citations}' WITH (FORMAT csv)`);
  await pool.query('CREATE INDEX ON bench_answer_entities (brand_id, entity_id, day)');
  await pool.query('CREATE INDEX ON bench_answer_entities (brand_id, day)');
  await pool.query('CREATE INDEX ON bench_answer_citations (brand_id, day)');
  await pool.query('ANALYZE bench_answer_entities');
  await pool.query('ANALYZE bench_answer_citations');
  log('Postgres tables loaded');

  const out: Record<string, number> = {};
  for (const [name, queries] of Object.entries(QUERIES)) {
    const times: number[] = [];
    for (let i = 0; i < Math.min(runs, 5) + 1; i++) {
      const t = performance.now();
      await Promise.all(queries.map((q) => pool.query(q, [brandId, ...range])));
      if (i > 0) times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    out[name] = times[Math.floor(times.length / 2)];
    log(`postgres ${name}: median ${out[name].toFixed(0)} ms`);
  }
  await pool.query(`DROP TABLE IF EXISTS bench_answer_entities, bench_answer_citations, bench_ai_visits`);
  await pool.end();
  return out;
}
