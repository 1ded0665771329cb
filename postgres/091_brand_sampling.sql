-- How many answers a brand's daily capture takes per (prompt, platform, region) (docs/metrics.md
-- "Adaptive sampling"): `fixed`, `samples` a day (NULL: the server's TRACKING_SAMPLES), or
-- `adaptive`, `max_samples` while the cell's 28-day Wilson interval of the brand's mention rate is
-- wider than `target_half_width` points, else `min_samples`.
ALTER TABLE brands
  ADD COLUMN sampling text NOT NULL DEFAULT 'fixed' CHECK (sampling IN ('fixed', 'adaptive')),
  ADD COLUMN samples integer CHECK (samples BETWEEN 1 AND 20),
  ADD COLUMN min_samples integer NOT NULL DEFAULT 1 CHECK (min_samples BETWEEN 1 AND 20),
  ADD COLUMN max_samples integer CHECK (max_samples BETWEEN 1 AND 20),
  ADD COLUMN target_half_width double precision NOT NULL DEFAULT 5
    CHECK (target_half_width > 0 AND target_half_width <= 50),
  ADD CONSTRAINT brands_adaptive_sampling
    CHECK (sampling = 'fixed' OR (max_samples IS NOT NULL AND max_samples >= min_samples));

-- Why each slot was planned: fixed, no_history, interval_wide, interval_narrow, or limit (the plan's
-- daily or monthly capture limit cut the cell). Slots planned before sampling had reasons: NULL.
ALTER TABLE capture_runs ADD COLUMN reason text
  CHECK (reason IN ('fixed', 'no_history', 'interval_wide', 'interval_narrow', 'limit'));
-- The plan's capture limits count an organization's slots of a day and of a month.
CREATE INDEX capture_runs_organization_day ON capture_runs (organization_id, day);
