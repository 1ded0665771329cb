-- Warehouse views: the stable surface for people who query ClickHouse directly (docs/warehouse.md
-- explains every column and gives the SQL of each Metrics API figure). The raw tables of
-- 001_facts.sql keep replaced answers as cancel rows (sign = -1); every view here shows live rows
-- only, so no query on a view ever needs `sign`.
--
-- SQL SECURITY DEFINER: a reader needs SELECT on the view alone, never on the raw tables, so
-- `answerscope warehouse grant` can give an analyst the views and nothing else. Every view carries
-- brand_id, the column its row policies filter on (answer_entities, answer_citations and ai_visits
-- have no organization_id).
--
-- Names of derived columns never repeat a source column's name: ClickHouse would read the alias
-- inside its own expression. LowCardinality columns are shown as plain String (CAST: toString
-- keeps LowCardinality, and a comparison on one yields LowCardinality(UInt8), which a view may not
-- have). No line of a statement may end in a semicolon but its last (src/stores/migrate.ts splits
-- the file there).

-- One row per live (answer, tracked entity) pair: the brand in every non-shopping answer, a
-- competitor only where it is named or cited.
CREATE VIEW IF NOT EXISTS v_answer_entities {{ON_CLUSTER}}
DEFINER = CURRENT_USER SQL SECURITY DEFINER AS
SELECT
  answer_id,
  brand_id,
  entity_id,
  toUInt8(is_brand) AS is_brand,
  prompt_id,
  CAST(platform_lc AS String) AS platform,
  CAST(model_lc AS String) AS model,
  CAST(region_lc AS String) AS region,
  collected_at,
  day,
  mentions,
  toUInt8(mentions > 0) AS named,
  CAST(nullIf(raw_position, 0) AS Nullable(UInt16)) AS position,
  citations,
  toUInt8(citations > 0) AS cited,
  score
FROM (
  SELECT answer_id, brand_id, entity_id, is_brand, prompt_id, platform AS platform_lc, model AS model_lc,
    region AS region_lc, collected_at, day, mentions, position AS raw_position, citations, score
  FROM answer_entities
  GROUP BY answer_id, brand_id, entity_id, is_brand, prompt_id, platform, model, region, collected_at, day,
    mentions, position, citations, score
  HAVING sum(sign) > 0
);

-- One row per live answer (shopping answers included), with the brand's figures in it.
CREATE VIEW IF NOT EXISTS v_answers {{ON_CLUSTER}}
DEFINER = CURRENT_USER SQL SECURITY DEFINER AS
SELECT
  a.answer_id AS answer_id,
  a.organization_id AS organization_id,
  a.brand_id AS brand_id,
  a.prompt_id AS prompt_id,
  CAST(a.platform AS String) AS platform,
  CAST(a.model AS String) AS model,
  CAST(a.region AS String) AS region,
  CAST(a.mode AS String) AS mode,
  toUInt8(CAST(a.mode AS String) = 'shopping') AS is_shopping,
  a.collected_at AS collected_at,
  a.day AS day,
  a.text AS answer_text,
  a.citation_count AS citation_count,
  a.product_count AS product_count,
  -- Shopping answers are never analysed for visibility: their brand figures are NULL.
  CAST(if(CAST(a.mode AS String) = 'shopping', NULL, e.mentions) AS Nullable(UInt32)) AS brand_mentions,
  CAST(if(CAST(a.mode AS String) = 'shopping', NULL, toUInt8(e.mentions > 0)) AS Nullable(UInt8)) AS brand_named,
  CAST(if(CAST(a.mode AS String) = 'shopping' OR e.position = 0, NULL, e.position) AS Nullable(UInt16)) AS brand_position,
  CAST(if(CAST(a.mode AS String) = 'shopping', NULL, e.citations) AS Nullable(UInt32)) AS brand_citations,
  CAST(if(CAST(a.mode AS String) = 'shopping', NULL, toUInt8(e.citations > 0)) AS Nullable(UInt8)) AS brand_cited,
  CAST(if(CAST(a.mode AS String) = 'shopping', NULL, e.score) AS Nullable(Float64)) AS brand_score
