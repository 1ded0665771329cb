// The daily capture: every active prompt of every brand (or one with --brand) on its plan's
// platforms, in each of its regions, as many times as the brand's sampling says (fixed, by default
// TRACKING_SAMPLES, or adaptive), within the plan's capture limits; answers stored like imported ones.
// The scheduler runs it on one instance per day (jobs/schedule.ts); the work itself is claimed
// slot by slot in capture_runs, so a second run (manual, or after a crash) never duplicates it.
// Prints {date, engine, planned, by_reason, answers, skipped, no_answer, in_progress, failed: [...],
// not_configured: [...]}.
import { defineJob } from './registry.ts';
import { runCapture } from '../src/tracking/capture/capture.ts';
import { captureSampler } from '../src/operations/capture-sampling.ts';
import { DAILY_CAPTURE_HOUR } from '../src/tracking/capture/capture-now.ts';

export const trackPrompts = defineJob({
  name: 'track-prompts',
  schedule: `0 ${DAILY_CAPTURE_HOUR} * * *`,
  description: "Runs every active prompt on its plan's platforms in each of its regions and stores the answers",
  run: (ctx, args) => runCapture(ctx, { brandId: args.brandId, date: args.date, sampler: captureSampler(ctx) }),
});
