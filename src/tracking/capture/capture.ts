// One day's capture (the track-prompts job): plan the day's slots (capture/plan.ts), record them
// (capture/runs.ts), then for each slot not yet done: claim it, ask its platform's engine, and
// store the answer through the ingestion (capture/sink.ts). Bounded concurrency per provider;
// the HTTP retries live in engines/http.ts.
//
// Idempotent per (prompt, platform, region, day, sample): a slot's answer has the slot's own
// deterministic id (captureId), so storing it again replaces it; a run skips succeeded slots;
// a slot left running by a dead worker is taken over once its claim is stale. A failed capture is
// recorded with its reason and never stored, so it never counts as "not visible".
import pLimit, { type LimitFunction } from 'p-limit';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Stores } from '../../stores/index.ts';
import { UserError } from '../../errors.ts';
import { brandById } from '../../tenancy/brands.ts';
import { latestCollectedAt, validateAnswer } from '../ingest/answer-schema.ts';
import { planSlots, type Slot } from './plan.ts';
import { claimRun, failRun, FINAL, markNotConfigured, recordSlots, runRows, type Claim } from './runs.ts';
import { AnswerSink } from './sink.ts';
import { liveEngines, PROVIDERS, providerOf, simulatedEngines, type Engines } from './engines/registry.ts';
import { loadSimBrands } from './engines/simulated-brands.ts';
import { sentimentJudge } from './sentiment-judge.ts';
import type { SimBrand } from './engines/simulated.ts';
import type { Capture, CaptureOutcome, Engine } from './engines/types.ts';
import type { AnswerInput } from '../types.ts';
import type { Platform } from '../../tenancy/tracked.ts';
import { DAY_MS, isoDay } from '../../instant.ts';

/** A claim older than this belongs to a worker that died: a capture takes minutes at most (timeout x attempts). */
const STALE_CLAIM_MS = 20 * 60_000;
const BATCH_SIZE = 25;

export interface CaptureContext {
  stores: Stores;
  config: Config;
  log: Logger;
  now(): Date;
}

export interface CaptureArgs {
  brandId?: string;
  /** The UTC day (YYYY-MM-DD) the answers are for. */
  date: string;
  /** Tests pass their own engines; otherwise TRACKING_ENGINE decides. */
  engines?: Engines;
  staleMs?: number;
}

export interface CaptureSummary {
  date: string;
  engine: 'live' | 'simulated';
  /** Slots of the day: prompts x allowed platforms x regions x samples. */
  planned: number;
  /** Answers captured and stored by this run. */
  answers: number;
  /** Slots already done by an earlier run of the day. */
  skipped: number;
  /** Slots where the platform showed no AI answer (Google without an AI Overview): nothing stored. */
  no_answer: number;
  /** Slots still held by another worker. */
  in_progress: number;
  failed: { prompt_id: string; platform: string; region: string; sample: number; error: string }[];
  /** Platforms due today whose provider key is unset. */
  not_configured: Platform[];
}

export async function runCapture(ctx: CaptureContext, args: CaptureArgs): Promise<CaptureSummary> {
  const { stores, config, log } = ctx;
  const { tracking } = config;
  if (args.brandId) {
    if (!(await brandById(stores.pg, args.brandId))) throw new UserError(`Unknown brand ${args.brandId}`);
  }
  const slots = await planSlots(stores.pg, { brandId: args.brandId, day: args.date, samples: tracking.samples });
  const engines = args.engines ?? (await enginesFor(ctx, slots));
  if (engines.kind === 'live' && args.date !== isoDay(ctx.now())) {
    // A live answer is today's answer: storing it under another day would misdate it.
    throw new UserError(
      `track-prompts captures live answers for today only (${isoDay(ctx.now())}), not ${args.date}; TRACKING_ENGINE=simulated can fill other days`,
    );
  }
  await recordSlots(stores.pg, slots);
  const before = await runRows(
    stores.pg,
    slots.map((s) => s.id),
  );
  const open = slots.filter((s) => !FINAL.includes(before.get(s.id)?.status ?? 'pending'));

  // Platforms without a key: recorded per slot, reported by platform, never asked.
  const unconfigured = open.filter((s) => !engines.forPlatform(s.platform).configured);
  for (const [platform, list] of groupBy(unconfigured, (s) => s.platform)) {
    const provider = providerOf(platform);
    await markNotConfigured(
      stores.pg,
      list.map((s) => s.id),
      provider,
      `${PROVIDERS[provider].keyVariable} is not set`,
    );
  }

  const abort = new AbortController();
  const sink = new AnswerSink(stores, log, BATCH_SIZE, () => abort.abort(), sentimentJudge(config.llm, log));
  const limits = new Map<string, LimitFunction>();
  const limitOf = (name: string) => {
    let l = limits.get(name);
    if (!l) {
      l = pLimit(tracking.concurrency);
      limits.set(name, l);
    }
    return l;
  };
  const staleMs = args.staleMs ?? STALE_CLAIM_MS;
  const due = open.filter((s) => engines.forPlatform(s.platform).configured);
  const settled = await Promise.allSettled(
    due.map((slot) => {
      const engine = engines.forPlatform(slot.platform);
      return limitOf(engine.name)(async () => {
        if (abort.signal.aborted) return;
        const claim = await claimRun(stores.pg, slot.id, engine.name, staleMs);
        if (!claim) return; // another worker holds it, or finished it meanwhile
        if (claim.attempts > 1) log.info({ slot: slot.id, attempt: claim.attempts }, 'capturing a slot again');
        const outcome = await ask(engine, slot, abort.signal, log);
        await settle(ctx, sink, claim, slot, outcome, args.date, engine.version);
      });
    }),
  );
  await sink.flush();
  const crashed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (sink.error) throw sink.error;
  if (crashed) throw crashed.reason;

  const after = await runRows(
    stores.pg,
    slots.map((s) => s.id),
  );
  const summary: CaptureSummary = {
    date: args.date,
    engine: engines.kind,
    planned: slots.length,
    answers: sink.stored,
    skipped: slots.length - open.length,
    no_answer: 0,
    in_progress: 0,
    failed: [],
    not_configured: [...new Set(unconfigured.map((s) => s.platform))],
  };
  for (const s of open) {
    const row = after.get(s.id);
    if (row?.status === 'no_answer') summary.no_answer++;
    else if (row?.status === 'running' || row?.status === 'pending') summary.in_progress++;
    else if (row?.status === 'failed') {
      summary.failed.push({
        prompt_id: s.promptId,
        platform: s.platform,
        region: s.region,
        sample: s.sample,
        error: row.error ?? 'unknown error',
      });
    }
  }
  log.info({ ...summary, failed: summary.failed.length }, 'track-prompts finished');
  return summary;
}

