// The in-process schedule. node-cron fires in every instance; a tick only runs where it manages to
// insert the job_runs row for its (job, slot), so exactly one instance runs each slot. A failed run,
// or one left `running` by a crashed instance for longer than STALE_AFTER, may be claimed again.
import cron from 'node-cron';
import type { Job, JobContext } from './registry.ts';
import { jobRuns } from '../src/runtime/metrics.ts';

const STALE_AFTER = '6 hours';

export const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** The slot a scheduled run claims: its UTC day, or for an hourly job its UTC hour (YYYY-MM-DDTHH). */
export const slotOf = (job: Job, d: Date) => (job.slot === 'hour' ? d.toISOString().slice(0, 13) : utcDay(d));

export type TickOutcome = { ran: true; result: unknown } | { ran: false };

/** Claims (job, slot, scope) and runs the job if the claim succeeded. */
export async function runClaimed(ctx: JobContext, job: Job, slot: string, scope = 'all'): Promise<TickOutcome> {
  const claim = await ctx.stores.pg.query(
    `INSERT INTO job_runs (job, slot, scope, status) VALUES ($1, $2, $3, 'running')
     ON CONFLICT (job, slot, scope) DO UPDATE
       SET status = 'running', started_at = now(), finished_at = NULL, error = NULL, result = NULL
       WHERE job_runs.status = 'failed'
          OR (job_runs.status = 'running' AND job_runs.started_at < now() - interval '${STALE_AFTER}')
     RETURNING job`,
    [job.name, slot, scope],
  );
  if (!claim.rowCount) {
    jobRuns.inc({ job: job.name, outcome: 'skipped' });
    return { ran: false };
  }
  try {
    const result = await job.run(ctx, {
      date: slot.slice(0, 10),
      brandId: scope === 'all' ? undefined : scope,
      onSchedule: true,
    });
    await ctx.stores.pg.query(
      `UPDATE job_runs SET status = 'succeeded', finished_at = now(), result = $4 WHERE job = $1 AND slot = $2 ` +
        `AND scope = $3`,
      [job.name, slot, scope, JSON.stringify(result ?? null)],
    );
    jobRuns.inc({ job: job.name, outcome: 'succeeded' });
    return { ran: true, result };
  } catch (err) {
    ctx.log.error({ err, job: job.name, slot }, 'job failed');
    jobRuns.inc({ job: job.name, outcome: 'failed' });
    await ctx.stores.pg.query(
      `UPDATE job_runs SET status = 'failed', finished_at = now(), error = $4 WHERE job = $1 AND slot = $2 ` +
        `AND scope = $3`,
      [job.name, slot, scope, (err as Error).message],
    );
    throw err;
  }
}

export interface Scheduler {
  stop(): Promise<void>;
}

export function startScheduler(ctx: JobContext, list: Job[]): Scheduler {
  const running = new Set<Promise<unknown>>();
  const tasks = list.map((job) =>
    cron.schedule(
      job.schedule,
      () => {
        const p = runClaimed(ctx, job, slotOf(job, ctx.now())).catch(() => {});
        running.add(p);
        p.finally(() => running.delete(p));
      },
      { timezone: 'UTC', name: job.name },
    ),
  );
  return {
    async stop() {
      for (const t of tasks) await t.stop();
      await Promise.allSettled([...running]);
    },
  };
}
