// The site_audits table: the resource the API shows and the durable queue the worker claims
// from. Every state change is a conditional UPDATE on `status = 'running'` (and the claim token),
// so a late or duplicate worker can never overwrite a finished audit.
import { randomUUID } from 'node:crypto';
import type { Postgres } from '../stores/postgres.ts';
import { releaseQuota, useQuota } from '../tenancy/quotas.ts';
import type { AuditResult } from './audit.ts';

export interface AuditRow {
  id: string;
  organization_id: string;
  brand_id: string;
  url: string;
  final_url: string | null;
  status: 'running' | 'completed' | 'failed';
  total_score: number | null;
  category_scores: Record<string, number | null> | null;
  /** As stored when it completed (JSON of the audit's result). */
  signals: AuditResult['signals'] | null;
  recommendations: AuditResult['recommendations'] | null;
  signals_evaluated: number | null;
  signals_total: number | null;
  error: string | null;
  quota_period: string;
  attempts: number;
  created_at: Date;
  completed_at: Date | null;
}

const COLUMNS = `id, organization_id, brand_id, url, final_url, status, total_score, category_scores, signals,
  recommendations, signals_evaluated, signals_total, error, to_char(quota_period, 'YYYY-MM-DD') AS quota_period,
  attempts, created_at, completed_at`;

/** Takes one audit unit and records the audit as `running`, in one transaction. */
export async function createAudit(
  pg: Postgres,
  a: { organizationId: string; brandId: string; url: string; now: Date },
): Promise<AuditRow> {
  return pg.tx(async (client) => {
    const use = await useQuota(client, a.organizationId, 'audits', a.now);
    const { rows } = await client.query<AuditRow>(
      `INSERT INTO site_audits (id, organization_id, brand_id, url, quota_period)
       VALUES ($1, $2, $3, $4, $5::date) RETURNING ${COLUMNS}`,
      [randomUUID(), a.organizationId, a.brandId, a.url, use.period],
    );
    return rows[0];
  });
}

export async function listAudits(pg: Postgres, brandId: string, limit = 50): Promise<AuditRow[]> {
  const { rows } = await pg.query<AuditRow>(
    `SELECT ${COLUMNS} FROM site_audits WHERE brand_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [brandId, limit],
  );
  return rows;
}

/** The audit if it belongs to the organization (another tenant's audit does not exist). */
export async function auditInOrganization(
  pg: Postgres,
  organizationId: string | null,
  id: string,
): Promise<AuditRow | undefined> {
  if (!organizationId) return undefined;
  const { rows } = await pg.query<AuditRow>(
    `SELECT ${COLUMNS} FROM site_audits WHERE id = $1 AND organization_id = $2`,
    [id, organizationId],
  );
  return rows[0];
}

export interface Claim {
  id: string;
  url: string;
  token: string;
  attempts: number;
}

/** Claims the oldest running audit that nobody holds (or whose holder went silent). */
export async function claimAudit(pg: Postgres, opts: { staleMs: number; maxAttempts: number }): Promise<Claim | null> {
  const token = randomUUID();
  // SKIP LOCKED lets several instances claim side by side on a real server; the repeated
  // conditions on the outer UPDATE keep the claim exclusive on any Postgres, PGlite included.
  const unheld = "(claimed_at IS NULL OR claimed_at < now() - $2::double precision * interval '1 millisecond')";
  const { rows } = await pg.query(
    `UPDATE site_audits SET claimed_at = now(), claim_token = $1, attempts = attempts + 1
     WHERE id = (
       SELECT id FROM site_audits
       WHERE status = 'running' AND attempts < $3
         AND ${unheld}
       ORDER BY created_at LIMIT 1
       FOR UPDATE SKIP LOCKED)
     AND status = 'running' AND ${unheld}
     RETURNING id, url, attempts`,
    [token, opts.staleMs, opts.maxAttempts],
  );
  return rows[0] ? { id: rows[0].id, url: rows[0].url, token, attempts: rows[0].attempts } : null;
}

export async function completeAudit(pg: Postgres, claim: Claim, r: AuditResult): Promise<boolean> {
  const { rowCount } = await pg.query(
    `UPDATE site_audits SET status = 'completed', completed_at = now(), final_url = $3, total_score = $4,
       category_scores = $5, signals = $6, recommendations = $7, signals_evaluated = $8, signals_total = $9
     WHERE id = $1 AND claim_token = $2 AND status = 'running'`,
    [
      claim.id,
      claim.token,
      r.finalUrl,
      r.totalScore,
      JSON.stringify(r.categoryScores),
      JSON.stringify(r.signals),
      JSON.stringify(r.recommendations),
      r.signalsEvaluated,
      r.signalsTotal,
    ],
  );
  return (rowCount ?? 0) > 0;
}

/** Fails a running audit and gives its quota unit back to the month it came from. */
export async function failAudit(pg: Postgres, claim: Claim, error: string): Promise<boolean> {
  return pg.tx(async (client) => {
    const { rows } = await client.query(
      `UPDATE site_audits SET status = 'failed', completed_at = now(), error = $3
       WHERE id = $1 AND claim_token = $2 AND status = 'running'
       RETURNING organization_id, to_char(quota_period, 'YYYY-MM-DD') AS period`,
      [claim.id, claim.token, error],
    );
    if (rows[0]) await releaseQuota(client, rows[0].organization_id, 'audits', rows[0].period);
    return rows.length > 0;
  });
}

/**
 * Fails the running audits whose last allowed attempt went stale (the worker holding them died
 * each time), returning their units. Returns how many were failed.
 */
export async function failExhausted(pg: Postgres, opts: { staleMs: number; maxAttempts: number }): Promise<number> {
  return pg.tx(async (client) => {
    const { rows } = await client.query(
      `UPDATE site_audits SET status = 'failed', completed_at = now(),
         error = 'The audit was interrupted ' || attempts || ' times (service restarts) and was given up'
       WHERE status = 'running' AND attempts >= $2
         AND (claimed_at IS NULL OR claimed_at < now() - $1::double precision * interval '1 millisecond')
       RETURNING organization_id, to_char(quota_period, 'YYYY-MM-DD') AS period`,
      [opts.staleMs, opts.maxAttempts],
    );
    for (const r of rows) await releaseQuota(client, r.organization_id, 'audits', r.period);
    return rows.length;
  });
}
