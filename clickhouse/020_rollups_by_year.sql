-- The daily entity rollup (002) and the monthly citation rollups (004) partitioned by year instead
-- of by month, as the later folds (017, 018) already are. A read of a year opened at least twelve
-- partitions' parts of each, and each part costs a read its fixed work whatever its size: a count
-- of a brand's year in citation_domains_monthly took 9.4 ms over 48 parts against 3.2 ms over one.
-- These tables are small (a year of a brand is tens of thousands of rows in most), so a partition
-- per year is still modest. bench/analytics.ts at 10 M answers, in turns: the whole-year citations
-- figure 78-85 ms median against 110-116, the summary 14-18 against 27-28 (docs/performance.md).
-- The price is in merges, which now join parts across months: 3 more CPU seconds per million
-- answers ingested.
--
-- ClickHouse cannot change a table's partition key in place, so each table is copied into one made
-- by year and the two are exchanged. Every statement leaves the live name holding all the rows, so
-- a file applied again after a failure half-way starts over cleanly: the copy is dropped first,
-- filled whole, and exchanged only once full. The views feeding these tables, or fed by them, are
-- dropped first and made again last, while nothing is ingested (migrations run before a process
-- serves or ingests, as in 011). Their definitions are those of 011, 015 and 017, unchanged.
DROP VIEW IF EXISTS entity_daily_mv {{ON_CLUSTER}};
DROP VIEW IF EXISTS citation_domain_models_monthly_mv {{ON_CLUSTER}};
DROP VIEW IF EXISTS citation_domains_monthly_mv {{ON_CLUSTER}};
DROP VIEW IF EXISTS citation_urls_monthly_mv {{ON_CLUSTER}};
DROP VIEW IF EXISTS citation_urls_quarterly_mv {{ON_CLUSTER}};

DROP TABLE IF EXISTS entity_daily_by_year {{ON_CLUSTER}};
CREATE TABLE entity_daily_by_year {{ON_CLUSTER}} AS entity_daily
ENGINE = {{REPLICATED}}SummingMergeTree
PARTITION BY toYear(day)
ORDER BY (brand_id, day, entity_id, is_brand, platform, model, region, generation);
INSERT INTO entity_daily_by_year SELECT * FROM entity_daily;
EXCHANGE TABLES entity_daily AND entity_daily_by_year {{ON_CLUSTER}};
DROP TABLE entity_daily_by_year {{ON_CLUSTER}};

DROP TABLE IF EXISTS citation_domain_models_monthly_by_year {{ON_CLUSTER}};
CREATE TABLE citation_domain_models_monthly_by_year {{ON_CLUSTER}} AS citation_domain_models_monthly
ENGINE = {{REPLICATED}}AggregatingMergeTree
PARTITION BY toYear(month)
ORDER BY (brand_id, domain, category, model, region, month, generation)
SETTINGS index_granularity = 1024;
INSERT INTO citation_domain_models_monthly_by_year SELECT * FROM citation_domain_models_monthly;
EXCHANGE TABLES citation_domain_models_monthly AND citation_domain_models_monthly_by_year {{ON_CLUSTER}};
DROP TABLE citation_domain_models_monthly_by_year {{ON_CLUSTER}};

DROP TABLE IF EXISTS citation_domains_monthly_by_year {{ON_CLUSTER}};
CREATE TABLE citation_domains_monthly_by_year {{ON_CLUSTER}} AS citation_domains_monthly
ENGINE = {{REPLICATED}}AggregatingMergeTree
PARTITION BY toYear(month)
ORDER BY (brand_id, domain, category, month, generation)
SETTINGS index_granularity = 1024;
INSERT INTO citation_domains_monthly_by_year SELECT * FROM citation_domains_monthly;
EXCHANGE TABLES citation_domains_monthly AND citation_domains_monthly_by_year {{ON_CLUSTER}};
DROP TABLE citation_domains_monthly_by_year {{ON_CLUSTER}};

DROP TABLE IF EXISTS citation_urls_monthly_by_year {{ON_CLUSTER}};
CREATE TABLE citation_urls_monthly_by_year {{ON_CLUSTER}} AS citation_urls_monthly
ENGINE = {{REPLICATED}}AggregatingMergeTree
PARTITION BY toYear(month)
ORDER BY (brand_id, domain, url_hash, category, article_type, month, generation)
SETTINGS index_granularity = 1024;
INSERT INTO citation_urls_monthly_by_year SELECT * FROM citation_urls_monthly;
EXCHANGE TABLES citation_urls_monthly AND citation_urls_monthly_by_year {{ON_CLUSTER}};
DROP TABLE citation_urls_monthly_by_year {{ON_CLUSTER}};

CREATE MATERIALIZED VIEW IF NOT EXISTS entity_daily_mv {{ON_CLUSTER}} TO entity_daily AS
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

CREATE MATERIALIZED VIEW IF NOT EXISTS citation_domains_monthly_mv {{ON_CLUSTER}} TO citation_domains_monthly AS
SELECT brand_id, month, domain, category, generation,
  sum(citation_sum) AS citation_sum,
  sum(domain_firsts) AS domain_firsts,
  sum(group_firsts) AS group_firsts,
  sum(answer_firsts) AS answer_firsts,
  max(latest_at) AS latest_at
FROM citation_domain_models_monthly
GROUP BY brand_id, month, domain, category, generation;

CREATE MATERIALIZED VIEW IF NOT EXISTS citation_urls_monthly_mv {{ON_CLUSTER}} TO citation_urls_monthly AS
SELECT brand_id, toStartOfMonth(day) AS month, domain, url_hash, category, article_type, generation,
  sum(sign) AS citation_sum,
  maxIf(day, sign > 0) AS latest_day,
  maxIf(day, sign > 0 AND title != '') AS titled_day
FROM answer_citations
GROUP BY brand_id, month, domain, url_hash, category, article_type, generation;

CREATE MATERIALIZED VIEW IF NOT EXISTS citation_urls_quarterly_mv {{ON_CLUSTER}} TO citation_urls_quarterly AS
SELECT brand_id, toStartOfQuarter(month) AS quarter, domain, url_hash, category, article_type, generation,
  sum(citation_sum) AS citation_sum,
  max(latest_day) AS latest_day,
  max(titled_day) AS titled_day
FROM citation_urls_monthly
GROUP BY brand_id, quarter, domain, url_hash, category, article_type, generation;
