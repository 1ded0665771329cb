// Ingestion: validated answers -> analysis -> rows -> ClickHouse, idempotently by answer id.
// Re-importing an id replaces the answer (reconcile.ts makes each table hold exactly the new rows),
// so no figure ever counts an answer twice, before or after ClickHouse merges.
import type { Stores } from '../../stores/index.ts';
import { storedAnswerPlaces } from '../../stores/scoped-query.ts';
import { brandById, brandEntities, bumpDataVersion, existingBrandIds } from '../../tenancy/brands.ts';
import { promptsById } from '../../tenancy/prompts.ts';
import { analyzeAnswer, compileEntities, type CompiledEntities } from '../analysis/analyze.ts';
import { parseCards } from '../analysis/products.ts';
import { answerId } from './ids.ts';
import { answerRows } from './answer-rows.ts';
import { LineWriter } from './fact-rows.ts';
import { RowBinaryWriter } from '../../stores/row-binary.ts';
import { reconcile, type WantedLines } from './reconcile.ts';
import type { ValidAnswer } from './answer-schema.ts';
import type { Entity } from '../../tenancy/tracked.ts';
import type { EntitySentiment } from '../analysis/sentiment/entity-sentiment.ts';
import { ingestAnswers } from '../../runtime/metrics.ts';

export interface BatchResult {
  inserted: number;
  replaced: number;
  /** Answers refused at this stage (an unknown prompt), by their index in the batch. */
  rejected: { index: number; error: string }[];
}

export interface PromptInfo {
  brandId: string;
  organizationId: string;
  /** The brand's live analysis generation when the prompt was looked up (under the ingest lock). */
  generation: number;
}

/** What preparing a batch looks up: prompts, and each brand's entities compiled for analysis. */
export interface Lookups {
  /** Looks up the prompts not known yet; prompt() then answers for each of them. */
  resolvePrompts(ids: string[]): Promise<void>;
  /** The prompt's brand and organization; null for an unknown prompt, undefined if not looked up yet. */
  prompt(id: string): PromptInfo | null | undefined;
  compiled(brandId: string): Promise<CompiledEntities>;
  /** The brand's compiled entities if compiled() has given them already. */
  compiledNow(brandId: string): CompiledEntities | undefined;
}

/**
 * Caches what a run of batches looks up again and again: prompts and each brand's entities.
 * Make one per ingest run, so a change of competitors between runs is seen.
 */
export class IngestCache implements Lookups {
  private prompts = new Map<string, PromptInfo | null>();
  private brands = new Map<string, Promise<Entity[]>>();
  private compiledBrands = new Map<string, Promise<CompiledEntities>>();
  private compiledReady = new Map<string, CompiledEntities>();
  constructor(private stores: Stores) {}

  async resolvePrompts(ids: string[]): Promise<void> {
    const unknown = [...new Set(ids)].filter((id) => !this.prompts.has(id));
    if (!unknown.length) return;
    const found = await promptsById(this.stores.pg, unknown);
    for (const id of unknown) {
      const p = found.get(id);
      this.prompts.set(
        id,
        p ? { brandId: p.brand_id, organizationId: p.organization_id, generation: p.generation } : null,
      );
    }
  }

  prompt(id: string): PromptInfo | null | undefined {
    return this.prompts.get(id);
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
      c = this.entities(brandId).then((e) => {
        const compiled = compileEntities(e);
        this.compiledReady.set(brandId, compiled);
        return compiled;
      });
      this.compiledBrands.set(brandId, c);
    }
    return c;
  }

  compiledNow(brandId: string): CompiledEntities | undefined {
    return this.compiledReady.get(brandId);
  }
}

/** The configured model's sentiment verdicts of a batch's answers: answer id -> entity id -> verdict. */
export type BatchVerdicts = ReadonlyMap<string, ReadonlyMap<string, EntitySentiment>>;

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
export function prepareBatch(
  lookups: Lookups,
  answers: ValidAnswer[],
  verdicts?: BatchVerdicts,
): Promise<PreparedBatch> {
  const builder = new BatchBuilder(lookups, undefined, verdicts);
  answers.forEach((a, index) => {
    builder.add(a, index);
  });
  return builder.finish();
}

/**
 * The answer written for an id: its index in the batch and where its lines sit in each of the
 * batch's writers, [start, end) in bytes. One flat object per answer: these live as long as the
 * batch, and every object that does costs the young generation's collector a copy or two.
 */
interface Written {
  index: number;
  wideStart: number;
  wideEnd: number;
  cardsStart: number;
  cardsEnd: number;
}

/**
 * Builds a PreparedBatch as answers come: an answer whose prompt and brand are known already is
 * analysed and written out when it is added, so a caller can parse and analyse a batch in groups
 * without keeping all its answers (ingest/worker.ts). Answers of a prompt not looked up yet wait
 * for finish(), which looks them all up at once. Rows are written in the order answers are
 * analysed; counts and the last answer of each id follow the answers' indexes.
 */
export class BatchBuilder {
  private rejected: PreparedBatch['rejected'] = [];
  private accepted: { index: number; id: string }[] = [];
  private explicitIds: string[] = [];
  private brands = new Set<string>();
  private days = new Set<string>();
  /** Answer id -> the answer written for it (the latest index seen so far). */
  private written = new Map<string, Written>();
  /** Answers written and then replaced by a later answer of the same id in the batch. */
  private dropped: Written[] = [];
  private waiting: { answer: ValidAnswer; index: number }[] = [];
  private writers: { wide: RowBinaryWriter; shopping_cards: LineWriter };

