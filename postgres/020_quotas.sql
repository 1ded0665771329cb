-- Monthly quota use per organization and kind (briefs, drafts, audits). One row per calendar month
-- in UTC (`period` is the month's first day). The limit is not stored here: it comes from the plan
-- or the organization's override (organizations.quota_*), read by src/tenancy/quotas.ts, and a
-- unit is taken with one conditional upsert so concurrent requests cannot overshoot it.
CREATE TABLE quota_usage (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  kind            text NOT NULL CHECK (kind IN ('briefs', 'drafts', 'audits')),
  period          date NOT NULL CHECK (extract(day FROM period) = 1),
  used            integer NOT NULL DEFAULT 0 CHECK (used >= 0),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, kind, period)
);
