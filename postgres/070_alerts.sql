-- Alerts (docs/api.md section 15, docs/alerts.md): rules per brand, and the firings the daily
-- evaluate-alerts job records (src/alerts/).

-- A rule compares one metric of the last `window_days` complete UTC days with the window before.
-- `firing` is true from a firing until an evaluation whose gates pass finds the condition false
-- (the rule has cleared): a rule fires once per episode, not every day the condition holds.
-- `evaluated_on` is the job date of the last evaluation: claiming it makes a day's run idempotent.
CREATE TABLE alert_rules (
  id              uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  brand_id        uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  metric          text NOT NULL
                  CHECK (metric IN ('ai_visibility_score', 'mention_rate', 'citation_rate', 'share_of_voice', 'net_sentiment')),
  condition       text NOT NULL CHECK (condition IN ('drops_by', 'rises_by', 'below', 'above')),
  threshold       double precision NOT NULL,
  window_days     integer NOT NULL CHECK (window_days BETWEEN 1 AND 90),
  firing          boolean NOT NULL DEFAULT false,
  evaluated_on    date,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX alert_rules_brand ON alert_rules (brand_id, created_at);

-- One row per firing, with both windows' values and answer counts as the evaluation saw them.
-- The rule's definition is copied so a firing still reads right after its rule is deleted.
-- UNIQUE (rule_id, evaluated_on): a second run of the same day cannot fire the rule again.
CREATE TABLE alerts (
  id               uuid PRIMARY KEY,
  organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  brand_id         uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  rule_id          uuid NOT NULL,
  metric           text NOT NULL,
  condition        text NOT NULL,
  threshold        double precision NOT NULL,
  window_days      integer NOT NULL,
  evaluated_on     date NOT NULL,
  previous_from    date NOT NULL,
  previous_to      date NOT NULL,
  current_from     date NOT NULL,
  current_to       date NOT NULL,
  previous         double precision NOT NULL,
  current          double precision NOT NULL,
  n_previous       integer NOT NULL,
  n_current        integer NOT NULL,
  -- Whole milliseconds: the paging cursor carries the instant as JavaScript writes it.
  created_at       timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  UNIQUE (rule_id, evaluated_on)
);
CREATE INDEX alerts_brand ON alerts (brand_id, created_at DESC, id DESC);
CREATE INDEX alerts_brand_day ON alerts (brand_id, current_to);
