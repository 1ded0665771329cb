-- A daily rollup of answer_entities without the prompt: one row per (brand, day, entity, platform,
-- model, region) holding sign-weighted sums, so summary, trend, competitor and share-of-voice
-- figures over whole days read tens of thousands of rows instead of millions. The view sees every
-- inserted block, cancel rows included, and sums them with their sign: a replaced answer is
-- subtracted here exactly as in the source table (the trap in docs/architecture.md does not apply to sums of
-- signed rows). Topic filters and timestamp bounds read answer_entities itself. Column names differ
-- from the source's so the view's aliases cannot shadow a source column inside an aggregate.

CREATE TABLE IF NOT EXISTS entity_daily {{ON_CLUSTER}} (
  brand_id     UUID,
  day          Date,
  entity_id    UUID,
  is_brand     UInt8,
  platform     LowCardinality(String),
  model        LowCardinality(String),
  region       LowCardinality(String),
  row_count        Int64,    -- answers (brand) or (answer, competitor) pairs
  named_count      Int64,    -- of which naming the entity
  cited_count      Int64,    -- of which citing it
  mention_sum      Int64,
  citation_sum     Int64,
  inv_position_sum Float64   -- sum of 1/position where named
) ENGINE = {{REPLICATED}}SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (brand_id, day, entity_id, is_brand, platform, model, region);

CREATE MATERIALIZED VIEW IF NOT EXISTS entity_daily_mv {{ON_CLUSTER}} TO entity_daily AS
SELECT brand_id, day, entity_id, is_brand, platform, model, region,
  sum(sign) AS row_count,
  sum(sign * (mentions > 0)) AS named_count,
  sum(sign * (citations > 0)) AS cited_count,
  sum(sign * mentions) AS mention_sum,
  sum(sign * citations) AS citation_sum,
  sum(if(position > 0, sign / position, 0)) AS inv_position_sum
FROM answer_entities
GROUP BY brand_id, day, entity_id, is_brand, platform, model, region;

-- Answers stored before this migration: roll them up once (only into an empty rollup, so applying
-- the file again after a failure cannot count them twice; nothing ingests while migrations run).
INSERT INTO entity_daily
SELECT brand_id, day, entity_id, is_brand, platform, model, region,
  sum(sign), sum(sign * (mentions > 0)), sum(sign * (citations > 0)), sum(sign * mentions), sum(sign * citations),
  sum(if(position > 0, sign / position, 0))
FROM answer_entities
WHERE (SELECT count() FROM entity_daily) = 0
GROUP BY brand_id, day, entity_id, is_brand, platform, model, region;