async function enginesFor(ctx: CaptureContext, slots: Slot[]): Promise<Engines> {
  if (ctx.config.tracking.engine === 'live') return liveEngines(ctx.config.tracking);
  const brands = await loadSimBrands(ctx.stores.pg, [...new Set(slots.map((s) => s.brandId))]);
  const byPrompt = new Map<string, SimBrand>();
  for (const b of brands) for (const p of b.prompts) byPrompt.set(p.id, b);
  return simulatedEngines((promptId) => byPrompt.get(promptId));
}

/** Asks the engine; an adapter that throws (a bug, not a provider failure) fails the slot, not the run. */
async function ask(engine: Engine, slot: Slot, signal: AbortSignal, log: Logger): Promise<CaptureOutcome> {
  try {
    return await engine.capture({
      prompt: slot.promptText,
      platform: slot.platform,
      region: slot.region,
      mode: 'standard',
      slot: { promptId: slot.promptId, day: slot.day, sample: slot.sample },
      signal,
    });
  } catch (err) {
    log.error({ err, slot: slot.id }, 'capture adapter crashed');
    return {
      ok: false,
      failure: {
        kind: 'malformed',
        message: `the adapter failed unexpectedly: ${(err as Error).message}`,
        retryable: false,
      },
    };
  }
}

async function settle(
  ctx: CaptureContext,
  sink: AnswerSink,
  claim: Claim,
  slot: Slot,
  outcome: CaptureOutcome,
  date: string,
  engineVersion: string,
): Promise<void> {
  if (!outcome.ok) {
    await failRun(ctx.stores.pg, claim, outcome.failure);
    return;
  }
  // Bounded by the job's clock, not the machine's: a capture dated by ctx.now() is never "from the future".
  const now = ctx.now();
  const checked = validateAnswer(
    toAnswer(slot, outcome.capture, collectedAt(date, now, outcome.capture)),
    latestCollectedAt(now),
  );
  if (!checked.ok) {
    await failRun(ctx.stores.pg, claim, { kind: 'malformed', message: `the answer was refused: ${checked.error}` });
    return;
  }
  // Validation keeps only an answer file's fields: where the answer comes from is added after it.
  const provenance = { provider_model: outcome.capture.model, engine_version: engineVersion, source: 'capture' };
  await sink.add(claim, { ...checked.answer, provenance });
}

function toAnswer(slot: Slot, c: Capture, at: string): AnswerInput & { id: string } {
  return {
    id: slot.id,
    prompt_id: slot.promptId,
    platform: slot.platform,
    model: c.model,
    region: slot.region,
    mode: c.mode,
    collected_at: at,
    text: c.text,
    citations: c.citations,
    products: c.products,
    search_queries: c.searchQueries,
  };
}

/**
 * When the answer was captured, kept inside the run's day (a run that crosses midnight keeps its
 * day) and never after now: the simulated engine spreads its answers over their day, and an answer
 * dated later today would be missing from every figure that ends now.
 */
function collectedAt(date: string, now: Date, c: Capture): string {
  const start = Date.parse(`${date}T00:00:00.000Z`);
  const at = c.collectedAt ? Math.min(Date.parse(c.collectedAt), now.getTime()) : now.getTime();
  return new Date(Math.min(start + DAY_MS - 1, Math.max(start, at))).toISOString();
}

function groupBy<T, K>(list: T[], key: (t: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const t of list) {
    const k = key(t);
    const l = m.get(k);
    if (l) l.push(t);
    else m.set(k, [t]);
  }
  return m;
}
