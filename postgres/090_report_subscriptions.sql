-- Reports by email (docs/app.md, Settings > Reports): a person's daily or weekly email about one
-- brand, sent at the UTC hour they chose. `last_period_end` is the last day of the last period
-- mailed (NULL: none yet, so a new subscription has one due). `token` ends the subscription from
-- the mail's List-Unsubscribe address without a session: 32 random bytes, unguessable, one per
-- subscription. `app_url` is the address the app was reached at when subscribing, for the mail's
-- links when PUBLIC_URL is unset.
CREATE TABLE report_subscriptions (
  id              uuid PRIMARY KEY,
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  brand_id        uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  frequency       text NOT NULL CHECK (frequency IN ('daily', 'weekly')),
  hour            smallint NOT NULL DEFAULT 7 CHECK (hour BETWEEN 0 AND 23),
  token           text NOT NULL UNIQUE,
  app_url         text NOT NULL,
  last_period_end date,
  last_sent_at    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, brand_id, frequency)
);
CREATE INDEX report_subscriptions_org ON report_subscriptions (organization_id);