  /**
   * `wideBytes`: the size the batch's answer_rows_in rows are expected to reach, if known.
   * `verdicts`: the model's sentiment verdicts by answer id (captures only, capture/sink.ts).
   */
  constructor(
    private lookups: Lookups,
    wideBytes?: number,
    private verdicts?: BatchVerdicts,
  ) {
    this.writers = { wide: new RowBinaryWriter(wideBytes), shopping_cards: new LineWriter() };
  }

  /** Adds the answer at this index of the batch (indexes increase from call to call). */
  add(answer: ValidAnswer, index: number): void {
    const prompt = this.lookups.prompt(answer.prompt_id);
    const compiled = prompt && this.lookups.compiledNow(prompt.brandId);
    if (prompt === undefined || (prompt && !compiled)) {
      this.waiting.push({ answer, index });
    } else if (prompt === null) {
      this.reject(answer, index);
    } else {
      this.write(answer, index, prompt, compiled!);
    }
  }

  async finish(): Promise<PreparedBatch> {
    const waiting = this.waiting;
    this.waiting = [];
    if (waiting.length) await this.lookups.resolvePrompts(waiting.map((w) => w.answer.prompt_id));
    for (const { answer, index } of waiting) {
      const prompt = this.lookups.prompt(answer.prompt_id);
      if (!prompt) {
        this.reject(answer, index);
        continue;
      }
      this.write(
        answer,
        index,
        prompt,
        this.lookups.compiledNow(prompt.brandId) ?? (await this.lookups.compiled(prompt.brandId)),
      );
    }
    // Answers that waited were analysed after later ones: put counts and rejections back in order.
    if (waiting.length) {
      this.accepted.sort((a, b) => a.index - b.index);
      this.rejected.sort((a, b) => a.index - b.index);
    }
    return {
      rejected: this.rejected,
      order: this.accepted.map((a) => a.id),
      explicitIds: this.explicitIds,
      brands: [...this.brands],
      days: [...this.days],
      wanted: {
        wide: this.writers.wide.bytes(this.dropped.map((w) => [w.wideStart, w.wideEnd] as const)),
        shopping_cards: this.writers.shopping_cards.lines(this.dropped.map((w) => [w.cardsStart, w.cardsEnd] as const)),
      },
    };
  }

  private reject(answer: ValidAnswer, index: number): void {
    this.rejected.push({ index, error: `prompt_id: unknown prompt ${answer.prompt_id}` });
  }

  private write(a: ValidAnswer, index: number, prompt: PromptInfo, compiled: CompiledEntities): void {
    const id = a.id ?? answerId(a);
    if (a.id) this.explicitIds.push(id);
    this.accepted.push({ index, id });
    this.brands.add(prompt.brandId);
    this.days.add(a.collected_at.slice(0, 10));
    const before = this.written.get(id);
    if (before && before.index > index) return; // a later answer of this id is written already
    const shopping = a.mode === 'shopping';
    const analysis = shopping ? null : analyzeAnswer(a, compiled, this.verdicts?.get(id));
    const cards = shopping ? parseCards(a.products, compiled) : [];
    const { wide, shopping_cards } = this.writers;
    const wideStart = wide.size;
    const cardsStart = shopping_cards.size;
    const cardKeys = answerRows(
      a,
      { answerId: id, organizationId: prompt.organizationId, brandId: prompt.brandId, generation: prompt.generation },
      analysis,
      cards,
      wide,
    );
    shopping_cards.add(cardKeys);
    if (before) this.dropped.push(before);
    this.written.set(id, { index, wideStart, wideEnd: wide.size, cardsStart, cardsEnd: shopping_cards.size });
  }
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
    const moved = await stores.ch.rows<{ brand_id: string; day: string }>(storedAnswerPlaces(batch.explicitIds));
    for (const m of moved) {
      brands.add(m.brand_id);
      days.add(m.day);
    }
  }
  const answerIds = [...new Set(batch.order)];
  // Every brand here has its row (brands are never deleted): the scope is read from those rows.
  const scope = { brands: await existingBrandIds(stores.pg, [...brands]), days: [...days], answerIds };
  const existed = await reconcile(stores.ch, scope, batch.wanted);
  // Count per line in file order: the first sight of an id not stored before is an insert,
  // every later sight (in the store already, or earlier in this batch) a replacement.
  const seen = new Set(existed);
  for (const id of batch.order) {
    if (seen.has(id)) result.replaced++;
    else {
      result.inserted++;
      seen.add(id);
    }
  }
  // A re-imported answer may have moved from an earlier day (its old place is in `days` too).
  await bumpDataVersion(stores.pg, [...brands], [...days].sort()[0]);
  ingestAnswers.inc({ outcome: 'inserted' }, result.inserted);
  ingestAnswers.inc({ outcome: 'replaced' }, result.replaced);
  return result;
}

/** Ingests one batch of validated answers (with the model's verdicts of a capture's, if any). */
export async function ingestBatch(
  stores: Stores,
  lookups: Lookups,
  answers: ValidAnswer[],
  verdicts?: BatchVerdicts,
): Promise<BatchResult> {
  return writeBatch(stores, await prepareBatch(lookups, answers, verdicts));
}