FROM (
  SELECT answer_id, organization_id, brand_id, prompt_id, platform, model, region, mode, collected_at, day,
    text, citation_count, product_count
  FROM answers
  GROUP BY answer_id, organization_id, brand_id, prompt_id, platform, model, region, mode, collected_at, day,
    text, citation_count, product_count
  HAVING sum(sign) > 0
) AS a
LEFT JOIN (
  SELECT brand_id, answer_id, mentions, position, citations, score
  FROM answer_entities
  WHERE is_brand = 1
  GROUP BY brand_id, answer_id, mentions, position, citations, score
  HAVING sum(sign) > 0
) AS e ON e.brand_id = a.brand_id AND e.answer_id = a.answer_id;

-- One row per live cited URL of an answer (de-duplicated by normalised URL within the answer).
CREATE VIEW IF NOT EXISTS v_citations {{ON_CLUSTER}}
DEFINER = CURRENT_USER SQL SECURITY DEFINER AS
SELECT
  answer_id,
  brand_id,
  prompt_id,
  CAST(platform_lc AS String) AS platform,
  CAST(model_lc AS String) AS model,
  CAST(region_lc AS String) AS region,
  collected_at,
  day,
  url,
  CAST(domain_lc AS String) AS domain,
  CAST(category_lc AS String) AS category,
  CAST(article_type_lc AS String) AS article_type,
  title
FROM (
  SELECT answer_id, brand_id, prompt_id, platform AS platform_lc, model AS model_lc, region AS region_lc,
    collected_at, day, url, domain AS domain_lc, category AS category_lc, article_type AS article_type_lc, title
  FROM answer_citations
  GROUP BY answer_id, brand_id, prompt_id, platform, model, region, collected_at, day, url, domain, category,
    article_type, title
  HAVING sum(sign) > 0
);

-- The brand's figures summed per day and (prompt, platform, model, region): add rows up over any
-- of these and divide sums by `answers` for means and rates.
CREATE VIEW IF NOT EXISTS v_brand_daily {{ON_CLUSTER}}
DEFINER = CURRENT_USER SQL SECURITY DEFINER AS
SELECT
  brand_id,
  day,
  prompt_id,
  platform,
  model,
  region,
  toUInt64(count()) AS answers,
  toUInt64(countIf(named = 1)) AS named_answers,
  toUInt64(countIf(cited = 1)) AS cited_answers,
  toUInt64(sum(mentions)) AS total_mentions,
  toUInt64(sum(citations)) AS total_citations,
  toFloat64(sumIf(1 / ifNull(position, 1), named = 1)) AS inv_position_sum,
  toFloat64(sum(score)) AS score_sum
FROM v_answer_entities
WHERE is_brand = 1
GROUP BY brand_id, day, prompt_id, platform, model, region;

-- Each competitor's figures summed per day and (prompt, platform, model, region), over the answers
-- that name or cite it (`answers`); an answer that does neither adds nothing (its score is 0).
CREATE VIEW IF NOT EXISTS v_competitor_daily {{ON_CLUSTER}}
DEFINER = CURRENT_USER SQL SECURITY DEFINER AS
SELECT
  brand_id,
  entity_id AS competitor_id,
  day,
  prompt_id,
  platform,
  model,
  region,
  toUInt64(count()) AS answers,
  toUInt64(countIf(named = 1)) AS named_answers,
  toUInt64(countIf(cited = 1)) AS cited_answers,
  toUInt64(sum(mentions)) AS total_mentions,
  toUInt64(sum(citations)) AS total_citations,
  toFloat64(sumIf(1 / ifNull(position, 1), named = 1)) AS inv_position_sum,
  toFloat64(sum(score)) AS score_sum
FROM v_answer_entities
WHERE is_brand = 0
GROUP BY brand_id, entity_id, day, prompt_id, platform, model, region;

-- AI-referred visits recorded by /t.js (a plain table: every row is live).
CREATE VIEW IF NOT EXISTS v_ai_visits {{ON_CLUSTER}}
DEFINER = CURRENT_USER SQL SECURITY DEFINER AS
SELECT
  brand_id,
  ts AS visited_at,
  day,
  CAST(platform AS String) AS platform,
  path AS page_path,
  CAST(country AS String) AS country,
  referrer_host
FROM ai_visits;
