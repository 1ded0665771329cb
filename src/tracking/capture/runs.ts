// The capture_runs table (postgres/040_capture_runs.sql): one row per slot of a day, recorded before
// anything is asked, claimed right before its capture and finished with the outcome. Every state
// change after the claim is conditional on the claim token and `running`, so a worker whose claim
// went stale (and was taken over) can no longer overwrite the row.
import { randomUUID } from 'node:crypto';
import type { Postgres } from '../../stores/postgres.ts';
import type { SampleReason, Slot } from './plan.ts';
import type { EngineFailure } from './engines/types.ts';

export type RunStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'no_answer' | 'not_configured';

/** Statuses a later run of the same day does not touch again. */
export const FINAL: readonly RunStatus[] = ['succeeded', 'no_answer'];

/** Captures of one slot in one day at most: a slot failing every time stays failed after this many. */
const MAX_CLAIMS = 5;

export interface Claim {
  id: string;
  token: string;
  attempts: number;
}

export interface RunRow {
  id: string;
  status: RunStatus;
  prompt_id: string;
  platform: string;
  region: string;
  sample: number;
  /** Why it was planned (plan.ts SampleReason); null for slots planned before reasons were kept. */
  reason: SampleReason | null;
  error: string | null;
}

const CHUNK = 2000;

/** Records the slots that have no row yet as pending. */
export async function recordSlots(pg: Postgres, slots: Slot[]): Promise<void> {
  for (let i = 0; i < slots.length; i += CHUNK) {
    const part = slots.slice(i, i + CHUNK);
    const col = <K extends keyof Slot>(k: K) => part.map((s) => s[k]);
    await pg.query(
      `INSERT INTO capture_runs (id, organization_id, brand_id, prompt_id, platform, region, day, sample, reason)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::date[],
                            $8::int[], $9::text[])
       ON CONFLICT DO NOTHING`,
      [
        col('id'),
        col('organizationId'),
        col('brandId'),
        col('promptId'),
        col('platform'),
        col('region'),
        col('day'),
        col('sample'),
        col('reason'),
      ],
    );
  }
}

export async function runRows(pg: Postgres, ids: string[]): Promise<Map<string, RunRow>> {
  const out = new Map<string, RunRow>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const { rows } = await pg.query<RunRow>(
      'SELECT id, status, prompt_id, platform, region, sample, reason, error FROM capture_runs ' +
        'WHERE id = ANY($1::uuid[])',
      [ids.slice(i, i + CHUNK)],
    );
    for (const r of rows) out.set(r.id, r);
  }
  return out;
}

/**
 * Claims a slot for a capture: when it is pending or not configured, failed with claims left
 * (MAX_CLAIMS), or running under a claim older than staleMs (its worker died). Null when someone
 * else holds it or it is done.
 */
export async function claimRun(pg: Postgres, id: string, engine: string, staleMs: number): Promise<Claim | null> {
  const token = randomUUID();
  const { rows } = await pg.query<{ attempts: number }>(
    `UPDATE capture_runs
        SET status = 'running', claim_token = $2, claimed_at = now(), attempts = attempts + 1, engine = $3,
            error = NULL, error_kind = NULL, finished_at = NULL
      WHERE id = $1
        AND (status IN ('pending', 'not_configured')
             OR (status = 'failed' AND attempts < $5)
             OR (status = 'running' AND claimed_at < now() - $4::double precision * interval '1 millisecond'))
      RETURNING attempts`,
    [id, token, engine, staleMs, MAX_CLAIMS],
  );
  return rows[0] ? { id, token, attempts: rows[0].attempts } : null;
}

