// Ingestion: validated answers -> analysis -> rows -> ClickHouse, idempotently by answer id.
// Re-importing an id replaces the answer (reconcile.ts makes each table hold exactly the new rows),
// so no figure ever counts an answer twice, before or after ClickHouse merges.
import type { Stores } from '../stores/index.ts';
import { brandById, brandEntities } from '../tenancy/brands.ts';
import { promptsById } from '../tenancy/prompts.ts';
import { analyzeAnswer, compileEntities, type CompiledEntities } from './analyze.ts';
import { parseCards } from './products.ts';
import { answerId } from './ids.ts';
import { answerRows, FACT_TABLES, type FactTable } from './rows.ts';
import { reconcile } from './reconcile.ts';
import type { ValidAnswer } from './answer-schema.ts';
import { ingestAnswers } from '../http/metrics.ts';

export interface BatchResult {
  inserted: number;
  replaced: number;
  /** Answers refused at this stage (an unknown prompt), by their index in the batch. */
  rejected: { index: number; error: string }[];
  /** The stored id of each accepted answer, by index. */
  ids: Map<number, string>;
}

interface PromptInfo { brandId: string; organizationId: string }

/**
 * Caches what a run of batches looks up again and again: prompts and each brand's compiled
 * entities. Make one per ingest run, so a change of competitors between runs is seen.
 */
export class IngestCache {
  private prompts = new Map<string, PromptInfo | null>();
  private brands = new Map<string, Promise<CompiledEntities>>();
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

  compiled(brandId: string): Promise<CompiledEntities> {
    let c = this.brands.get(brandId);
    if (!c) {
      c = (async () => {
        const brand = await brandById(this.stores.pg, brandId);
        if (!brand) throw new Error(`brand ${brandId} vanished during ingestion`);
        return compileEntities(await brandEntities(this.stores.pg, brand));
      })();
      this.brands.set(brandId, c);
    }
    return c;
  }
}

/** A batch analysed and turned into rows, ready to be written. */
export interface PreparedBatch {
  result: BatchResult;
  wanted: Record<FactTable, Record<string, unknown>[]>;
  order: { index: number; id: string }[];
  ids: string[];
  explicitIds: string[];
  brands: Set<string>;
  days: Set<string>;
}

/**
 * CPU work of a batch: prompt look-ups, analysis and rows. Kept apart from writeBatch so a caller
 * can analyse the next batch while the store is still writing the previous one.
 * Within a batch the last answer of an id wins.
 */
export async function prepareBatch(cache: IngestCache, answers: ValidAnswer[]): Promise<PreparedBatch> {
  const result: BatchResult = { inserted: 0, replaced: 0, rejected: [], ids: new Map() };
  await cache.resolvePrompts(answers.map((a) => a.prompt_id));

  const wanted: Record<FactTable, Record<string, unknown>[]> = { answers: [], answer_entities: [], answer_citations: [], shopping_cards: [] };
  const latest = new Map<string, number>(); // answer id -> index of its last occurrence
  const order: { index: number; id: string }[] = [];
  const explicitIds: string[] = [];
  const brands = new Set<string>();
  const days = new Set<string>();

  answers.forEach((a, index) => {
    const prompt = cache.prompt(a.prompt_id);
    if (!prompt) {
      result.rejected.push({ index, error: `prompt_id: unknown prompt ${a.prompt_id}` });
      return;
    }
    const id = a.id ?? answerId(a);
    if (a.id) explicitIds.push(id);
    latest.set(id, index);
    order.push({ index, id });
    result.ids.set(index, id);
    brands.add(prompt.brandId);
    days.add(a.collected_at.slice(0, 10));
  });

  for (const [id, index] of latest) {
    const a = answers[index];
    const prompt = cache.prompt(a.prompt_id)!;
    const compiled = await cache.compiled(prompt.brandId);
    const shopping = a.mode === 'shopping';
    const analysis = shopping ? null : analyzeAnswer(a, compiled);
    const cards = shopping ? parseCards(a.products, compiled) : [];
    const rows = answerRows(a, { answerId: id, organizationId: prompt.organizationId, brandId: prompt.brandId }, analysis, cards);
    for (const t of FACT_TABLES) for (const r of rows[t]) wanted[t].push(r);
  }
  return { result, wanted, order, ids: [...latest.keys()], explicitIds, brands, days };
}

/** Writes a prepared batch (see reconcile.ts) and counts inserts and replacements. */
export async function writeBatch(stores: Stores, batch: PreparedBatch): Promise<BatchResult> {
  const { result, brands, days } = batch;
  if (result.rejected.length) ingestAnswers.inc({ outcome: 'rejected' }, result.rejected.length);
  if (!batch.ids.length) return result;
  // An answer given an explicit id may have been stored under another brand or day before:
  // find where, so its old rows are in scope and get replaced.
  if (batch.explicitIds.length) {
    const moved = await stores.ch.rows<{ brand_id: string; day: string }>(
      `SELECT DISTINCT brand_id, day FROM answers WHERE answer_id IN {ids:Array(UUID)}`,
      { ids: batch.explicitIds },
    );
    for (const m of moved) { brands.add(m.brand_id); days.add(m.day); }
  }
  const { existed } = await reconcile(stores.ch, { brands: [...brands], days: [...days], answerIds: batch.ids }, batch.wanted);
  // Count per line in file order: the first sight of an id not stored before is an insert,
  // every later sight (in the store already, or earlier in this batch) a replacement.
  const seen = new Set(existed);
  for (const { id } of batch.order) {
    if (seen.has(id)) result.replaced++;
    else { result.inserted++; seen.add(id); }
  }
  await stores.pg.query('UPDATE brands SET data_version = data_version + 1 WHERE id = ANY($1::uuid[])', [[...brands]]);
  ingestAnswers.inc({ outcome: 'inserted' }, result.inserted);
  ingestAnswers.inc({ outcome: 'replaced' }, result.replaced);
  return result;
}

/** Ingests one batch of validated answers. */
export async function ingestBatch(stores: Stores, cache: IngestCache, answers: ValidAnswer[]): Promise<BatchResult> {
  return writeBatch(stores, await prepareBatch(cache, answers));
}
