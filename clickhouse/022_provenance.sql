-- Where each answer comes from (docs/metrics.md "Provenance"): `provider_model`, the model string
-- the provider reported (or the configured one where it reports none); `engine_version`, the
-- capture adapter's version ('' for answers not captured by Answerscope); `source`, `capture` (the
-- daily capture), `import` (`answerscope ingest`), or the tracker an answer was imported from.
-- Rows stored before this migration read provider_model as their model, engine_version '' and
-- source 'capture' (the columns' defaults, computed on read): their origin was not recorded.
ALTER TABLE answers {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS provider_model LowCardinality(String) DEFAULT model,
  ADD COLUMN IF NOT EXISTS engine_version LowCardinality(String),
  ADD COLUMN IF NOT EXISTS source LowCardinality(String) DEFAULT 'capture';

ALTER TABLE answer_rows_in {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS provider_model String,
  ADD COLUMN IF NOT EXISTS engine_version String,
  ADD COLUMN IF NOT EXISTS source String;

-- The answers view carries them through; it is replaced while nothing is ingested (migrations run
-- before a process serves or ingests), as in 013.
DROP VIEW IF EXISTS answer_rows_in_answers_mv {{ON_CLUSTER}};
CREATE MATERIALIZED VIEW answer_rows_in_answers_mv {{ON_CLUSTER}} TO answers AS
SELECT answer_id, organization_id, brand_id, prompt_id, platform, model, region, mode, collected_at, day, text,
  citation_count, product_count, sign, search_queries, search_queries_known, provider_model, engine_version, source
FROM answer_rows_in
WHERE reanalysis = 0;
