-- Monthly rollups of answer_citations for the citations figures. A brand cites thousands of
-- domains and a hundred thousand URLs over a year, spread over every day, so a daily rollup keeps
-- nearly every row; a month folds each domain's and URL's citations into one row per month. Whole months of a range read these, the days at its edges read
-- answer_citations (src/analytics/citation-source.ts). As in the daily rollups, the views see every
-- inserted block, cancel rows included, and add them with their sign, so a replaced answer is
-- subtracted here exactly as in the source table. Column names differ from the source's so the
-- views' aliases cannot shadow a source column inside an aggregate.
--
-- Sorted by domain before month: every part holds one month (the partition), and the details of
-- the listed domains then read a few small granules instead of a slice of every granule.

-- Per (brand, month, domain, category, model, region): citations, first-of-kind sums (answers
-- citing the domain, answers with a citation of the source group, answers with any citation) and
-- the time of the newest live row (which category is the domain's latest). The models citing each
-- listed domain, and the domain figures under a model or region filter, read this one.
CREATE TABLE IF NOT EXISTS citation_domain_models_monthly {{ON_CLUSTER}} (
  brand_id      UUID,
  month         Date,
  domain        LowCardinality(String),
  category      LowCardinality(String),
  model         LowCardinality(String),
  region        LowCardinality(String),
  citation_sum  SimpleAggregateFunction(sum, Int64),
  domain_firsts SimpleAggregateFunction(sum, Int64),
  group_firsts  SimpleAggregateFunction(sum, Int64),
  answer_firsts SimpleAggregateFunction(sum, Int64),
  latest_at     SimpleAggregateFunction(max, DateTime64(3, 'UTC'))
) ENGINE = {{REPLICATED}}AggregatingMergeTree
PARTITION BY toYYYYMM(month)
ORDER BY (brand_id, domain, category, model, region, month)
SETTINGS index_granularity = 1024;

CREATE MATERIALIZED VIEW IF NOT EXISTS citation_domain_models_monthly_mv {{ON_CLUSTER}} TO citation_domain_models_monthly AS
SELECT brand_id, toStartOfMonth(day) AS month, domain, category, model, region,
  sum(sign) AS citation_sum,
  sum(sign * domain_first) AS domain_firsts,
  sum(sign * group_first) AS group_firsts,
  sum(sign * answer_first) AS answer_firsts,
  maxIf(collected_at, sign > 0) AS latest_at
FROM answer_citations
GROUP BY brand_id, month, domain, category, model, region;

-- The same summed over model and region: the domain figures without a model or region filter read
-- this one, some thirty thousand rows for a year of a brand. Its view reads the blocks written to
-- the one above (already grouped), not every citation again.
CREATE TABLE IF NOT EXISTS citation_domains_monthly {{ON_CLUSTER}} (
  brand_id      UUID,
  month         Date,
  domain        LowCardinality(String),
  category      LowCardinality(String),
  citation_sum  SimpleAggregateFunction(sum, Int64),
  domain_firsts SimpleAggregateFunction(sum, Int64),
  group_firsts  SimpleAggregateFunction(sum, Int64),
  answer_firsts SimpleAggregateFunction(sum, Int64),
  latest_at     SimpleAggregateFunction(max, DateTime64(3, 'UTC'))
) ENGINE = {{REPLICATED}}AggregatingMergeTree
PARTITION BY toYYYYMM(month)
ORDER BY (brand_id, domain, category, month)
SETTINGS index_granularity = 1024;

CREATE MATERIALIZED VIEW IF NOT EXISTS citation_domains_monthly_mv {{ON_CLUSTER}} TO citation_domains_monthly AS
SELECT brand_id, month, domain, category,
  sum(citation_sum) AS citation_sum,
  sum(domain_firsts) AS domain_firsts,
  sum(group_firsts) AS group_firsts,
  sum(answer_firsts) AS answer_firsts,
  max(latest_at) AS latest_at
FROM citation_domain_models_monthly
GROUP BY brand_id, month, domain, category;

-- Per (brand, month, URL, category, article type): citations (a URL is cited at most once per
-- answer, so also the answers citing it), and the newest day with a live row and with a titled
-- live row, where the URL's latest details are read from answer_citations.
CREATE TABLE IF NOT EXISTS citation_urls_monthly {{ON_CLUSTER}} (
  brand_id     UUID,
  month        Date,
  domain       LowCardinality(String),
  url_hash     UInt64,
  category     LowCardinality(String),
  article_type LowCardinality(String),
  citation_sum SimpleAggregateFunction(sum, Int64),
  latest_day   SimpleAggregateFunction(max, Date),
  titled_day   SimpleAggregateFunction(max, Date)
) ENGINE = {{REPLICATED}}AggregatingMergeTree
PARTITION BY toYYYYMM(month)
ORDER BY (brand_id, domain, url_hash, category, article_type, month)
SETTINGS index_granularity = 1024;

CREATE MATERIALIZED VIEW IF NOT EXISTS citation_urls_monthly_mv {{ON_CLUSTER}} TO citation_urls_monthly AS
SELECT brand_id, toStartOfMonth(day) AS month, domain, url_hash, category, article_type,
  sum(sign) AS citation_sum,
  maxIf(day, sign > 0) AS latest_day,
  maxIf(day, sign > 0 AND title != '') AS titled_day
FROM answer_citations
GROUP BY brand_id, month, domain, url_hash, category, article_type;

-- Citations stored before this migration: roll them up once (only into empty rollups, so applying
-- the file again after a failure cannot count them twice; nothing ingests while migrations run).
-- citation_domains_monthly fills itself from the first insert, through its view.
INSERT INTO citation_domain_models_monthly
SELECT brand_id, toStartOfMonth(day), domain, category, model, region,
  sum(sign), sum(sign * domain_first), sum(sign * group_first), sum(sign * answer_first), maxIf(collected_at, sign > 0)
FROM answer_citations
WHERE (SELECT count() FROM citation_domain_models_monthly) = 0
GROUP BY brand_id, toStartOfMonth(day), domain, category, model, region;

INSERT INTO citation_urls_monthly
SELECT brand_id, toStartOfMonth(day), domain, url_hash, category, article_type,
  sum(sign), maxIf(day, sign > 0), maxIf(day, sign > 0 AND title != '')
FROM answer_citations
WHERE (SELECT count() FROM citation_urls_monthly) = 0
GROUP BY brand_id, toStartOfMonth(day), domain, url_hash, category, article_type;
