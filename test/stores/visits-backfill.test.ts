// clickhouse/019 on a store that already holds AI visits: its one-off insert must sum exactly what
// ai_visits holds, once, even when the file is applied a second time (as after a failure half-way);
// visits recorded after it reach the rollup through its view.
import test from 'ava';
import { applyMigration, scratchClickHouse } from '../helpers/scratch-clickhouse.ts';

test.serial('the daily visits rollup is backfilled once, exactly, and then fed by its view', async (t) => {
  const ch = await scratchClickHouse(t, ['001_facts.sql']);
  const brand = (i: number) => `00000000-0000-4000-8000-00000000000${i}`;
  const visits = (from: number, n: number) =>
    Array.from({ length: n }, (_, k) => {
      const i = from + k;
      const ts = `2026-0${1 + (i % 3)}-1${i % 10} 0${i % 10}:00:00.000`;
      return {
        brand_id: brand(i % 2),
        ts,
        day: ts.slice(0, 10),
        platform: ['chatgpt', 'perplexity', 'gemini'][i % 3],
        path: `/p${i % 13}`,
        country: ['US', 'GB'][i % 2],
        referrer_host: 'chatgpt.com',
      };
    });
  await ch.insert('ai_visits', visits(0, 400));

  await applyMigration(ch, '019_ai_visits_daily.sql');
  await applyMigration(ch, '019_ai_visits_daily.sql');
  await ch.insert('ai_visits', visits(400, 200));

  const rollup = await ch.system(
    'SELECT brand_id, toString(day) AS d, dim, key, sum(visits) AS n FROM ai_visits_daily GROUP BY ALL ORDER BY ALL',
  );
  const raw = await ch.system(
    `SELECT brand_id, toString(day) AS d, b.1 AS dim, b.2 AS key, count() AS n FROM ai_visits
     ARRAY JOIN [('platform', toString(platform)), ('path', path), ('country', toString(country))] AS b
     GROUP BY ALL ORDER BY ALL`,
  );
  t.true(raw.length > 50, 'the visits spread over many days and keys');
  t.deepEqual(rollup, raw);
  const [{ total }] = await ch.system<{ total: number }>(
    "SELECT sum(visits) AS total FROM ai_visits_daily WHERE dim = 'platform'",
  );
  t.is(Number(total), 600);
});
