-- The URL rollup of 004 folded once more, by calendar quarter. The top URLs of a long range group
-- every URL's rows of every month in it (a year of the bench's brand: 1.27 M monthly rows for
-- 108,000 URLs), which made them the slowest part of the citations figures; a quarter holds a
-- third of the rows. The whole quarters of a range read this, its other whole months the monthly
-- rollup and its edge days answer_citations (src/analytics/citation-source.ts): the same
-- sign-weighted sums whichever part answers.
--
-- Fed from the monthly rollup's inserted blocks (as citation_domains_monthly is fed from
-- citation_domain_models_monthly), which are already summed per URL and month, so an ingest pays
-- for a small second grouping only. Same sort key as the monthly one, the quarter in the month's
-- place: the article types of the listed domains read a few granules per domain.
CREATE TABLE IF NOT EXISTS citation_urls_quarterly {{ON_CLUSTER}} (
  brand_id     UUID,
  quarter      Date,
  domain       LowCardinality(String),
  url_hash     UInt64,
  category     LowCardinality(String),
  article_type LowCardinality(String),
  generation   UInt32,
  citation_sum SimpleAggregateFunction(sum, Int64),
  latest_day   SimpleAggregateFunction(max, Date),
  titled_day   SimpleAggregateFunction(max, Date)
) ENGINE = {{REPLICATED}}AggregatingMergeTree
PARTITION BY toYear(quarter)
ORDER BY (brand_id, domain, url_hash, category, article_type, quarter, generation)
SETTINGS index_granularity = 1024;

CREATE MATERIALIZED VIEW IF NOT EXISTS citation_urls_quarterly_mv {{ON_CLUSTER}} TO citation_urls_quarterly AS
SELECT brand_id, toStartOfQuarter(month) AS quarter, domain, url_hash, category, article_type, generation,
  sum(citation_sum) AS citation_sum,
  max(latest_day) AS latest_day,
  max(titled_day) AS titled_day
FROM citation_urls_monthly
GROUP BY brand_id, quarter, domain, url_hash, category, article_type, generation;

-- What the monthly rollup held before the view existed, once (a second run of this file adds nothing).
INSERT INTO citation_urls_quarterly
SELECT brand_id, toStartOfQuarter(month), domain, url_hash, category, article_type, generation,
  sum(citation_sum), max(latest_day), max(titled_day)
FROM citation_urls_monthly
WHERE (SELECT count() FROM citation_urls_quarterly) = 0
GROUP BY brand_id, toStartOfQuarter(month), domain, url_hash, category, article_type, generation;
