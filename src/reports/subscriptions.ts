// Report subscriptions: a person's daily or weekly email about one brand (docs/app.md, Settings >
// Reports), sent by the send-reports job (jobs/send-reports.ts) at the UTC hour they chose. This
// module owns the table and when a report is due; what a report says is the job's, since it reads
// the figures through the API's operations.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Postgres } from '../stores/postgres.ts';
import { addDays } from '../instant.ts';

export const FREQUENCIES = ['daily', 'weekly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export interface Subscription {
  id: string;
  user_id: string;
  organization_id: string;
  brand_id: string;
  frequency: Frequency;
  hour: number;
  token: string;
  app_url: string;
  /** The last day of the last period mailed (YYYY-MM-DD), or null before the first. */
  last_period_end: string | null;
  last_sent_at: string | null;
  created_at: string;
}

const COLUMNS = `id, user_id, organization_id, brand_id, frequency, hour, token, app_url,
  to_char(last_period_end, 'YYYY-MM-DD') AS last_period_end, last_sent_at, created_at`;

/** The period a report covers: its first and last UTC day (YYYY-MM-DD), both included. */
export interface Period {
  from: string;
  to: string;
}

/**
 * The last period of `frequency` that has ended by `now`: for daily, yesterday (UTC); for weekly,
 * the last whole ISO week, Monday to Sunday, that ended before today.
 */
export function lastPeriod(frequency: Frequency, now: Date): Period {
  const today = now.toISOString().slice(0, 10);
  const yesterday = addDays(today, -1);
  if (frequency === 'daily') return { from: yesterday, to: yesterday };
  // getUTCDay: 0 is Sunday. The last Sunday strictly before today ends the last whole week.
  const back = now.getUTCDay() === 0 ? 7 : now.getUTCDay();
  const sunday = addDays(today, -back);
  return { from: addDays(sunday, -6), to: sunday };
}

/** Subscribes (or, subscribed already at that frequency, moves the hour); the subscription. */
export async function subscribe(
  pg: Postgres,
  s: { userId: string; organizationId: string; brandId: string; frequency: Frequency; hour: number; appUrl: string },
): Promise<Subscription> {
  const { rows } = await pg.query<Subscription>(
    `INSERT INTO report_subscriptions (id, user_id, organization_id, brand_id, frequency, hour, token, app_url)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (user_id, brand_id, frequency) DO UPDATE SET hour = EXCLUDED.hour, app_url = EXCLUDED.app_url
     RETURNING ${COLUMNS}`,
    [
      randomUUID(),
      s.userId,
      s.organizationId,
      s.brandId,
      s.frequency,
      s.hour,
      randomBytes(32).toString('base64url'),
      s.appUrl,
    ],
  );
  return rows[0];
}

/** A person's subscriptions in one organization, oldest first. */
export async function subscriptionsOf(pg: Postgres, userId: string, organizationId: string): Promise<Subscription[]> {
  const { rows } = await pg.query<Subscription>(
    `SELECT ${COLUMNS} FROM report_subscriptions WHERE user_id = $1 AND organization_id = $2
      ORDER BY created_at, id`,
    [userId, organizationId],
  );
  return rows;
}

/** Ends one of the person's own subscriptions; false when they have none of that id. */
export async function unsubscribe(pg: Postgres, userId: string, id: string): Promise<boolean> {
  const { rowCount } = await pg.query('DELETE FROM report_subscriptions WHERE id = $1 AND user_id = $2', [id, userId]);
  return (rowCount ?? 0) > 0;
}

/** Ends the subscription a mail's unsubscribe address names (RFC 8058 one-click); false when none. */
export async function unsubscribeByToken(pg: Postgres, token: string): Promise<boolean> {
  const { rowCount } = await pg.query('DELETE FROM report_subscriptions WHERE token = $1', [token]);
  return (rowCount ?? 0) > 0;
}

/**
 * Subscriptions with a report due at `now`: their last ended period was not mailed yet. `hourReached`
 * (the scheduler's runs): only those whose chosen hour has come today (UTC), so each goes out at
 * its hour, or at the next run after it when that hour's run was missed.
 */
export async function dueSubscriptions(pg: Postgres, now: Date, hourReached: boolean): Promise<Subscription[]> {
  const { rows } = await pg.query<Subscription>(
    `SELECT ${COLUMNS} FROM report_subscriptions
      WHERE ($1::boolean = false OR hour <= $2)
      ORDER BY created_at, id`,
    [hourReached, now.getUTCHours()],
  );
  return rows.filter((s) => s.last_period_end === null || s.last_period_end < lastPeriod(s.frequency, now).to);
}

/**
 * Records a period as mailed, unless another run recorded it first: true for the one run that
 * may send it (the condition on the row is the claim, so two instances never send one report twice).
 */
export async function claimPeriod(pg: Postgres, id: string, period: Period): Promise<boolean> {
  const { rowCount } = await pg.query(
    `UPDATE report_subscriptions SET last_period_end = $2, last_sent_at = now()
      WHERE id = $1 AND (last_period_end IS NULL OR last_period_end < $2)`,
    [id, period.to],
  );
  return (rowCount ?? 0) > 0;
}

/** Gives a claimed period back after its mail failed, so the next run tries it again. */
export async function releasePeriod(pg: Postgres, id: string, previous: string | null): Promise<void> {
  await pg.query('UPDATE report_subscriptions SET last_period_end = $2 WHERE id = $1', [id, previous]);
}
