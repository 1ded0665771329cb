// The model's sentiment verdicts, kept (clickhouse/016_sentiment_verdicts.sql) so a re-analysis
// re-derives what the capture wrote: the capture judges a batch of answers
// (capture/sentiment-judge.ts) and writes the verdicts before the answers' rows; a re-analysis
// reads those of a step back (latestJudgings) and gives each answer the verdicts of its latest
// judging, if that judged the text it stores.
import { createHash } from 'node:crypto';
import type { ClickHouse } from '../../stores/clickhouse.ts';
import { type BrandId, select } from '../../stores/scoped-query.ts';
import { polarityOfValue, type EntitySentiment } from '../analysis/sentiment/entity-sentiment.ts';

/** One row of sentiment_verdicts, as written. */
export interface VerdictRow {
  brand_id: string;
  day: string;
  answer_id: string;
  entity_id: string;
  judged_at: string;
  text_hash: string;
  /** 1: the model's verdict; 0: the built-in one stood (its values are kept for the record). */
  judged: 0 | 1;
  sentiment: -1 | 0 | 1;
  sentiment_score: number;
}

/** A row as a re-analysis reads it back. */
export type StoredVerdict = Pick<
  VerdictRow,
  'answer_id' | 'entity_id' | 'judged_at' | 'text_hash' | 'judged' | 'sentiment' | 'sentiment_score'
>;

/** The columns of StoredVerdict, for a scoped read of sentiment_verdicts. */
export const VERDICT_COLUMNS = 'answer_id, entity_id, judged_at, text_hash, judged, sentiment, sentiment_score';

/** Which text a verdict judged. A re-analysis hashes only the answers that have verdicts. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** Writes a batch's verdict rows (before the answers' rows, so no stored answer lacks its verdicts). */
export async function writeVerdicts(ch: ClickHouse, rows: readonly VerdictRow[]): Promise<void> {
  await ch.insert('sentiment_verdicts', rows);
}

/** Whether the brand has any verdict: a re-analysis reads them only then (one look-up per run). */
export async function hasVerdicts(ch: ClickHouse, brandId: BrandId): Promise<boolean> {
  const q = select({ table: 'sentiment_verdicts', scope: { brandId } }, { select: '1', limit: '1' });
  return (await ch.rows(q)).length > 0;
}

/** An answer's latest judging: the text it judged and the model's verdicts (entity id -> verdict). */
export interface Judging {
  textHash: string;
  verdicts: Map<string, EntitySentiment>;
}

/**
 * The latest judging of each answer, from its rows (read FINAL: one per answer and entity). Rows of
 * an earlier judging, for entities the latest one did not see named, are left out.
 */
export function latestJudgings(rows: readonly StoredVerdict[]): Map<string, Judging> {
  const latest = new Map<string, string>();
  for (const r of rows) {
    const seen = latest.get(r.answer_id);
    if (seen === undefined || r.judged_at > seen) latest.set(r.answer_id, r.judged_at);
  }
  const out = new Map<string, Judging>();
  for (const r of rows) {
    if (r.judged_at !== latest.get(r.answer_id)) continue;
    let j = out.get(r.answer_id);
    if (!j) {
      j = { textHash: r.text_hash, verdicts: new Map() };
      out.set(r.answer_id, j);
    }
    if (Number(r.judged) === 1) {
      j.verdicts.set(r.entity_id, { sentiment: polarityOfValue(r.sentiment), score: Number(r.sentiment_score) });
    }
  }
  return out;
}

/** The model's verdicts an answer's stored text keeps: none when its latest judging saw another text. */
export function verdictsFor(
  judgings: ReadonlyMap<string, Judging>,
  answerId: string,
  text: string,
): Map<string, EntitySentiment> | undefined {
  const j = judgings.get(answerId);
  return j && j.verdicts.size > 0 && j.textHash === textHash(text) ? j.verdicts : undefined;
}
