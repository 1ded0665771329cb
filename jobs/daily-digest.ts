// daily-digest: queues each brand's digest.daily webhook for the previous UTC day
// (jobs/digest.ts), saying whether each movement is inside the day's 95% interval. Runs in the
// morning (UTC) so the previous day's answers are in.
import { defineJob } from './registry.ts';
import { runDailyDigest } from './digest.ts';

export const dailyDigest = defineJob({
  name: 'daily-digest',
  schedule: '0 7 * * *',
  description:
    "Sends each brand's digest.daily webhook: the previous UTC day's visibility summary, " +
    'top movers (each movement marked inside or outside the 95% interval) and new opportunities',
  run: (ctx, args) => runDailyDigest(ctx.stores, ctx.log, args),
});
