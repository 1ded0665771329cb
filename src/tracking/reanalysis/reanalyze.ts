// Re-analysis (docs/api.md section 10, docs/analysis.md): every stored answer of a brand analysed
// again from its stored text and citations with the brand's entities as they are now, through the
// same analysis and the same rows as ingestion, written as the brand's next generation beside the
// live one. Only when all of it is written does the brand switch to it (one Postgres UPDATE), so a
// read sees the old analysis or the new one, never a mix; the old generation is deleted after.
// A crash leaves a partial generation nobody reads; the next run deletes it and starts over.
//
// The configured model's sentiment verdicts stored at capture (ingest/sentiment-verdicts.ts) are read
// with the answers and replace the built-in ones of the entities still named, as at capture; a
// brand without any reads none (one look-up per run).
//
// It holds the ingest lock throughout: an answer ingested meanwhile would be analysed into the old
// generation only, and a re-import could cancel rows the run is about to read.
import type { Stores } from '../../stores/index.ts';
import { type BrandId, chTime, select } from '../../stores/scoped-query.ts';
import { dropOtherGenerations } from '../../stores/generations.ts';
import { brandById, brandEntities } from '../../tenancy/brands.ts';
import { finishReanalysis, reanalysisProgress } from '../../tenancy/reanalysis-queue.ts';
import { withIngestLock } from '../ingest/lock.ts';
import { ANSWER_COLUMNS, CITATION_COLUMNS } from './step.ts';
import { ReanalysisThread } from './worker-thread.ts';
import { REANALYSIS_COLUMNS } from '../ingest/fact-rows.ts';
import { hasVerdicts, VERDICT_COLUMNS } from '../ingest/sentiment-verdicts.ts';
import { DEFAULT_SOURCES_SQL } from '../types.ts';

/**
 * Answers read, analysed and written per step at most (a day holding more is split by answer id):
 * about 25 MB of text and citations, whatever the brand's size.
 */
export const PAGE_SIZE = 20_000;

/**
 * Steps read before they are analysed. At 100,000 answers (bench/reanalyze.ts, READS=0) one step
 * ahead ran 14,400-15,300 answers/s, two 16,400 and three 18,400: with fewer, the analysis waited
 * for a read queued behind a write.
 */
const READ_AHEAD = 3;

export interface ReanalysisResult {
  brand_id: string;
  answers: number;
  seconds: number;
  /** The generation the brand reads now. */
  generation: number;
}

export interface ReanalysisOptions {
  pageSize?: number;
  /** Tests: throw after this many answers are written, as a crash would stop the run. */
  crashAfter?: number;
}

/**
 * A step of the run: whole days from `from` to `to`, or one share of a single day too large for a
 * step (the answers whose id hashes to `share.index` modulo `share.of`). Steps read by day let the
 * primary key and the partitions prune: a page after a (day, answer_id) key over FINAL read twice as
 * slowly, and its citations looked up by 10,000 ids more slowly still (bench/reanalyze.ts).
 */
export interface Step {
  from: string;
  to: string;
  /** The answers of a whole-days step (what planning adds up); 0 for a share. */
  answers: number;
  share?: { index: number; of: number };
}

/** The brand's live standard answers: shopping answers have no analysis rows (docs/api.md section 2). */
// Answers imported from another tracker are not re-derived: their rows stay out of the figures.
const LIVE_STANDARD = `sign = 1 AND mode = 'standard' AND ${DEFAULT_SOURCES_SQL}`;

/** Cuts the brand's answers, counted per day, into steps of at most `size` answers. */
export function planSteps(days: { day: string; answers: number }[], size: number): Step[] {
  const steps: Step[] = [];
  let open: Step | null = null;
  for (const { day, answers } of days) {
    if (answers > size) {
      const of = Math.ceil(answers / size);
      for (let index = 0; index < of; index++) steps.push({ from: day, to: day, answers: 0, share: { index, of } });
      open = null;
    } else if (open && open.answers + answers <= size) {
      open.to = day;
      open.answers += answers;
    } else {
      open = { from: day, to: day, answers };
      steps.push(open);
    }
  }
  return steps;
}

/** A step's whole days as a scope. */
function stepScope(brandId: BrandId, step: Step) {
  return {
    brandId,
    from: new Date(`${step.from}T00:00:00.000Z`),
    to: new Date(`${step.to}T23:59:59.999Z`),
  };
}
/** A step's share (if any) as a condition on answer_id, ANDed to `where` (undefined: no condition). */
function stepShare(step: Step, where?: string): { where: string | undefined; params: Record<string, number> } {
  if (!step.share) return { where, params: {} };
  const share = 'cityHash64(answer_id) % {shareOf:UInt32} = {shareIndex:UInt32}';
  return {
    where: where ? `${where} AND ${share}` : share,
    params: { shareOf: step.share.of, shareIndex: step.share.index },
  };
}

/** The step's live standard answers. */
function answersOf(brandId: BrandId, step: Step) {
  return select(
    { table: 'answers', scope: stepScope(brandId, step), final: true },
    {
      select: ANSWER_COLUMNS,
      ...stepShare(step, LIVE_STANDARD),
    },
  );
}