/** Marks stored answers' runs succeeded (one statement for a batch). Returns how many were still held. */
export async function completeRuns(pg: Postgres, done: { claim: Claim; model: string }[]): Promise<number> {
  if (!done.length) return 0;
  const { rowCount } = await pg.query(
    `UPDATE capture_runs c
        SET status = 'succeeded', answer_id = c.id, model = u.model, finished_at = now(), claim_token = NULL
       FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS u(id, token, model)
      WHERE c.id = u.id AND c.claim_token = u.token AND c.status = 'running'`,
    [done.map((d) => d.claim.id), done.map((d) => d.claim.token), done.map((d) => d.model)],
  );
  return rowCount ?? 0;
}

/** Ends a claimed run without an answer: failed with its reason, or no_answer. */
/** Why a run ended without an answer: the engine's failure kinds, or the store refusing/failing. */
export type RunErrorKind = EngineFailure['kind'] | 'store_error' | 'adapter_error';

export async function failRun(pg: Postgres, claim: Claim, f: { kind: RunErrorKind; message: string }): Promise<void> {
  await pg.query(
    `UPDATE capture_runs SET status = $3, error_kind = $4, error = $5, finished_at = now(), claim_token = NULL
      WHERE id = $1 AND claim_token = $2 AND status = 'running'`,
    [claim.id, claim.token, f.kind === 'no_answer' ? 'no_answer' : 'failed', f.kind, f.message],
  );
}

/** Slots whose provider has no key: recorded as not configured (nothing is asked). */
export async function markNotConfigured(pg: Postgres, ids: string[], engine: string, message: string): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    await pg.query(
      `UPDATE capture_runs
          SET status = 'not_configured', engine = $2, error_kind = 'not_configured', error = $3, finished_at = now()
        WHERE id = ANY($1::uuid[]) AND status IN ('pending', 'failed', 'not_configured')`,
      [ids.slice(i, i + CHUNK), engine, message],
    );
  }
}

/**
 * Capture completeness of a brand's days (docs/api.md section 12): planned slots (every row, one per
 * answer owed) and those that succeeded, in the inclusive day range and region when given. A model
 * filter cannot apply: a slot has no model until it is answered. Zero planned: nothing was captured
 * by the service (imported answers only).
 */
export async function captureCompleteness(
  pg: Postgres,
  brandId: string,
  range: { fromDay?: string; toDay?: string; region?: string },
): Promise<{ planned: number; succeeded: number }> {
  // Postgres text cannot hold NUL, so no stored slot has such a region (and binding one is an error).
  if (range.region?.includes('\u0000')) return { planned: 0, succeeded: 0 };
  const { rows } = await pg.query<{ planned: string; succeeded: string }>(
    `SELECT count(*) AS planned, count(*) FILTER (WHERE status = 'succeeded') AS succeeded
       FROM capture_runs
      WHERE brand_id = $1 AND ($2::date IS NULL OR day >= $2) AND ($3::date IS NULL OR day <= $3)
        AND ($4::text IS NULL OR region = $4)`,
    [brandId, range.fromDay ?? null, range.toDay ?? null, range.region ?? null],
  );
  return { planned: Number(rows[0]?.planned ?? 0), succeeded: Number(rows[0]?.succeeded ?? 0) };
}

/**
 * The captures an organization's slots already hold against the plan's limits (tenancy/capture-limits.ts):
 * this month's on other days than `day`, and `day`'s own of brands other than `planning` (the brands
 * being planned now, whose slots of the day this planning decides again).
 */
export async function recordedCaptures(
  pg: Postgres,
  organizationId: string,
  day: string,
  planning: readonly string[],
): Promise<{ month: number; day: number }> {
  const { rows } = await pg.query<{ month: string; day: string }>(
    `SELECT count(*) FILTER (WHERE day <> $2::date) AS month,
            count(*) FILTER (WHERE day = $2::date AND NOT brand_id = ANY($3::uuid[])) AS day
       FROM capture_runs
      WHERE organization_id = $1 AND day >= date_trunc('month', $2::date)
        AND day < date_trunc('month', $2::date) + interval '1 month'`,
    [organizationId, day, planning],
  );
  return { month: Number(rows[0]?.month ?? 0), day: Number(rows[0]?.day ?? 0) };
}
