// Ingestion: validated answers -> analysis -> rows -> ClickHouse, idempotently by answer id.
// Re-importing an id replaces the answer (reconcile.ts makes each table hold exactly the new rows),
// so no figure ever counts an answer twice, before or after ClickHouse merges.
import type { Stores } from '../stores/index.ts';
import { brandById, brandEntities } from '../tenancy/brands.ts';
import { promptsById } from '../tenancy/prompts.ts';
import { analyzeAnswer, compileEntities, type CompiledEntities } from './analyze.ts';
import { parseCards } from './products.ts';
import { answerId } from './ids.ts';
import { answerRows } from './rows.ts';
import { LineWriter } from './row-lines.ts';
import { reconcile, type WantedLines } from './reconcile.ts';
import type { ValidAnswer } from './answer-schema.ts';
import type { Entity } from './types.ts';
import { ingestAnswers } from '../http/metrics.ts';

export interface BatchResult {
  inserted: number;
  replaced: number;
  /** Answers refused at this stage (an unknown prompt), by their index in the batch. */
  rejected: { index: number; error: string }[];
}

export interface PromptInfo { brandId: string; organizationId: string }

/** What preparing a batch looks up: prompts, and each brand's entities compiled for analysis. */
export interface Lookups {
  /** Looks up the prompts not known yet; prompt() then answers for each of them. */
  resolvePrompts(ids: string[]): Promise<void>;
  prompt(id: string): PromptInfo | null;
  compiled(brandId: string): Promise<CompiledEntities>;
}

/**
 * Caches what a run of batches looks up again and again: prompts and each brand's entities.
 * Make one per ingest run, so a change of competitors between runs is seen.
 */
export class IngestCache implements Lookups {
  private prompts = new Map<string, PromptInfo | null>();
  private brands = new Map<string, Promise<Entity[]>>();
  private compiledBrands = new Map<string, Promise<CompiledEntities>>();
  constructor(private stores: Stores) {}

  async resolvePrompts(ids: string[]): Promise<void> {
    const unknown = [...new Set(ids)].filter((id) => !this.prompts.has(id));
    if (!unknown.length) return;
    const found = await promptsById(this.stores.pg, unknown);
    for (const id of unknown) {
      const p = found.get(id);
      this.prompts.set(id, p ? { brandId: p.brand_id, organizationId: p.organization_id } : null);
    }
  }

  prompt(id: string): PromptInfo | null {
    return this.prompts.get(id) ?? null;
  }

  /** The brand and its competitors, brand first. */
  entities(brandId: string): Promise<Entity[]> {
    let e = this.brands.get(brandId);
    if (!e) {
      e = (async () => {
        const brand = await brandById(this.stores.pg, brandId);
        if (!brand) throw new Error(`brand ${brandId} vanished during ingestion`);
        return brandEntities(this.stores.pg, brand);
      })();
      this.brands.set(brandId, e);
    }
    return e;
  }

  compiled(brandId: string): Promise<CompiledEntities> {
    let c = this.compiledBrands.get(brandId);
    if (!c) {
      c = this.entities(brandId).then(compileEntities);
      this.compiledBrands.set(brandId, c);
    }
    return c;
  }
}

/** A batch analysed and turned into rows, ready to be written. Plain data: it crosses threads. */
export interface PreparedBatch {
  /** Answers refused (an unknown prompt), by their index in the batch. */
  rejected: { index: number; error: string }[];
  /** The id of each accepted answer, in batch order (an id may repeat). */
  order: string[];
  /** Ids that came with their answer (the rest are derived). */
  explicitIds: string[];
  brands: string[];
  days: string[];
  /** Lines of the rows of the last answer of each id. */
  wanted: WantedLines;
}

/**
 * CPU work of a batch: prompt look-ups, analysis and rows. Kept apart from writeBatch so a caller
 * can analyse the next batch while the store is still writing the previous one.
 * Within a batch the last answer of an id wins.
 */
