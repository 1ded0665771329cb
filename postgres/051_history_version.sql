-- Result cache keys that survive today's ingest (docs/performance.md, "Invalidation"). data_version
-- changes with every change of a brand's figures; history_version only with those that can reach a
-- day before the current one (an answer of an earlier day, a workspace change, a re-analysis).
-- Figures of a range whose last day ended over an hour ago are cached under history_version, so
-- the daily ingest of today's answers leaves them in place.
ALTER TABLE brands ADD COLUMN history_version bigint NOT NULL DEFAULT 0;
