-- prompt_daily (003) folded by month, for prompt performance over long ranges: a year of the bench's
-- brand is 365,000 daily rows for 500 prompts, 12,000 monthly ones. The whole months of a range
-- read this, its other days prompt_daily (src/analytics/prompt-source.ts): the same signed sums
-- either way. Fed from prompt_daily's inserted blocks, already summed per day, so an ingest pays
-- for a small second grouping only. Sorted by prompt before month: a topic's prompts read a few
-- granules each.
CREATE TABLE IF NOT EXISTS prompt_monthly {{ON_CLUSTER}} (
  brand_id         UUID,
  month            Date,
  prompt_id        UUID,
  is_brand         UInt8,
  generation       UInt32,
  row_count        Int64,
  named_count      Int64,
  cited_count      Int64,
  mention_sum      Int64,
  citation_sum     Int64,
  inv_position_sum Float64
) ENGINE = {{REPLICATED}}SummingMergeTree
PARTITION BY toYear(month)
ORDER BY (brand_id, prompt_id, is_brand, month, generation);

CREATE MATERIALIZED VIEW IF NOT EXISTS prompt_monthly_mv {{ON_CLUSTER}} TO prompt_monthly AS
SELECT brand_id, toStartOfMonth(day) AS month, prompt_id, is_brand, generation,
  sum(row_count) AS row_count,
  sum(named_count) AS named_count,
  sum(cited_count) AS cited_count,
  sum(mention_sum) AS mention_sum,
  sum(citation_sum) AS citation_sum,
  sum(inv_position_sum) AS inv_position_sum
FROM prompt_daily
GROUP BY brand_id, month, prompt_id, is_brand, generation;

-- What prompt_daily held before the view existed, once (a second run of this file adds nothing).
INSERT INTO prompt_monthly
SELECT brand_id, toStartOfMonth(day), prompt_id, is_brand, generation,
  sum(row_count), sum(named_count), sum(cited_count), sum(mention_sum), sum(citation_sum), sum(inv_position_sum)
FROM prompt_daily
WHERE (SELECT count() FROM prompt_monthly) = 0
GROUP BY brand_id, toStartOfMonth(day), prompt_id, is_brand, generation;
