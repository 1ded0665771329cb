-- Facts to aggregate. Placeholders: {{ON_CLUSTER}} becomes `ON CLUSTER name` on a cluster and
-- nothing on a single node; {{REPLICATED}} prefixes the engine with `Replicated` on a cluster.
--
-- Re-imports: an answer re-imported with the same id is replaced by writing, in one insert per
-- table, a cancel row (sign = -1) for each row it had and the new rows (sign = +1). Every query sums
-- with `sign`, so a replaced answer counts once before and after merges, and a rollup fed by a
-- materialised view stays exact too (it sees the cancel rows). CollapsingMergeTree lets merges drop
-- cancelled pairs to save space; correctness never depends on merges having happened.
--
-- Entity and citation rows exist only for answers that feed the visibility figures (mode other
-- than `shopping`); shopping answers feed shopping_cards only (docs/api.md section 2).

CREATE TABLE IF NOT EXISTS answers {{ON_CLUSTER}} (
  answer_id       UUID,
  organization_id UUID,
  brand_id        UUID,
  prompt_id       UUID,
  platform        LowCardinality(String),
  model           LowCardinality(String),
  region          LowCardinality(String),
  mode            LowCardinality(String),
  collected_at    DateTime64(3, 'UTC'),
  day             Date,
  text            String CODEC(ZSTD(3)),
  citation_count  UInt16,
  product_count   UInt16,
  sign            Int8,
  INDEX answer_id_bloom answer_id TYPE bloom_filter GRANULARITY 4
) ENGINE = {{REPLICATED}}CollapsingMergeTree(sign)
PARTITION BY toYYYYMM(day)
ORDER BY (brand_id, day, answer_id);

-- One row per (answer, tracked entity): the brand itself (entity_id = brand_id) and each competitor.
CREATE TABLE IF NOT EXISTS answer_entities {{ON_CLUSTER}} (
  answer_id  UUID,
  brand_id   UUID,
  entity_id  UUID,
  is_brand   UInt8,
  prompt_id  UUID,
  platform   LowCardinality(String),
  model      LowCardinality(String),
  region     LowCardinality(String),
  day        Date,
  collected_at DateTime64(3, 'UTC') CODEC(Delta, ZSTD(1)),  -- for timestamp-precise date filters
  mentions   UInt32,
  position   UInt16,   -- 0 when the entity is not named
  citations  UInt32,
  score      Float64,  -- per-answer visibility score, unrounded
  sign       Int8
) ENGINE = {{REPLICATED}}CollapsingMergeTree(sign)
PARTITION BY toYYYYMM(day)
ORDER BY (brand_id, entity_id, day, answer_id);

-- One row per cited URL of an answer (de-duplicated by normalised URL within the answer).
CREATE TABLE IF NOT EXISTS answer_citations {{ON_CLUSTER}} (
  answer_id    UUID,
  brand_id     UUID,
  prompt_id    UUID,
  platform     LowCardinality(String),
  model        LowCardinality(String),
  region       LowCardinality(String),
  day          Date,
  collected_at DateTime64(3, 'UTC') CODEC(Delta, ZSTD(1)),
  url          String,
  -- Grouping and matching by this 8-byte hash reads far less than the URL text itself.
  url_hash     UInt64 MATERIALIZED cityHash64(url),
  domain       LowCardinality(String),
  category     LowCardinality(String),
  article_type LowCardinality(String),
  title        String,
  -- 1 on the answer's first citation of this domain / of this source group (you, competitor,
  -- external) / of all: "answers citing X" becomes a sum instead of a distinct count.
  domain_first UInt8,
  group_first  UInt8,
  answer_first UInt8,
  sign         Int8
) ENGINE = {{REPLICATED}}CollapsingMergeTree(sign)
PARTITION BY toYYYYMM(day)
ORDER BY (brand_id, day, answer_id, url);

-- Product cards of shopping answers. card_id is derived from (answer_id, position).
CREATE TABLE IF NOT EXISTS shopping_cards {{ON_CLUSTER}} (
  card_id            UUID,
  answer_id          UUID,
  organization_id    UUID,
  brand_id           UUID,
  prompt_id          UUID,
  platform           LowCardinality(String),
  model              LowCardinality(String),
  region             LowCardinality(String),
  day                Date,
  created_at         DateTime64(3, 'UTC'),
  position           UInt16,
  product_title      String,
  product_brand      String,
  price_amount       Nullable(Float64),
  price_currency     Nullable(String),
  image_url          Nullable(String),
  merchant_url       Nullable(String),
  merchant_domain    Nullable(String),
  rating             Nullable(Float64),
  review_count       Nullable(UInt32),
  raw                String,
  matched_brand_id   Nullable(UUID),
  matched_brand_role LowCardinality(String),
  sign               Int8
) ENGINE = {{REPLICATED}}CollapsingMergeTree(sign)
PARTITION BY toYYYYMM(day)
ORDER BY (brand_id, day, answer_id, position, card_id);

-- Visits that AI answers sent to a brand's site, recorded by the tracking script. Never the IP.
CREATE TABLE IF NOT EXISTS ai_visits {{ON_CLUSTER}} (
  brand_id      UUID,
  ts            DateTime64(3, 'UTC'),
  day           Date,
  platform      LowCardinality(String),
  path          String,
  country       LowCardinality(String),
  referrer_host String
) ENGINE = {{REPLICATED}}MergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (brand_id, day, platform);
