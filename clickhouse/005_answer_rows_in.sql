-- The way in for new answers: one row per answer, its entity and citation rows as arrays. Nothing
-- is stored here (Null engine); three views fan each block out into answers, answer_entities and
-- answer_citations (whose own views then feed the rollups). Ingestion writes a batch of answers
-- never stored before this way: the answer's ids, platform, model, region and timestamps are then
-- parsed once per answer instead of once per entity and citation row, about a third of what
-- ClickHouse spends on a batch. Replacements still write each table directly (reconcile.ts).
CREATE TABLE IF NOT EXISTS answer_rows_in {{ON_CLUSTER}} (
  answer_id       UUID,
  organization_id UUID,
  brand_id        UUID,
  prompt_id       UUID,
  platform        String,
  model           String,
  region          String,
  mode            String,
  collected_at    DateTime64(3, 'UTC'),
  day             Date,
  text            String,
  citation_count  UInt16,
  product_count   UInt16,
  sign            Int8,
  -- (entity_id, is_brand, mentions, position, citations, score); unnamed, so a tuple is a JSON array
  entity_rows     Array(Tuple(UUID, UInt8, UInt32, UInt16, UInt32, Float64)),
  -- (url, domain, category, article_type, title, domain_first, group_first, answer_first)
  citation_rows   Array(Tuple(String, String, String, String, String, UInt8, UInt8, UInt8))
) ENGINE = Null;

CREATE MATERIALIZED VIEW IF NOT EXISTS answer_rows_in_answers_mv {{ON_CLUSTER}} TO answers AS
SELECT answer_id, organization_id, brand_id, prompt_id, platform, model, region, mode, collected_at, day, text,
  citation_count, product_count, sign
FROM answer_rows_in;

CREATE MATERIALIZED VIEW IF NOT EXISTS answer_rows_in_entities_mv {{ON_CLUSTER}} TO answer_entities AS
SELECT answer_id, brand_id, e.1 AS entity_id, e.2 AS is_brand, prompt_id, platform, model, region, day,
  collected_at, e.3 AS mentions, e.4 AS position, e.5 AS citations, e.6 AS score, sign
FROM answer_rows_in ARRAY JOIN entity_rows AS e;

CREATE MATERIALIZED VIEW IF NOT EXISTS answer_rows_in_citations_mv {{ON_CLUSTER}} TO answer_citations AS
SELECT answer_id, brand_id, prompt_id, platform, model, region, day, collected_at, c.1 AS url, c.2 AS domain,
  c.3 AS category, c.4 AS article_type, c.5 AS title, c.6 AS domain_first, c.7 AS group_first, c.8 AS answer_first, sign
FROM answer_rows_in ARRAY JOIN citation_rows AS c;
