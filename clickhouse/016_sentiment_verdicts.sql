-- The configured model's sentiment verdicts (docs/api.md section 13, docs/analysis.md "Sentiment"):
-- with LLM_BASE_URL set, the daily capture asks the model to judge each entity named in an answer
-- and writes its verdicts here before the answer's rows. A re-analysis reads them back and applies
-- them to the entities still named, so it re-derives the figures the capture wrote instead of
-- replacing the model's judgement with the built-in analyser's.
--
-- One row per (answer, entity named when it was judged). `judged` = 1 is the model's verdict
-- (`sentiment` 1, 0 or -1 and its score); 0 says the built-in verdict stood (the model skipped the
-- entity, judged it invalidly, or the call failed), so a later judging of the same answer that fell
-- back is not overridden by an earlier one that did not. Rows of one judging share `judged_at`, and
-- only the answer's latest judging counts; `text_hash` is the hash of the text judged, so a verdict
-- never outlives its text (an answer replaced by a re-import under the same id).
-- `day` is the answer's day: a re-analysis reads the verdicts of its step's days with the answers.
CREATE TABLE IF NOT EXISTS sentiment_verdicts {{ON_CLUSTER}} (
  brand_id        UUID,
  day             Date,
  answer_id       UUID,
  entity_id       UUID,
  judged_at       DateTime64(3, 'UTC'),
  text_hash       String,
  judged          UInt8,
  sentiment       Int8,
  sentiment_score Float64
) ENGINE = {{REPLICATED}}ReplacingMergeTree(judged_at)
PARTITION BY toYYYYMM(day)
ORDER BY (brand_id, day, answer_id, entity_id);
