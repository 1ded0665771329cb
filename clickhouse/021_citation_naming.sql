-- Whom a citing answer names, on its citation rows: `names_brand` (1 when the answer names the
-- brand) and `named_competitors` (the competitors it names, ids in text order). The citation gap
-- (docs/api.md section 21) asks of every citation whether its answer names the brand or a
-- competitor; matched against the answers' entity rows, that read took 325 ms median over 90 days
-- of 1.28 M answers (docs/performance.md), and read from the citation rows alone it needs no second
-- table. Ingestion and re-analysis derive both from the same analysis as the entity rows
-- (tracking/ingest/answer-rows.ts), so they stay true when the brand's competitors change.
--
-- The rows already stored get them from their answers' live entity rows (an entity named when its
-- rows with mentions > 0 net a positive sign, as the reads count). A cancelled row and its pair get
-- the same values, so they still cancel. The table is copied with them into one made like it and
-- the two are exchanged, as in 020: every statement leaves the live name holding all the rows, so
-- a file applied again after a failure half-way starts over cleanly, and the copy is an INSERT, so a
-- cluster replicates it. The views writing into the table or reading from it are dropped first and
-- made again last (their definitions those of 011 and 020, the citation view with the two fields),
-- while nothing is ingested (migrations run before a process serves or ingests).
DROP VIEW IF EXISTS answer_rows_in_citations_mv {{ON_CLUSTER}};
DROP VIEW IF EXISTS citation_domain_models_monthly_mv {{ON_CLUSTER}};
DROP VIEW IF EXISTS citation_urls_monthly_mv {{ON_CLUSTER}};

ALTER TABLE answer_citations {{ON_CLUSTER}} ADD COLUMN IF NOT EXISTS names_brand UInt8,
  ADD COLUMN IF NOT EXISTS named_competitors Array(UUID);

ALTER TABLE answer_rows_in {{ON_CLUSTER}}
  MODIFY COLUMN citation_rows Array(Tuple(String, String, String, String, String, UInt8, UInt8, UInt8, UInt8, Array(UUID)));

DROP TABLE IF EXISTS answer_citations_named {{ON_CLUSTER}};
CREATE TABLE answer_citations_named {{ON_CLUSTER}} AS answer_citations
ENGINE = {{REPLICATED}}CollapsingMergeTree(sign)
PARTITION BY toYYYYMM(day)
ORDER BY (brand_id, day, answer_id, url, generation);
INSERT INTO answer_citations_named (answer_id, brand_id, prompt_id, platform, model, region, day, collected_at, url,
  domain, category, article_type, title, domain_first, group_first, answer_first, sign, generation, names_brand,
  named_competitors)
SELECT c.answer_id, c.brand_id, c.prompt_id, c.platform, c.model, c.region, c.day, c.collected_at, c.url, c.domain,
  c.category, c.article_type, c.title, c.domain_first, c.group_first, c.answer_first, c.sign, c.generation,
  n.names_brand, n.named_competitors
FROM answer_citations AS c
LEFT JOIN (
  SELECT answer_id, generation, max(brand_row) AS names_brand,
    arraySort(x -> toString(x), groupArrayIf(entity_id, brand_row = 0)) AS named_competitors
  FROM (
    SELECT answer_id, generation, entity_id, any(is_brand) AS brand_row
    FROM answer_entities
    WHERE mentions > 0
    GROUP BY answer_id, generation, entity_id
    HAVING sum(sign) > 0
  )
  GROUP BY answer_id, generation
) AS n USING (answer_id, generation);
EXCHANGE TABLES answer_citations AND answer_citations_named {{ON_CLUSTER}};
DROP TABLE answer_citations_named {{ON_CLUSTER}};

CREATE MATERIALIZED VIEW IF NOT EXISTS answer_rows_in_citations_mv {{ON_CLUSTER}} TO answer_citations AS
SELECT answer_id, brand_id, prompt_id, platform, model, region, day, collected_at, c.1 AS url, c.2 AS domain,
  c.3 AS category, c.4 AS article_type, c.5 AS title, c.6 AS domain_first, c.7 AS group_first, c.8 AS answer_first,
  sign, generation, c.9 AS names_brand, c.10 AS named_competitors
FROM answer_rows_in ARRAY JOIN citation_rows AS c;

CREATE MATERIALIZED VIEW IF NOT EXISTS citation_domain_models_monthly_mv {{ON_CLUSTER}}
TO citation_domain_models_monthly AS
SELECT brand_id, toStartOfMonth(day) AS month, domain, category, model, region, generation,
  sum(sign) AS citation_sum,
  sum(sign * domain_first) AS domain_firsts,
  sum(sign * group_first) AS group_firsts,
  sum(sign * answer_first) AS answer_firsts,
  maxIf(collected_at, sign > 0) AS latest_at
FROM answer_citations
GROUP BY brand_id, month, domain, category, model, region, generation;

CREATE MATERIALIZED VIEW IF NOT EXISTS citation_urls_monthly_mv {{ON_CLUSTER}} TO citation_urls_monthly AS
SELECT brand_id, toStartOfMonth(day) AS month, domain, url_hash, category, article_type, generation,
  sum(sign) AS citation_sum,
  maxIf(day, sign > 0) AS latest_day,
  maxIf(day, sign > 0 AND title != '') AS titled_day
FROM answer_citations
GROUP BY brand_id, month, domain, url_hash, category, article_type, generation;
