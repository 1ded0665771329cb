// Named jobs. Each runs for one brand or for all, for one UTC day (`date`), and is idempotent for
// that day: running it twice changes nothing the second time.
import type { Logger } from 'pino';
import type { Config } from '../src/config.ts';
import type { Stores } from '../src/stores/index.ts';

export interface JobContext {
  stores: Stores;
  config: Config;
  log: Logger;
  now(): Date;
}

export interface JobArgs {
  brandId?: string;
  /** The UTC day the run is for (YYYY-MM-DD). */
  date: string;
  /** Started by the schedule (not `answerscope jobs run`): an hourly job then does the hour's share. */
  onSchedule?: boolean;
}

export interface Job {
  name: string;
  /** node-cron expression, evaluated in UTC. */
  schedule: string;
  /** What one run claims: a UTC day (default), or an hour for a job that runs every hour. */
  slot?: 'day' | 'hour';
  description: string;
  run(ctx: JobContext, args: JobArgs): Promise<unknown>;
}

export function defineJob(job: Job): Job {
  return job;
}
