// Alert rules of a brand (postgres/070_alerts.sql): what they may say, and create / list / find /
// delete. Tenancy: every read and write names the caller's organization, so another
// organization's rule is simply not found.
import { randomUUID } from 'node:crypto';
import type { Postgres, Queryable } from '../stores/postgres.ts';
import { badRequest } from '../errors.ts';
import { UUID_RE } from '../uuid.ts';
import { lockOrganization } from '../tenancy/organizations.ts';

export const METRICS = [
  'ai_visibility_score',
  'mention_rate',
  'citation_rate',
  'share_of_voice',
  'net_sentiment',
] as const;
export type Metric = (typeof METRICS)[number];

export const CONDITIONS = ['drops_by', 'rises_by', 'below', 'above'] as const;
export type Condition = (typeof CONDITIONS)[number];

/** The values each metric can take: rates, score and share are percentages, net sentiment -100..100. */
export const METRIC_RANGE: Record<Metric, { min: number; max: number }> = {
  ai_visibility_score: { min: 0, max: 100 },
  mention_rate: { min: 0, max: 100 },
  citation_rate: { min: 0, max: 100 },
  share_of_voice: { min: 0, max: 100 },
  net_sentiment: { min: -100, max: 100 },
};

/**
 * Why `threshold` makes no sense for the metric and condition, or null. A level (below, above)
 * lies in the metric's range; a change (drops_by, rises_by) is more than 0 and at most its span.
 */
export function thresholdProblem(metric: Metric, condition: Condition, threshold: number): string | null {
  const { min, max } = METRIC_RANGE[metric];
  if (condition === 'drops_by' || condition === 'rises_by') {
    const span = max - min;
    return threshold > 0 && threshold <= span
      ? null
      : `threshold of ${condition} must be greater than 0 and at most ${span} for ${metric}`;
  }
  return threshold >= min && threshold <= max
    ? null
    : `threshold of ${condition} must be between ${min} and ${max} for ${metric}`;
}

/** Rules per brand; a runaway script should not make the daily job unbounded. */
export const MAX_RULES_PER_BRAND = 100;

export interface RuleRow {
  id: string;
  organization_id: string;
  brand_id: string;
  metric: Metric;
  condition: Condition;
  threshold: number;
  window_days: number;
  /** Fired and not yet cleared. */
  firing: boolean;
  /** The job date of the last evaluation (YYYY-MM-DD), or null before the first. */
  evaluated_on: string | null;
  created_at: Date;
}

const COLUMNS = `id, organization_id, brand_id, metric, condition, threshold, window_days, firing,
  to_char(evaluated_on, 'YYYY-MM-DD') AS evaluated_on, created_at`;

export async function createRule(
  pg: Postgres,
  input: {
    organizationId: string;
    brandId: string;
    metric: Metric;
    condition: Condition;
    threshold: number;
    windowDays: number;
  },
): Promise<RuleRow> {
  return pg.tx(async (client) => {
    // Serialises creations of the organization so the cap holds under concurrent requests.
    await lockOrganization(client, input.organizationId);
    const {
      rows: [{ n }],
    } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_rules WHERE brand_id = $1', [
      input.brandId,
    ]);
    if (n >= MAX_RULES_PER_BRAND) throw badRequest(`At most ${MAX_RULES_PER_BRAND} alert rules per brand`);
    const { rows } = await client.query<RuleRow>(
      `INSERT INTO alert_rules (id, organization_id, brand_id, metric, condition, threshold, window_days)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [
        randomUUID(),
        input.organizationId,
        input.brandId,
        input.metric,
        input.condition,
        input.threshold,
        input.windowDays,
      ],
    );
    return rows[0];
  });
}

/** The brand's rules, oldest first. The brand is already resolved in the caller's organization. */
export async function listRules(pg: Postgres, brandId: string): Promise<RuleRow[]> {
  const { rows } = await pg.query<RuleRow>(
    `SELECT ${COLUMNS} FROM alert_rules WHERE brand_id = $1 ORDER BY created_at, id`,
    [brandId],
  );
  return rows;
}

/** Deletes the rule if it belongs to the organization; false for unknown, malformed or foreign ids. */
export async function deleteRule(pg: Postgres, organizationId: string | null, id: string): Promise<boolean> {
  if (!organizationId || !UUID_RE.test(id)) return false;
  const { rowCount } = await pg.query('DELETE FROM alert_rules WHERE id = $1 AND organization_id = $2', [
    id.toLowerCase(),
    organizationId,
  ]);
  return Boolean(rowCount);
}

/** Rules not yet evaluated for `day`, oldest first, of one brand or all (the job's scope). */
export async function rulesDue(pg: Postgres, day: string, brandId?: string): Promise<RuleRow[]> {
  const { rows } = await pg.query<RuleRow>(
    `SELECT ${COLUMNS} FROM alert_rules
      WHERE (evaluated_on IS NULL OR evaluated_on < $1::date) AND ($2::uuid IS NULL OR brand_id = $2)
      ORDER BY created_at, id`,
    [day, brandId ?? null],
  );
  return rows;
}

/**
 * Claims the rule's evaluation of `day` and records its outcome: `firing` becomes `firing`, or
 * stays as it was when null (a gated-out evaluation). Returns whether the rule was firing before,
 * or null when another run has evaluated it for this day or a later one (the caller then does
 * nothing more). Inside the caller's transaction, so a firing is stored with its claim.
 */
export async function claimEvaluation(
  db: Queryable,
  ruleId: string,
  day: string,
  firing: boolean | null,
): Promise<{ wasFiring: boolean } | null> {
  const { rows } = await db.query<{ was_firing: boolean }>(
    `UPDATE alert_rules r SET evaluated_on = $2::date, firing = coalesce($3::boolean, old.firing)
       FROM (SELECT id, firing FROM alert_rules WHERE id = $1 FOR UPDATE) old
      WHERE r.id = old.id AND (r.evaluated_on IS NULL OR r.evaluated_on < $2::date)
      RETURNING old.firing AS was_firing`,
    [ruleId, day, firing],
  );
  return rows[0] ? { wasFiring: rows[0].was_firing } : null;
}
