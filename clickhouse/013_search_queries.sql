-- The web searches a platform ran before answering (fan-out, docs/api.md section 12). ClickHouse
-- has no Nullable(Array), so "unknown" is a flag beside the array: search_queries_known = 0 is
-- unknown (the engine's API does not expose them, or an ingest line did not say), and known = 1
-- with [] means the platform answered without searching. Rows stored before this migration read
-- as unknown (the columns' implicit defaults: [] and 0).
ALTER TABLE answers {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS search_queries Array(String),
  ADD COLUMN IF NOT EXISTS search_queries_known UInt8;

ALTER TABLE answer_rows_in {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS search_queries Array(String),
  ADD COLUMN IF NOT EXISTS search_queries_known UInt8;

-- The answers view carries them through; it is replaced while nothing is ingested (migrations run
-- before a process serves or ingests), as in 011.
DROP VIEW IF EXISTS answer_rows_in_answers_mv {{ON_CLUSTER}};
CREATE MATERIALIZED VIEW answer_rows_in_answers_mv {{ON_CLUSTER}} TO answers AS
SELECT answer_id, organization_id, brand_id, prompt_id, platform, model, region, mode, collected_at, day, text,
  citation_count, product_count, sign, search_queries, search_queries_known
FROM answer_rows_in
WHERE reanalysis = 0;