export async function prepareBatch(lookups: Lookups, answers: ValidAnswer[]): Promise<PreparedBatch> {
  await lookups.resolvePrompts(answers.map((a) => a.prompt_id));

  const rejected: PreparedBatch['rejected'] = [];
  const latest = new Map<string, number>(); // answer id -> index of its last occurrence
  const order: string[] = [];
  const explicitIds: string[] = [];
  const brands = new Set<string>();
  const days = new Set<string>();

  answers.forEach((a, index) => {
    const prompt = lookups.prompt(a.prompt_id);
    if (!prompt) {
      rejected.push({ index, error: `prompt_id: unknown prompt ${a.prompt_id}` });
      return;
    }
    const id = a.id ?? answerId(a);
    if (a.id) explicitIds.push(id);
    latest.set(id, index);
    order.push(id);
    brands.add(prompt.brandId);
    days.add(a.collected_at.slice(0, 10));
  });

  const writers = { wide: new LineWriter(), shopping_cards: new LineWriter() };
  for (const [id, index] of latest) {
    const a = answers[index];
    const prompt = lookups.prompt(a.prompt_id)!;
    const compiled = await lookups.compiled(prompt.brandId);
    const shopping = a.mode === 'shopping';
    const analysis = shopping ? null : analyzeAnswer(a, compiled);
    const cards = shopping ? parseCards(a.products, compiled) : [];
    const rows = answerRows(a, { answerId: id, organizationId: prompt.organizationId, brandId: prompt.brandId }, analysis, cards);
    writers.wide.addLines(rows.wide);
    writers.shopping_cards.add(rows.shopping_cards);
  }
  const wanted = { wide: writers.wide.lines(), shopping_cards: writers.shopping_cards.lines() };
  return { rejected, order, explicitIds, brands: [...brands], days: [...days], wanted };
}

/** Writes a prepared batch (see reconcile.ts) and counts inserts and replacements. */
export async function writeBatch(stores: Stores, batch: PreparedBatch): Promise<BatchResult> {
  const result: BatchResult = { inserted: 0, replaced: 0, rejected: batch.rejected };
  if (result.rejected.length) ingestAnswers.inc({ outcome: 'rejected' }, result.rejected.length);
  if (!batch.order.length) return result;
  const brands = new Set(batch.brands);
  const days = new Set(batch.days);
  // An answer given an explicit id may have been stored under another brand or day before:
  // find where, so its old rows are in scope and get replaced.
  if (batch.explicitIds.length) {
    const moved = await stores.ch.rows<{ brand_id: string; day: string }>(
      `SELECT DISTINCT brand_id, day FROM answers WHERE answer_id IN {ids:Array(UUID)}`,
      { ids: batch.explicitIds },
    );
    for (const m of moved) { brands.add(m.brand_id); days.add(m.day); }
  }
  const answerIds = [...new Set(batch.order)];
  const existed = await reconcile(stores.ch, { brands: [...brands], days: [...days], answerIds }, batch.wanted);
  // Count per line in file order: the first sight of an id not stored before is an insert,
  // every later sight (in the store already, or earlier in this batch) a replacement.
  const seen = new Set(existed);
  for (const id of batch.order) {
    if (seen.has(id)) result.replaced++;
    else { result.inserted++; seen.add(id); }
  }
  await stores.pg.query('UPDATE brands SET data_version = data_version + 1 WHERE id = ANY($1::uuid[])', [[...brands]]);
  ingestAnswers.inc({ outcome: 'inserted' }, result.inserted);
  ingestAnswers.inc({ outcome: 'replaced' }, result.replaced);
  return result;
}

/** Ingests one batch of validated answers. */
export async function ingestBatch(stores: Stores, lookups: Lookups, answers: ValidAnswer[]): Promise<BatchResult> {
  return writeBatch(stores, await prepareBatch(lookups, answers));
}
