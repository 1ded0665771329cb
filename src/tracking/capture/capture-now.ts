// `Capture now` (docs/app.md "The first answers today"): today's capture of one brand's active
// prompts, started by a person instead of waiting for the daily job, once per brand per UTC day.
// The capture_requests row is the claim (its primary key is the brand and the day), so requests at
// once start one capture; the capture itself is the daily job's (runCapture), slot by slot in
// capture_runs, so a later scheduled run of the same day skips what this one captured. Progress is
// read from those slots: N answers of the M the day's plan holds.
import type { Postgres } from '../../stores/postgres.ts';
import { ApiError } from '../../errors.ts';
import { DAY_MS, isoDay } from '../../instant.ts';
import { runCapture, type CaptureContext } from './capture.ts';
import { countByReason, planSlots, type SampleReason, type Sampler } from './plan.ts';
import { runRows } from './runs.ts';

/** The daily capture's hour (UTC): the track-prompts job runs at 05:00. */
export const DAILY_CAPTURE_HOUR = 5;

/** When the daily capture runs next after `now`. */
export function nextScheduledCapture(now: Date): Date {
  const today = Date.parse(`${isoDay(now)}T00:00:00.000Z`) + DAILY_CAPTURE_HOUR * 3_600_000;
  return new Date(today > now.getTime() ? today : today + DAY_MS);
}

/** The start of the next UTC day: when `Capture now` may run again. */
const nextUtcDay = (now: Date) => new Date(Date.parse(`${isoDay(now)}T00:00:00.000Z`) + DAY_MS);

export const NOTHING_TO_CAPTURE = "The brand has no active prompt on its plan's platforms: add a prompt first";

export const capturedToday = (again: Date) =>
  `Capture now ran for this brand today; it can run again from ${again.toISOString()}`;

/**
 * Starts today's capture of the brand in the background and returns at once with the number of
 * answers it plans; 409 when one was started today already. `whenDone` hears the run's end (tests).
 */
export async function startCaptureNow(
  ctx: CaptureContext,
  brandId: string,
  requestedBy: string | null,
  sampler: Sampler,
  whenDone?: (err?: Error) => void,
): Promise<{ day: string; planned: number }> {
  const now = ctx.now();
  const day = isoDay(now);
  const planned = (await planSlots(ctx.stores.pg, { brandId, day, sampler })).length;
  // Nothing to ask would use up the day's one Capture now for nothing.
  if (!planned) throw new ApiError(400, NOTHING_TO_CAPTURE);
  const claimed = await ctx.stores.pg.query(
    `INSERT INTO capture_requests (brand_id, day, requested_by) VALUES ($1, $2, $3)
     ON CONFLICT (brand_id, day) DO NOTHING RETURNING 1`,
    [brandId, day, requestedBy],
  );
  if (!claimed.rowCount) throw new ApiError(409, capturedToday(nextUtcDay(now)));
  const finish = (error: string | null) =>
    ctx.stores.pg.query(
      'UPDATE capture_requests SET finished_at = now(), error = $3 WHERE brand_id = $1 AND day = $2',
      [brandId, day, error],
    );
  runCapture(ctx, { brandId, date: day, sampler })
    .then(
      () => finish(null).then(() => whenDone?.()),
      async (err: Error) => {
        ctx.log.error({ err, brandId }, 'capture now failed');
        await finish(err.message);
        whenDone?.(err);
      },
    )
    .catch((err) => ctx.log.error({ err, brandId }, 'capture now could not record its end'));
  return { day, planned };
}

export interface CaptureProgress {
  day: string;
  /** Answers the day's plan holds (active prompts x platforms x regions x each cell's samples). */
  planned: number;
  /** The planned answers by why they were planned (plan.ts SampleReason). */
  by_reason: Partial<Record<SampleReason, number>>;
  /** Answers captured so far today. */
  answered: number;
  /** Slots that failed or whose platform is not configured, and slots with no AI answer. */
  failed: number;
  not_configured: number;
  no_answer: number;
  /** Capture now's run today: none, running, or finished (with its error if it failed). */
  capture_now: { started_at: string; finished_at: string | null; error: string | null } | null;
  /** When Capture now may run: now (null) or from the next UTC day. */
  can_run_again_at: string | null;
  next_scheduled_at: string;
}

/** Today's capture of the brand so far. */
export async function captureProgress(
  pg: Postgres,
  brandId: string,
  opts: { now: Date; sampler: Sampler },
): Promise<CaptureProgress> {
  const day = isoDay(opts.now);
  const slots = await planSlots(pg, { brandId, day, sampler: opts.sampler });
  const rows = await runRows(
    pg,
    slots.map((s) => s.id),
  );
  const count = (status: string) => [...rows.values()].filter((r) => r.status === status).length;
  const { rows: requests } = await pg.query<{ started_at: Date; finished_at: Date | null; error: string | null }>(
    'SELECT started_at, finished_at, error FROM capture_requests WHERE brand_id = $1 AND day = $2',
    [brandId, day],
  );
  const request = requests[0];
  return {
    day,
    planned: slots.length,
    by_reason: countByReason(slots),
    answered: count('succeeded'),
    failed: count('failed'),
    not_configured: count('not_configured'),
    no_answer: count('no_answer'),
    capture_now: request
      ? {
          started_at: new Date(request.started_at).toISOString(),
          finished_at: request.finished_at ? new Date(request.finished_at).toISOString() : null,
          error: request.error,
        }
      : null,
    can_run_again_at: request ? nextUtcDay(opts.now).toISOString() : null,
    next_scheduled_at: nextScheduledCapture(opts.now).toISOString(),
  };
}
