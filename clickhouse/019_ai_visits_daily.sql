-- AI visits summed per day for each of the three breakdowns of the AI traffic figure (platform,
-- page path, country): one row per (brand, day, breakdown, value), so a whole-day range reads one
-- small table once instead of every visit three times (src/analytics/ai-traffic.ts; a range bounded
-- inside a day still reads ai_visits). A year of the analytics bench's brand is 1,000,000 visits
-- and about 113,000 rows here. Visits are only ever added, so plain sums stay exact before and after
-- merges. `dim` names the breakdown, `key` its value.
CREATE TABLE IF NOT EXISTS ai_visits_daily {{ON_CLUSTER}} (
  brand_id UUID,
  day      Date,
  dim      LowCardinality(String),
  key      String,
  visits   UInt64
) ENGINE = {{REPLICATED}}SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (brand_id, day, dim, key);

CREATE MATERIALIZED VIEW IF NOT EXISTS ai_visits_daily_mv {{ON_CLUSTER}} TO ai_visits_daily AS
SELECT brand_id, day, b.1 AS dim, b.2 AS key, count() AS visits
FROM ai_visits
ARRAY JOIN [('platform', toString(platform)), ('path', path), ('country', toString(country))] AS b
GROUP BY brand_id, day, dim, key;

-- What ai_visits held before the view existed, once (a second run of this file adds nothing).
-- Migrations run before a process records visits, so none arrives between the view and this.
INSERT INTO ai_visits_daily
SELECT brand_id, day, b.1 AS dim, b.2 AS key, count() AS visits
FROM ai_visits
ARRAY JOIN [('platform', toString(platform)), ('path', path), ('country', toString(country))] AS b
WHERE (SELECT count() FROM ai_visits_daily) = 0
GROUP BY brand_id, day, dim, key;
