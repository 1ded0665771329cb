-- A daily rollup of answer_entities per prompt, brand rows apart from competitor rows (no entity,
-- platform, model or region): prompt performance, and the trend under a topic filter, over whole
-- days without a model or region filter read it. Same signed sums as entity_daily (002).

CREATE TABLE IF NOT EXISTS prompt_daily {{ON_CLUSTER}} (
  brand_id         UUID,
  day              Date,
  prompt_id        UUID,
  is_brand         UInt8,
  row_count        Int64,
  named_count      Int64,
  cited_count      Int64,
  mention_sum      Int64,
  citation_sum     Int64,
  inv_position_sum Float64
) ENGINE = {{REPLICATED}}SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (brand_id, day, prompt_id, is_brand);

CREATE MATERIALIZED VIEW IF NOT EXISTS prompt_daily_mv {{ON_CLUSTER}} TO prompt_daily AS
SELECT brand_id, day, prompt_id, is_brand,
  sum(sign) AS row_count,
  sum(sign * (mentions > 0)) AS named_count,
  sum(sign * (citations > 0)) AS cited_count,
  sum(sign * mentions) AS mention_sum,
  sum(sign * citations) AS citation_sum,
  sum(if(position > 0, sign / position, 0)) AS inv_position_sum
FROM answer_entities
GROUP BY brand_id, day, prompt_id, is_brand;

INSERT INTO prompt_daily
SELECT brand_id, day, prompt_id, is_brand,
  sum(sign), sum(sign * (mentions > 0)), sum(sign * (citations > 0)), sum(sign * mentions), sum(sign * citations),
  sum(if(position > 0, sign / position, 0))
FROM answer_entities
WHERE (SELECT count() FROM prompt_daily) = 0
GROUP BY brand_id, day, prompt_id, is_brand;
