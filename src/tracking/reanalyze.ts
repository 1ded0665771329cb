// Re-analysis (CONTRACT.md section 10, docs/analysis.md): every stored answer of a brand analysed
// again from its stored text and citations with the brand's entities as they are now, through the
// same analysis and the same rows as ingestion, written as the brand's next generation beside the
// live one. Only when all of it is written does the brand switch to it (one Postgres UPDATE), so a
// read sees the old analysis or the new one, never a mix; the old generation is deleted after.
// A crash leaves a partial generation nobody reads; the next run deletes it and starts over.
//
// It holds the ingest lock throughout: an answer ingested meanwhile would be analysed into the old
// generation only, and a re-import could cancel rows the run is about to read.
import type { Stores } from '../stores/index.ts';
import { chTime, select } from '../stores/scoped-query.ts';
import { dropOtherGenerations } from '../stores/generations.ts';
import { brandById, brandEntities } from '../tenancy/brands.ts';
import { finishReanalysis, reanalysisProgress } from '../tenancy/reanalysis-queue.ts';
import { analyzeAnswer, compileEntities, type CompiledEntities } from './analyze.ts';
import type { ValidAnswer } from './answer-schema.ts';
import { withIngestLock } from './ingest-lock.ts';
import { REANALYSIS_COLUMNS } from './row-lines.ts';
import { answerRows } from './rows.ts';
import type { Platform } from './types.ts';

/** Answers read, analysed and written per step: about 10-20 MB of text, whatever the brand's size. */
export const PAGE_SIZE = 10_000;

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

interface StoredAnswer {
  answer_id: string;
  organization_id: string;
  prompt_id: string;
  platform: Platform;
  model: string;
  region: string;
  collected_at: string;
  day: string;
  text: string;
}

interface StoredCitation {
  answer_id: string;
  url: string;
  title: string;
}

type PageAfter = { day: string; id: string } | null;
type StoredPage = StoredAnswer[];

/** One page of the brand's live standard answers after (day, answer_id), in that order. */
function answersPage(brandId: string, after: PageAfter, size: number) {
  return select(
    { table: 'answers', scope: { brandId }, final: true },
    {
      select: 'answer_id, organization_id, prompt_id, platform, model, region, collected_at, day, text',
      // Shopping answers have no analysis rows (CONTRACT.md section 2); a cancelled answer is gone.
      where: `sign = 1 AND mode = 'standard'${after ? ' AND (day, answer_id) > ({afterDay:Date}, {afterId:UUID})' : ''}`,
      orderBy: 'day, answer_id',
      limit: '{size:UInt32}',
      params: { size, ...(after ? { afterDay: after.day, afterId: after.id } : {}) },
    },
  );
}

/** The stored citations of these answers in the live generation, each answer's first one first. */
function citationsOf(brandId: string, generation: number, ids: string[], firstDay: string, lastDay: string) {
  return select(
    {
      table: 'answer_citations',
      scope: {
        brandId,
        generation,
        from: new Date(`${firstDay}T00:00:00.000Z`),
        to: new Date(`${lastDay}T23:59:59.999Z`),
      },
      final: true,
    },
    {
      select: 'answer_id, url, title',
      where: 'sign = 1 AND answer_id IN {ids:Array(UUID)}',
      orderBy: 'answer_id, answer_first DESC, url',
      params: { ids },
    },
  );
}

/** The answer_rows_in lines of one page: its answers analysed as they would be at ingestion. */
function pageLines(
  answers: StoredPage,
  citations: StoredCitation[],
  brandId: string,
  compiled: CompiledEntities,
  generation: number,
): string {
  const byAnswer = new Map<string, { url: string; title: string }[]>();
  for (const c of citations) {
    const list = byAnswer.get(c.answer_id) ?? [];
    list.push({ url: c.url, title: c.title });
    byAnswer.set(c.answer_id, list);
  }
  let body = '';
  for (const a of answers) {
    const answer: ValidAnswer = {
      prompt_id: a.prompt_id,
      platform: a.platform,
      model: a.model,
      region: a.region,
      mode: 'standard',
      collected_at: new Date(a.collected_at).toISOString(),
      text: a.text,
      citations: byAnswer.get(a.answer_id) ?? [],
      products: [],
    };
    const analysis = analyzeAnswer(answer, compiled);
    // The answers row is stored already and the answers view skips re-analysis lines: no need to
    // send the text to ClickHouse again.
    const ctx = { answerId: a.answer_id, organizationId: a.organization_id, brandId, generation, reanalysis: true };
    body += answerRows({ ...answer, text: '' }, ctx, analysis, []).wide;
  }
  return body;
}

/**
 * Re-analyses every stored answer of the brand and switches it to the new generation. The caller
 * has claimed the brand's reanalyses row (src/tenancy/reanalysis-queue.ts).
 */
export function reanalyzeBrand(
  stores: Stores,
  brandId: string,
  opts: ReanalysisOptions = {},
): Promise<ReanalysisResult> {
  return withIngestLock(stores, async () => {
    const started = process.hrtime.bigint();
    const brand = await brandById(stores.pg, brandId);
    if (!brand) throw new Error(`brand ${brandId} does not exist`);
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
    const compiled = compileEntities(await brandEntities(stores.pg, brand));
    const [{ total }] = await stores.ch.rows<{ total: number }>(
      select(
        { table: 'answers', scope: { brandId }, final: true },
        { select: 'count() AS total', where: "sign = 1 AND mode = 'standard'" },
      ),
    );
    await reanalysisProgress(stores.pg, brandId, { target_generation: target, answers_total: total, answers_done: 0 });

    const size = opts.pageSize ?? PAGE_SIZE;
    let after: PageAfter = null;
    let done = 0;
    for (;;) {
      const page: StoredPage = await stores.ch.rows(answersPage(brandId, after, size));
      if (!page.length) break;
      const [first, last] = [page[0], page[page.length - 1]];
      const ids = page.map((a) => a.answer_id);
      const citations = await stores.ch.rows<StoredCitation>(citationsOf(brandId, live, ids, first.day, last.day));
      await stores.ch.insertLines(
        'answer_rows_in',
        REANALYSIS_COLUMNS,
        pageLines(page, citations, brandId, compiled, target),
      );
      done += page.length;
      if (opts.crashAfter !== undefined && done >= opts.crashAfter) throw new Error('re-analysis stopped (test)');
      await reanalysisProgress(stores.pg, brandId, {
        target_generation: target,
        answers_total: total,
        answers_done: done,
      });
      if (page.length < size) break;
      after = { day: last.day, id: last.answer_id };
    }

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
