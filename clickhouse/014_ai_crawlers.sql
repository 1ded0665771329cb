-- AI crawler hits (docs/api.md section 14, docs/crawlers.md): one row per server-log entry whose user
-- agent is a known AI crawler or agent and whose host is one of the brand's domains. The client's
-- address is never stored: only the verdict on it (`verification`: verified, spoofed, unverified).
-- Rows are only ever appended (a log line is a fact; a re-imported log is counted again, as the
-- server really served it twice only if it logged it twice), so a plain MergeTree.
CREATE TABLE IF NOT EXISTS ai_crawler_hits {{ON_CLUSTER}} (
  brand_id     UUID,
  ts           DateTime64(3, 'UTC'),
  day          Date,
  bot_name     LowCardinality(String),
  provider     LowCardinality(String),
  bot_type     LowCardinality(String),
  verification LowCardinality(String),
  method       LowCardinality(String),
  host         String,
  path         String,
  status_code  UInt16,
  status_class LowCardinality(String),   -- '2xx'.. from status_code, kept so the rollup groups by it
  referer      String,                   -- '' when the entry had none
  bytes_sent   Nullable(UInt64),
  duration_ms  Nullable(Float64)
) ENGINE = {{REPLICATED}}MergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (brand_id, day, bot_name, path);

-- The daily rollup every whole-day figure but top pages reads: hits and the latest visit per
-- (brand, day, bot, verification, status class). SimpleAggregateFunction columns merge by sum and
-- max, so a read that sums hits and takes max(last_visit) is exact before and after merges.
CREATE TABLE IF NOT EXISTS ai_crawler_daily {{ON_CLUSTER}} (
  brand_id     UUID,
  day          Date,
  bot_name     LowCardinality(String),
  provider     LowCardinality(String),
  bot_type     LowCardinality(String),
  verification LowCardinality(String),
  status_class LowCardinality(String),
  hits         SimpleAggregateFunction(sum, UInt64),
  last_visit   SimpleAggregateFunction(max, DateTime64(3, 'UTC'))
) ENGINE = {{REPLICATED}}AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (brand_id, day, bot_name, provider, bot_type, verification, status_class);

CREATE MATERIALIZED VIEW IF NOT EXISTS ai_crawler_daily_mv {{ON_CLUSTER}} TO ai_crawler_daily AS
SELECT brand_id, day, bot_name, provider, bot_type, verification, status_class,
  toUInt64(count()) AS hits,
  max(ts) AS last_visit
FROM ai_crawler_hits
GROUP BY brand_id, day, bot_name, provider, bot_type, verification, status_class;
