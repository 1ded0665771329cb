// The brand's re-analysis row (postgres/050_reanalysis.sql, docs/api.md section 10): queued by a
// change of its entities, claimed by one worker (or started by `answerscope reanalyze`), and
// finished by switching the brand to the generation it wrote. Every transition is one statement,
// so two instances never both take a row and no statement here waits on another connection.
import type { Queryable } from '../stores/postgres.ts';

export type ReanalysisState = 'queued' | 'running' | 'done' | 'failed';

/** A reanalyses row as operators read it: JSON values, timestamps as ISO strings. */
export interface ReanalysisStatus {
  brand_id: string;
  status: ReanalysisState;
  reason: string;
  /** A change came while it ran: it runs once more after this run. */
  requested_again: boolean;
  target_generation: number | null;
  answers_total: number | null;
  answers_done: number;
  requested_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
}

const COLUMNS = `brand_id, status, reason, requested_again, target_generation, answers_total, answers_done,
  requested_at, started_at, finished_at, error`;

type Row = Omit<ReanalysisStatus, 'requested_at' | 'started_at' | 'finished_at'> & {
  requested_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function asStatus(r: Row): ReanalysisStatus {
  return { ...r, requested_at: iso(r.requested_at)!, started_at: iso(r.started_at), finished_at: iso(r.finished_at) };
}

/**
 * Asks for a re-analysis of the brand. A pending request (queued, or requested again while running)
 * absorbs this one: both changes are covered by the same run, so the reasons are joined and a
 * queued row keeps its place. A running row stays running and runs again after (requested_again),
 * since it may have read the entities before this change. Returns the row's status afterwards.
 */
export async function queueReanalysis(db: Queryable, brandId: string, reason: string): Promise<ReanalysisState> {
  const { rows } = await db.query<{ status: ReanalysisState }>(
    `INSERT INTO reanalyses AS r (brand_id, status, reason) VALUES ($1, 'queued', $2)
     ON CONFLICT (brand_id) DO UPDATE SET
       status = CASE WHEN r.status = 'running' THEN 'running' ELSE 'queued' END,
       requested_again = r.status = 'running',
       reason = CASE
         WHEN NOT (r.status = 'queued' OR r.requested_again) THEN EXCLUDED.reason
         WHEN EXCLUDED.reason = ANY (string_to_array(r.reason, '; ')) THEN r.reason
         ELSE r.reason || '; ' || EXCLUDED.reason END,
       requested_at = CASE WHEN r.status = 'queued' THEN r.requested_at ELSE now() END,
       error = NULL
     RETURNING status`,
    [brandId, reason],
  );
  return rows[0].status;
}

/**
 * Takes the oldest queued re-analysis, or a running one whose claim is older than staleMs (its
 * instance died; the engine starts it again from the top). One statement: the row is locked with
 * SKIP LOCKED, so two instances claiming at once take different rows or one takes none.
 */
export async function claimReanalysis(
  pg: Queryable,
  staleMs: number,
): Promise<{ brand_id: string; reason: string } | undefined> {
  const { rows } = await pg.query<{ brand_id: string; reason: string }>(
    `UPDATE reanalyses SET status = 'running', claimed_at = now(), started_at = now(), finished_at = NULL,
       requested_again = false, error = NULL, answers_total = NULL, answers_done = 0
     WHERE brand_id = (
       SELECT brand_id FROM reanalyses
        WHERE status = 'queued'
           OR (status = 'running' AND coalesce(claimed_at, '-infinity') < now() - $1::float8 * interval '1 millisecond')
        ORDER BY requested_at, brand_id
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
     RETURNING brand_id, reason`,
    [staleMs],
  );
  return rows[0];
}

/**
 * `answerscope reanalyze --brand ID`: the row is running now, claimed by the caller, whatever it
 * was (a queued request is covered by this run).
 */
export async function startReanalysis(pg: Queryable, brandId: string, reason: string): Promise<ReanalysisStatus> {
  const { rows } = await pg.query<Row>(
    `INSERT INTO reanalyses AS r (brand_id, status, reason, claimed_at, started_at)
     VALUES ($1, 'running', $2, now(), now())
     ON CONFLICT (brand_id) DO UPDATE SET status = 'running', reason = EXCLUDED.reason, requested_at = now(),
       claimed_at = now(), started_at = now(), finished_at = NULL, requested_again = false, error = NULL,
       answers_total = NULL, answers_done = 0
     RETURNING ${COLUMNS}`,
    [brandId, reason],
  );
  return asStatus(rows[0]);
}

/**
 * Records progress of a running re-analysis; also its heartbeat (claimed_at), so a live run is not
 * taken for a crashed one. Returns false when the row is no longer running (failed or finished elsewhere).
 */
export async function reanalysisProgress(
  pg: Queryable,
  brandId: string,
  progress: { target_generation?: number; answers_total?: number; answers_done?: number },
): Promise<boolean> {
  const { rowCount } = await pg.query(
    `UPDATE reanalyses SET claimed_at = now(), target_generation = coalesce($2, target_generation),
       answers_total = coalesce($3, answers_total), answers_done = coalesce($4, answers_done)
     WHERE brand_id = $1 AND status = 'running'`,
    [brandId, progress.target_generation ?? null, progress.answers_total ?? null, progress.answers_done ?? null],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * The switch, in one statement: the brand reads targetGeneration from now on, its cached results
 * are stale (data_version), and the row is done, or queued again when a change came during the
 * run (that run read the entities before it). Returns the row's new status, if it has a row.
 */
export async function finishReanalysis(
  db: Queryable,
  brandId: string,
  targetGeneration: number,
): Promise<ReanalysisState | undefined> {
  const { rows } = await db.query<{ status: ReanalysisState }>(
    `WITH switched AS (
       UPDATE brands SET analysis_generation = $2, data_version = data_version + 1,
         history_version = history_version + 1 WHERE id = $1 RETURNING id)
     UPDATE reanalyses r SET status = CASE WHEN r.requested_again THEN 'queued' ELSE 'done' END,
       requested_at = CASE WHEN r.requested_again THEN now() ELSE r.requested_at END,
       requested_again = false, target_generation = $2, finished_at = now(), last_finished_at = now(), error = NULL
     FROM switched WHERE r.brand_id = switched.id
     RETURNING r.status`,
    [brandId, targetGeneration],
  );
  return rows[0]?.status;
}

/**
 * The run stopped with an error; the brand keeps reading its previous generation. It is not
 * retried by itself (a failing run would fail again): an operator (`answerscope reanalyze`) or the
 * next change queues it. requested_again stays, telling operators a change came during the run.
 */
export async function failReanalysis(pg: Queryable, brandId: string, error: string): Promise<void> {
  await pg.query("UPDATE reanalyses SET status = 'failed', error = $2, finished_at = now() WHERE brand_id = $1", [
    brandId,
    error,
  ]);
}

/** The reanalyses rows (all brands, or one), most recently requested first. */
export async function reanalysisStatus(pg: Queryable, brandId?: string): Promise<ReanalysisStatus[]> {
  const { rows } = await pg.query<Row>(
    `SELECT ${COLUMNS} FROM reanalyses WHERE ($1::uuid IS NULL OR brand_id = $1)
     ORDER BY requested_at DESC, brand_id`,
    [brandId ?? null],
  );
  return rows.map(asStatus);
}

/** The generation the brand's figures are read from; undefined for an unknown brand. */
export async function liveGeneration(pg: Queryable, brandId: string): Promise<number | undefined> {
  const { rows } = await pg.query<{ analysis_generation: number }>(
    'SELECT analysis_generation FROM brands WHERE id = $1',
    [brandId],
  );
  return rows[0]?.analysis_generation;
}

/** A brand's re-analysis as the API reports it (docs/workspace.md). */
export interface ReanalysisReport {
  brand_id: string;
  /** idle: none pending (never asked for, or the last one finished). */
  state: 'idle' | 'queued' | 'running' | 'failed';
  /** 0-100 while running (the share of the brand's answers analysed again); null otherwise. */
  progress: number | null;
  /** Why the last failed run stopped; null unless failed. */
  error: string | null;
  /** The changes it was asked for; null when idle. */
  reason: string | null;
  last_finished_at: string | null;
}

export async function reanalysisReport(pg: Queryable, brandId: string): Promise<ReanalysisReport> {
  const { rows } = await pg.query<Row & { last_finished_at: Date | null }>(
    `SELECT ${COLUMNS}, last_finished_at FROM reanalyses WHERE brand_id = $1`,
    [brandId],
  );
  const r = rows[0];
  const state = !r || r.status === 'done' ? 'idle' : r.status;
  const progress =
    state !== 'running'
      ? null
      : r.answers_total
        ? Math.min(100, Math.floor((100 * r.answers_done) / r.answers_total))
        : 0;
  return {
    brand_id: brandId,
    state,
    progress,
    error: state === 'failed' ? r.error : null,
    reason: state === 'idle' ? null : r.reason,
    last_finished_at: iso(r?.last_finished_at ?? null),
  };
}
