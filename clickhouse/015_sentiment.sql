-- Sentiment per entity (docs/api.md section 13, docs/analysis.md "Sentiment"): each entity row
-- carries the polarity of the answer's sentences naming it (1 positive, 0 neutral, -1 negative)
-- and its score in [-1, 1]. An entity not named has none: its row (mentions = 0) stores 0 and 0,
-- and reads give null where mentions = 0, so no flag is needed. Rows written before this migration
-- read as neutral with score 0 until the brand is re-analysed (answerscope reanalyze), which
-- derives them from the stored text.
ALTER TABLE answer_entities {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS sentiment Int8,
  ADD COLUMN IF NOT EXISTS sentiment_score Float64;

-- The daily rollup counts named rows by polarity; neutral is named_count - positive - negative, so
-- rows from before this migration count as neutral there too.
ALTER TABLE entity_daily {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS positive_count Int64,
  ADD COLUMN IF NOT EXISTS negative_count Int64;

-- The entity tuple of answer_rows_in gains (sentiment, sentiment_score). The view reading it goes
-- first and comes back with the new fields, while nothing is ingested (migrations run before a
-- process serves or ingests), as in 011.
DROP VIEW IF EXISTS answer_rows_in_entities_mv {{ON_CLUSTER}};

ALTER TABLE answer_rows_in {{ON_CLUSTER}}
  MODIFY COLUMN entity_rows Array(Tuple(UUID, UInt8, UInt32, UInt16, UInt32, Float64, Int8, Float64));

CREATE MATERIALIZED VIEW answer_rows_in_entities_mv {{ON_CLUSTER}} TO answer_entities AS
SELECT answer_id, brand_id, e.1 AS entity_id, e.2 AS is_brand, prompt_id, platform, model, region, day,
  collected_at, e.3 AS mentions, e.4 AS position, e.5 AS citations, e.6 AS score, sign, generation,
  e.7 AS sentiment, e.8 AS sentiment_score
FROM answer_rows_in ARRAY JOIN entity_rows AS e;

DROP VIEW IF EXISTS entity_daily_mv {{ON_CLUSTER}};
CREATE MATERIALIZED VIEW entity_daily_mv {{ON_CLUSTER}} TO entity_daily AS
SELECT brand_id, day, entity_id, is_brand, platform, model, region, generation,
  sum(sign) AS row_count,
  sum(sign * (mentions > 0)) AS named_count,
  sum(sign * (citations > 0)) AS cited_count,
  sum(sign * mentions) AS mention_sum,
  sum(sign * citations) AS citation_sum,
  sum(if(position > 0, sign / position, 0)) AS inv_position_sum,
  sum(sign * (mentions > 0 AND sentiment = 1)) AS positive_count,
  sum(sign * (mentions > 0 AND sentiment = -1)) AS negative_count
FROM answer_entities
GROUP BY brand_id, day, entity_id, is_brand, platform, model, region, generation;
