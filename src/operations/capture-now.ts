// `Capture now` and its progress (docs/app.md "The first answers today"): today's capture of a
// brand's active prompts, once per brand per UTC day, and N of M answers as they arrive.
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId } from './params.ts';
import { AT_USER_REQUEST } from './workspace-writes.ts';
import {
  captureProgress as readProgress,
  capturedToday,
  NOTHING_TO_CAPTURE,
  startCaptureNow,
} from '../tracking/capture/capture-now.ts';
import { captureSampler, SampleReason } from './capture-sampling.ts';

const Progress = z.object({
  day: z.string().describe('Today (UTC)'),
  planned: z
    .number()
    .int()
    .describe("Answers today's plan holds: active prompts x platforms x regions x each one's samples"),
  by_reason: z
    .partialRecord(SampleReason, z.number().int())
    .describe(
      'The planned answers by why: fixed (the brand samples a fixed number), no_history, interval_wide or ' +
        "interval_narrow (adaptive sampling), limit (cut by the plan's capture limits)",
    ),
  answered: z.number().int().describe('Answers captured so far today'),
  failed: z.number().int(),
  not_configured: z.number().int().describe('Slots on a platform whose provider key is not set'),
  no_answer: z.number().int().describe('Slots where the platform showed no AI answer'),
  capture_now: z
    .object({ started_at: z.string(), finished_at: z.string().nullable(), error: z.string().nullable() })
    .nullable()
    .describe("Today's Capture now, if one was started"),
  can_run_again_at: z.string().nullable().describe('When Capture now may run again; null: now'),
  next_scheduled_at: z.string().describe('When the daily capture runs next (UTC)'),
});

export const captureNow = operation({
  name: 'capture-now',
  method: 'POST',
  write: true,
  openWorld: true, // asks the AI platforms
  says: ['explicit-request'],
  errors: [
    { status: 409, message: capturedToday(new Date('2026-11-29T00:00:00.000Z')) },
    { status: 400, message: NOTHING_TO_CAPTURE },
  ],
  params: z.object({ brand_id: brandId }),
  result: z.object({
    brand_id: z.string().uuid(),
    day: z.string(),
    planned: z.number().int(),
    status: z.literal('running'),
  }),
  description:
    "Starts today's capture of the brand's active prompts on its plan's platforms now instead of at " +
    'the daily run, once per brand per UTC day (409 saying when it can run again); returns at once: follow ' +
    `capture-progress. ${AT_USER_REQUEST}`,
  run: async (ctx, p) => {
    const brand = await ctx.brand(p.brand_id);
    const started = await startCaptureNow(
      { stores: ctx.stores, config: ctx.config, log: ctx.log, now: () => ctx.now() },
      brand.id,
      ctx.identity.userId,
      captureSampler(ctx),
    );
    return { brand_id: brand.id, ...started, status: 'running' as const };
  },
});

export const captureProgress = operation({
  name: 'capture-progress',
  method: 'GET',
  params: z.object({ brand_id: brandId }),
  result: Progress,
  description:
    "Today's capture of the brand so far: answers captured of those planned, failures, platforms not " +
    "configured, today's Capture now and when the daily capture runs next.",
  run: async (ctx, p) => {
    const brand = await ctx.brand(p.brand_id);
    return readProgress(ctx.stores.pg, brand.id, { now: ctx.now(), sampler: captureSampler(ctx) });
  },
});
