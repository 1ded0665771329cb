-- History follows the workspace (docs/api.md section 10, docs/analysis.md): every analysis row
-- carries the generation of the brand's analysis it belongs to, and reads take the brand's live
-- generation only (Postgres brands.analysis_generation, bound by src/stores/scoped-query.ts). A
-- re-analysis writes generation N+1 beside N, switches the brand in Postgres, then deletes N.
--
-- The generation ends every sort key: rows of two generations never share a key, so a collapsing
-- merge cannot fold an old row into a new one, and the summing rollups keep one sum per generation.
-- (A column added to a sorting key may have no default expression; UInt32's implicit 0 is the
-- generation of every row written before this migration.)
ALTER TABLE answer_entities {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS generation UInt32,
  MODIFY ORDER BY (brand_id, entity_id, day, answer_id, generation);

ALTER TABLE answer_citations {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS generation UInt32,
  MODIFY ORDER BY (brand_id, day, answer_id, url, generation);

ALTER TABLE entity_daily {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS generation UInt32,
  MODIFY ORDER BY (brand_id, day, entity_id, is_brand, platform, model, region, generation);

ALTER TABLE prompt_daily {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS generation UInt32,
  MODIFY ORDER BY (brand_id, day, prompt_id, is_brand, generation);

ALTER TABLE citation_domain_models_monthly {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS generation UInt32,
  MODIFY ORDER BY (brand_id, domain, category, model, region, month, generation);

ALTER TABLE citation_domains_monthly {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS generation UInt32,
  MODIFY ORDER BY (brand_id, domain, category, month, generation);

ALTER TABLE citation_urls_monthly {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS generation UInt32,
  MODIFY ORDER BY (brand_id, domain, url_hash, category, article_type, month, generation);

-- A re-analysis writes the same answer_rows_in lines as ingestion, flagged: their answers rows are
-- stored already, so the answers view skips them and only the analysis rows are written.
ALTER TABLE answer_rows_in {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS generation UInt32,
  ADD COLUMN IF NOT EXISTS reanalysis UInt8;

-- The views that fan rows out carry the generation through; they are replaced while nothing is
-- ingested (migrations run before a process serves or ingests).
DROP VIEW IF EXISTS answer_rows_in_answers_mv {{ON_CLUSTER}};
CREATE MATERIALIZED VIEW answer_rows_in_answers_mv {{ON_CLUSTER}} TO answers AS
SELECT answer_id, organization_id, brand_id, prompt_id, platform, model, region, mode, collected_at, day, text,
  citation_count, product_count, sign
FROM answer_rows_in
WHERE reanalysis = 0;

DROP VIEW IF EXISTS answer_rows_in_entities_mv {{ON_CLUSTER}};
CREATE MATERIALIZED VIEW answer_rows_in_entities_mv {{ON_CLUSTER}} TO answer_entities AS
SELECT answer_id, brand_id, e.1 AS entity_id, e.2 AS is_brand, prompt_id, platform, model, region, day,
  collected_at, e.3 AS mentions, e.4 AS position, e.5 AS citations, e.6 AS score, sign, generation
FROM answer_rows_in ARRAY JOIN entity_rows AS e;

DROP VIEW IF EXISTS answer_rows_in_citations_mv {{ON_CLUSTER}};
CREATE MATERIALIZED VIEW answer_rows_in_citations_mv {{ON_CLUSTER}} TO answer_citations AS
SELECT answer_id, brand_id, prompt_id, platform, model, region, day, collected_at, c.1 AS url, c.2 AS domain,
  c.3 AS category, c.4 AS article_type, c.5 AS title, c.6 AS domain_first, c.7 AS group_first, c.8 AS answer_first,
  sign, generation
FROM answer_rows_in ARRAY JOIN citation_rows AS c;

DROP VIEW IF EXISTS entity_daily_mv {{ON_CLUSTER}};
CREATE MATERIALIZED VIEW entity_daily_mv {{ON_CLUSTER}} TO entity_daily AS
SELECT brand_id, day, entity_id, is_brand, platform, model, region, generation,
  sum(sign) AS row_count,
  sum(sign * (mentions > 0)) AS named_count,
  sum(sign * (citations > 0)) AS cited_count,
  sum(sign * mentions) AS mention_sum,
  sum(sign * citations) AS citation_sum,
  sum(if(position > 0, sign / position, 0)) AS inv_position_sum
FROM answer_entities
GROUP BY brand_id, day, entity_id, is_brand, platform, model, region, generation;

DROP VIEW IF EXISTS prompt_daily_mv {{ON_CLUSTER}};
CREATE MATERIALIZED VIEW prompt_daily_mv {{ON_CLUSTER}} TO prompt_daily AS
SELECT brand_id, day, prompt_id, is_brand, generation,
  sum(sign) AS row_count,
  sum(sign * (mentions > 0)) AS named_count,
  sum(sign * (citations > 0)) AS cited_count,
  sum(sign * mentions) AS mention_sum,
  sum(sign * citations) AS citation_sum,
  sum(if(position > 0, sign / position, 0)) AS inv_position_sum
FROM answer_entities
GROUP BY brand_id, day, prompt_id, is_brand, generation;

DROP VIEW IF EXISTS citation_domain_models_monthly_mv {{ON_CLUSTER}};
CREATE MATERIALIZED VIEW citation_domain_models_monthly_mv {{ON_CLUSTER}} TO citation_domain_models_monthly AS
SELECT brand_id, toStartOfMonth(day) AS month, domain, category, model, region, generation,
  sum(sign) AS citation_sum,
  sum(sign * domain_first) AS domain_firsts,
  sum(sign * group_first) AS group_firsts,
  sum(sign * answer_first) AS answer_firsts,
  maxIf(collected_at, sign > 0) AS latest_at
FROM answer_citations
GROUP BY brand_id, month, domain, category, model, region, generation;

DROP VIEW IF EXISTS citation_domains_monthly_mv {{ON_CLUSTER}};
CREATE MATERIALIZED VIEW citation_domains_monthly_mv {{ON_CLUSTER}} TO citation_domains_monthly AS
SELECT brand_id, month, domain, category, generation,
  sum(citation_sum) AS citation_sum,
  sum(domain_firsts) AS domain_firsts,
  sum(group_firsts) AS group_firsts,
  sum(answer_firsts) AS answer_firsts,
  max(latest_at) AS latest_at
FROM citation_domain_models_monthly
GROUP BY brand_id, month, domain, category, generation;

DROP VIEW IF EXISTS citation_urls_monthly_mv {{ON_CLUSTER}};
CREATE MATERIALIZED VIEW citation_urls_monthly_mv {{ON_CLUSTER}} TO citation_urls_monthly AS
SELECT brand_id, toStartOfMonth(day) AS month, domain, url_hash, category, article_type, generation,
  sum(sign) AS citation_sum,
  maxIf(day, sign > 0) AS latest_day,
  maxIf(day, sign > 0 AND title != '') AS titled_day
FROM answer_citations
GROUP BY brand_id, month, domain, url_hash, category, article_type, generation;

-- The live generation of each brand that was ever re-analysed, for readers that cannot ask
-- Postgres (the warehouse views); a brand without a row reads generation 0.
CREATE TABLE IF NOT EXISTS brand_generations {{ON_CLUSTER}} (
  brand_id    UUID,
  generation  UInt32,
  switched_at DateTime64(3, 'UTC')
) ENGINE = {{REPLICATED}}ReplacingMergeTree(switched_at)
ORDER BY brand_id;
