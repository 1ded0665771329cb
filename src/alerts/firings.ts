// Firings of alert rules (the `alerts` table): recorded by the evaluation, listed newest first for
// the API, and by day for the daily digest.
import { randomUUID } from 'node:crypto';
import type { Postgres, Queryable } from '../stores/postgres.ts';
import type { PageCursor } from '../cursor.ts';
import { encodeCursor } from '../cursor.ts';
import type { Condition, Metric, RuleRow } from './rules.ts';

export interface Window {
  /** First and last UTC day, inclusive (YYYY-MM-DD). */
  from: string;
  to: string;
}

export interface Firing {
  id: string;
  rule_id: string;
  brand_id: string;
  metric: Metric;
  condition: Condition;
  threshold: number;
  window_days: number;
  /** The job date of the evaluation that fired (the day after the current window). */
  evaluated_on: string;
  previous_window: Window;
  current_window: Window;
  previous: number;
  current: number;
  n_previous: number;
  n_current: number;
  created_at: string;
}

export interface NewFiring {
  rule: RuleRow;
  evaluatedOn: string;
  previousWindow: Window;
  currentWindow: Window;
  previous: number;
  current: number;
  nPrevious: number;
  nCurrent: number;
}

interface FiringRow {
  id: string;
  rule_id: string;
  brand_id: string;
  metric: Metric;
  condition: Condition;
  threshold: number;
  window_days: number;
  evaluated_on: string;
  previous_from: string;
  previous_to: string;
  current_from: string;
  current_to: string;
  previous: number;
  current: number;
  n_previous: number;
  n_current: number;
  created_at: Date;
}

const day = (column: string) => `to_char(${column}, 'YYYY-MM-DD') AS ${column}`;
const COLUMNS = [
  'id, rule_id, brand_id, metric, condition, threshold, window_days',
  ...['evaluated_on', 'previous_from', 'previous_to', 'current_from', 'current_to'].map(day),
  'previous, current, n_previous, n_current, created_at',
].join(', ');

const view = (r: FiringRow): Firing => ({
  id: r.id,
  rule_id: r.rule_id,
  brand_id: r.brand_id,
  metric: r.metric,
  condition: r.condition,
  threshold: r.threshold,
  window_days: r.window_days,
  evaluated_on: r.evaluated_on,
  previous_window: { from: r.previous_from, to: r.previous_to },
  current_window: { from: r.current_from, to: r.current_to },
  previous: r.previous,
  current: r.current,
  n_previous: r.n_previous,
  n_current: r.n_current,
  created_at: new Date(r.created_at).toISOString(),
});

/** Stores a firing inside the caller's transaction; null when the rule already fired that day. */
export async function recordFiring(db: Queryable, f: NewFiring): Promise<Firing | null> {
  const { rows } = await db.query<FiringRow>(
    `INSERT INTO alerts (id, organization_id, brand_id, rule_id, metric, condition, threshold, window_days,
       evaluated_on, previous_from, previous_to, current_from, current_to, previous, current, n_previous, n_current)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
     ON CONFLICT (rule_id, evaluated_on) DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      randomUUID(),
      f.rule.organization_id,
      f.rule.brand_id,
      f.rule.id,
      f.rule.metric,
      f.rule.condition,
      f.rule.threshold,
      f.rule.window_days,
      f.evaluatedOn,
      f.previousWindow.from,
      f.previousWindow.to,
      f.currentWindow.from,
      f.currentWindow.to,
      f.previous,
      f.current,
      f.nPrevious,
      f.nCurrent,
    ],
  );
  return rows[0] ? view(rows[0]) : null;
}

/**
 * A page of the brand's firings, newest first: strictly after the cursor's row in (created_at DESC,
 * id DESC) order, so firings sharing an instant are neither skipped nor repeated.
 */
export async function listFirings(
  pg: Postgres,
  brandId: string,
  page: { limit: number; cursor?: PageCursor },
): Promise<{ alerts: Firing[]; next_cursor: string | null }> {
  const { rows } = await pg.query<FiringRow>(
    `SELECT ${COLUMNS} FROM alerts
      WHERE brand_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
      ORDER BY created_at DESC, id DESC LIMIT $4`,
    [brandId, page.cursor?.at ?? null, page.cursor?.id ?? null, page.limit + 1],
  );
  const alerts = rows.slice(0, page.limit).map(view);
  const last = alerts[alerts.length - 1];
  const more = rows.length > page.limit && last;
  return { alerts, next_cursor: more ? encodeCursor({ at: last.created_at, id: last.id }) : null };
}

/** The brand's firings whose current window ends on `day` (what the digest of that day lists), oldest first. */
export async function firingsAbout(pg: Postgres, brandId: string, day: string): Promise<Firing[]> {
  const { rows } = await pg.query<FiringRow>(
    `SELECT ${COLUMNS} FROM alerts WHERE brand_id = $1 AND current_to = $2::date ORDER BY created_at, id`,
    [brandId, day],
  );
  return rows.map(view);
}
