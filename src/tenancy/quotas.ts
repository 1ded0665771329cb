// Monthly plan quotas (docs/api.md section 1): content briefs, content drafts and site audits.
// The limit is the organization's override (organizations.quota_*) or else its plan's default;
// -1 means unlimited. Periods are calendar months in UTC. Taking a unit is one conditional upsert,
// so with one unit left exactly one of N concurrent callers gets it, on real Postgres and PGlite.
import { ApiError } from '../errors.ts';
import type { Queryable } from '../stores/postgres.ts';

export type QuotaKind = 'briefs' | 'drafts' | 'audits';
export type Plan = 'starter' | 'growth' | 'business';

/** Plan defaults per month; -1 is unlimited. */
export const PLAN_QUOTAS: Record<Plan, Record<QuotaKind, number>> = {
  starter: { briefs: 10, drafts: 10, audits: 100 },
  growth: { briefs: 50, drafts: 50, audits: 500 },
  business: { briefs: 200, drafts: 200, audits: -1 },
};

/** How the 402 message names each limit. */
const LIMIT_NAMES: Record<QuotaKind, string> = {
  briefs: 'content brief',
  drafts: 'content draft',
  audits: 'site audit',
};

export interface QuotaLimit {
  limit: number;
  plan: Plan;
  /** True when the organization's own value replaces the plan default. */
  overridden: boolean;
}

export interface QuotaStatus {
  used: number;
  /** -1 when unlimited. */
  limit: number;
  /** -1 when unlimited, else max(0, limit - used). */
  remaining: number;
}

/** The quota period of a moment: the first day of its UTC month, `YYYY-MM-01`. */
export function quotaPeriod(at: Date = new Date()): string {
  return `${at.toISOString().slice(0, 7)}-01`;
}

export async function quotaLimit(db: Queryable, organizationId: string, kind: QuotaKind): Promise<QuotaLimit> {
  // The column name comes from the fixed QuotaKind union, never from input.
  const { rows } = await db.query(`SELECT plan, quota_${kind} AS override FROM organizations WHERE id = $1`, [
    organizationId,
  ]);
  if (!rows[0]) throw new ApiError(404, 'Organization not found');
  const plan = rows[0].plan as Plan;
  const override = rows[0].override as number | null;
  return override === null || override === undefined
    ? { limit: PLAN_QUOTAS[plan][kind], plan, overridden: false }
    : { limit: override, plan, overridden: true };
}

/** `Monthly site audit limit reached (100 on the starter plan)`. */
export function limitMessage(kind: QuotaKind, q: QuotaLimit): string {
  const source = q.overridden ? "your organization's custom limit" : `the ${q.plan} plan`;
  return `Monthly ${LIMIT_NAMES[kind]} limit reached (${q.limit} on ${source})`;
}

export interface QuotaUse extends QuotaStatus {
  /** The month the unit was taken from; pass it to releaseQuota to give that unit back. */
  period: string;
}

/**
 * Takes one unit of this month's quota or throws 402 naming the limit. Unlimited quotas still
 * count use (for quotaStatus). Safe to call inside a transaction: pass its client as `db`.
 */
export async function useQuota(
  db: Queryable,
  organizationId: string,
  kind: QuotaKind,
  now: Date = new Date(),
): Promise<QuotaUse> {
  const q = await quotaLimit(db, organizationId, kind);
  const period = quotaPeriod(now);
  if (q.limit === 0) throw new ApiError(402, limitMessage(kind, q));
  // The WHERE of DO UPDATE is evaluated on the latest row version under its row lock, so
  // concurrent callers queue on the row and only those that still find room increment it.
  // -1 (unlimited) compares as "always room" through the $4 < 0 branch.
  const { rows } = await db.query(
    `INSERT INTO quota_usage (organization_id, kind, period, used)
     VALUES ($1, $2, $3::date, 1)
     ON CONFLICT (organization_id, kind, period) DO UPDATE
       SET used = quota_usage.used + 1, updated_at = now()
       WHERE $4::int < 0 OR quota_usage.used < $4::int
     RETURNING used`,
    [organizationId, kind, period, q.limit],
  );
  if (!rows[0]) throw new ApiError(402, limitMessage(kind, q));
  const used = Number(rows[0].used);
  return { period, used, limit: q.limit, remaining: q.limit < 0 ? -1 : Math.max(0, q.limit - used) };
}

/**
 * Gives one unit back to the month it was taken from (a failed generation or audit). Never
 * goes below zero; returns whether a unit was returned.
 */
export async function releaseQuota(
  db: Queryable,
  organizationId: string,
  kind: QuotaKind,
  period: string = quotaPeriod(),
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE quota_usage SET used = used - 1, updated_at = now()
     WHERE organization_id = $1 AND kind = $2 AND period = $3::date AND used > 0`,
    [organizationId, kind, period],
  );
  return (rowCount ?? 0) > 0;
}

/** `{used, limit, remaining}` for the month of `now`; limit and remaining are -1 when unlimited. */
export async function quotaStatus(
  db: Queryable,
  organizationId: string,
  kind: QuotaKind,
  now: Date = new Date(),
): Promise<QuotaStatus> {
  const q = await quotaLimit(db, organizationId, kind);
  const { rows } = await db.query(
    'SELECT used FROM quota_usage WHERE organization_id = $1 AND kind = $2 AND period = $3::date',
    [organizationId, kind, quotaPeriod(now)],
  );
  const used = rows[0] ? Number(rows[0].used) : 0;
  return { used, limit: q.limit, remaining: q.limit < 0 ? -1 : Math.max(0, q.limit - used) };
}
