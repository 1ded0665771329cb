-- The warehouse views (010) read a brand's live analysis generation only (011): the one the
-- brand switched to last (brand_generations), or 0 for a brand never re-analysed. While a
-- re-analysis writes the next generation, and until the old one is deleted, they count each
-- answer once, like the API.

CREATE OR REPLACE VIEW v_answer_entities {{ON_CLUSTER}}
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
  WHERE ((brand_id, generation) IN (SELECT brand_id, argMax(generation, switched_at) FROM brand_generations GROUP BY brand_id)
    OR (generation = 0 AND brand_id NOT IN (SELECT brand_id FROM brand_generations)))
  GROUP BY answer_id, brand_id, entity_id, is_brand, prompt_id, platform, model, region, collected_at, day,
    mentions, position, citations, score
  HAVING sum(sign) > 0
);

CREATE OR REPLACE VIEW v_answers {{ON_CLUSTER}}
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
  WHERE is_brand = 1 AND ((brand_id, generation) IN (SELECT brand_id, argMax(generation, switched_at) FROM brand_generations GROUP BY brand_id)
    OR (generation = 0 AND brand_id NOT IN (SELECT brand_id FROM brand_generations)))
  GROUP BY brand_id, answer_id, mentions, position, citations, score
  HAVING sum(sign) > 0
) AS e ON e.brand_id = a.brand_id AND e.answer_id = a.answer_id;

CREATE OR REPLACE VIEW v_citations {{ON_CLUSTER}}
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
  WHERE ((brand_id, generation) IN (SELECT brand_id, argMax(generation, switched_at) FROM brand_generations GROUP BY brand_id)
    OR (generation = 0 AND brand_id NOT IN (SELECT brand_id FROM brand_generations)))
  GROUP BY answer_id, brand_id, prompt_id, platform, model, region, collected_at, day, url, domain, category,
    article_type, title
  HAVING sum(sign) > 0
);