/** The stored citations of the step's answers in the live generation, each answer's first one first. */
function citationsOf(brandId: BrandId, generation: number, step: Step) {
  return select(
    { table: 'answer_citations', scope: { ...stepScope(brandId, step), generation }, final: true },
    { select: CITATION_COLUMNS, ...stepShare(step, 'sign = 1') },
  );
}

/** The model's sentiment verdicts stored for the step's answers (ingest/sentiment-verdicts.ts). */
function verdictsOf(brandId: BrandId, step: Step) {
  return select(
    { table: 'sentiment_verdicts', scope: stepScope(brandId, step), final: true },
    { select: VERDICT_COLUMNS, ...stepShare(step) },
  );
}

/**
 * Re-analyses every stored answer of the brand and switches it to the new generation. The caller
 * has claimed the brand's reanalyses row (src/tenancy/reanalysis-queue.ts).
 */
export function reanalyzeBrand(stores: Stores, id: string, opts: ReanalysisOptions = {}): Promise<ReanalysisResult> {
  return withIngestLock(stores, async () => {
    const started = process.hrtime.bigint();
    const brand = await brandById(stores.pg, id);
    if (!brand) throw new Error(`brand ${id} does not exist`);
    // Every read below is scoped by the brand as read from its row.
    const brandId = brand.id;
    const live = brand.analysis_generation;
    const target = live + 1;
    // What a crashed run left of `target` goes first, before any of it is written again (a run always
    // writes live + 1, so nothing lies beyond). Every page holds each answer's brand row, so
    // answer_entities tells; a brand whose runs all finished skips the seven mutations.
    const leftover = select(
      { table: 'answer_entities', scope: { brandId, generation: target } },
      { select: '1', limit: '1' },
    );
    if ((await stores.ch.rows(leftover)).length) {
      await dropOtherGenerations(stores.ch, brandId, live, { wait: true });
    }
    const entities = await brandEntities(stores.pg, brand);
    const judged = await hasVerdicts(stores.ch, brandId);
    const days = await stores.ch.rows<{ day: string; answers: number }>(
      select(
        { table: 'answers', scope: { brandId }, final: true },
        { select: 'day, count() AS answers', where: LIVE_STANDARD, groupBy: 'day', orderBy: 'day' },
      ),
    );
    const total = days.reduce((sum, d) => sum + d.answers, 0);
    await reanalysisProgress(stores.pg, brandId, { target_generation: target, answers_total: total, answers_done: 0 });

    // Steps are read READ_AHEAD ahead of the one being analysed, and each is written while the next
    // is analysed: chDB always has the next read or write queued, and the worker thread always has
    // a step to analyse. The reads come back as the engine's bytes, parsed by the worker only.
    const read = (step: Step) =>
      Promise.all([
        stores.ch.rowLines(answersOf(brandId, step)),
        stores.ch.rowLines(citationsOf(brandId, live, step)),
        judged ? stores.ch.rowLines(verdictsOf(brandId, step)) : null,
      ]);
    const steps = planSteps(days, opts.pageSize ?? PAGE_SIZE);
    let done = 0;
    let writing: Promise<void> = Promise.resolve();
    const reads: ReturnType<typeof read>[] = [];
    const readAhead = (i: number) => {
      if (i >= steps.length) return;
      const r = read(steps[i]);
      // A failed write ends the run before this read is awaited: its own failure is then moot.
      r.catch(() => {});
      reads.push(r);
    };
    const thread = new ReanalysisThread({ brandId, entities, generation: target });
    try {
      for (let i = 0; i < READ_AHEAD; i++) readAhead(i);
      for (let i = 0; i < steps.length; i++) {
        const [answers, citations, verdicts] = await reads.shift()!;
        readAhead(i + READ_AHEAD);
        const step = await thread.step({ answers, citations, verdicts });
        await writing;
        writing = (async () => {
          await stores.ch.insertRowBinary('answer_rows_in', REANALYSIS_COLUMNS, step.rows);
          done += step.answers;
          if (opts.crashAfter !== undefined && done >= opts.crashAfter) throw new Error('re-analysis stopped (test)');
          await reanalysisProgress(stores.pg, brandId, {
            target_generation: target,
            answers_total: total,
            answers_done: done,
          });
        })();
        // A failed write ends the run at the next await of it; until then the worker goes on.
        writing.catch(() => {});
      }
    } finally {
      await thread.close();
    }
    await writing;

    // The switch: from here on every read of the brand takes `target` (and its cache is new).
    await finishReanalysis(stores.pg, brandId, target);
    await stores.ch.insert('brand_generations', [
      {
        brand_id: brandId,
        generation: target,
        switched_at: chTime(new Date().toISOString()),
      },
    ]);
    await dropOtherGenerations(stores.ch, brandId, target, { wait: false });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { brand_id: brandId, answers: done, seconds: Math.round(seconds * 1000) / 1000, generation: target };
  });
}
