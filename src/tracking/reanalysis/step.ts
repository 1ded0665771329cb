// One step of a re-analysis (reanalyze.ts), as its worker thread (reanalysis/worker-thread.ts) does it:
// the step's stored answers, citations and model verdicts, read as the engine's JSONEachRow bytes,
// become the answer_rows_in rows (RowBinary) of the next generation. Pure: no store, no clock.
import { analyzeAnswer, type CompiledEntities } from '../analysis/analyze.ts';
import type { ValidAnswer } from '../ingest/answer-schema.ts';
import { RowBinaryWriter } from '../../stores/row-binary.ts';
import { answerRows } from '../ingest/answer-rows.ts';
import { latestJudgings, verdictsFor, type StoredVerdict } from '../ingest/sentiment-verdicts.ts';
import type { Platform } from '../../tenancy/tracked.ts';

/** The columns each read of a step selects, in the shapes below. */
export const ANSWER_COLUMNS = 'answer_id, organization_id, prompt_id, platform, model, region, collected_at, text';
export const CITATION_COLUMNS = 'answer_id, url, title, answer_first';

export interface StoredAnswer {
  answer_id: string;
  organization_id: string;
  prompt_id: string;
  platform: Platform;
  model: string;
  region: string;
  collected_at: string;
  text: string;
}

export interface StoredCitation {
  answer_id: string;
  url: string;
  title: string;
  answer_first: number;
}

/** A step as read: each part the rows of one read (JSONEachRow, UTF-8); `verdicts` null when the brand has none. */
export interface StepBytes {
  answers: Uint8Array;
  citations: Uint8Array;
  verdicts: Uint8Array | null;
}

const decoder = new TextDecoder();

/** The rows of JSONEachRow bytes. */
export function parseRows<T>(bytes: Uint8Array): T[] {
  const rows: T[] = [];
  for (const line of decoder.decode(bytes).split('\n')) if (line) rows.push(JSON.parse(line) as T);
  return rows;
}

/**
 * An answer's citations as analysis takes them: its first one first, then by URL (the stored rows
 * keep which one came first, not the order of the rest). Sorted here rather than by ClickHouse,
 * which then streams the rows as stored instead of sorting every row of the step.
 */
function inStoredOrder(list: StoredCitation[] | undefined): { url: string; title: string }[] {
  if (!list) return [];
  list.sort((a, b) => b.answer_first - a.answer_first || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return list.map((c) => ({ url: c.url, title: c.title }));
}

/** The answer_rows_in rows of one step, its answers analysed as they would be at ingestion. */
export function stepLines(
  step: StepBytes,
  brandId: string,
  compiled: CompiledEntities,
  generation: number,
): { answers: number; rows: Uint8Array } {
  const answers = parseRows<StoredAnswer>(step.answers);
  const judgings = step.verdicts ? latestJudgings(parseRows<StoredVerdict>(step.verdicts)) : null;
  const byAnswer = new Map<string, StoredCitation[]>();
  for (const c of parseRows<StoredCitation>(step.citations)) {
    const list = byAnswer.get(c.answer_id);
    if (list) list.push(c);
    else byAnswer.set(c.answer_id, [c]);
  }
  const out = new RowBinaryWriter(answers.length * 1024);
  for (const a of answers) {
    const answer: ValidAnswer = {
      prompt_id: a.prompt_id,
      platform: a.platform,
      model: a.model,
      region: a.region,
      mode: 'standard',
      collected_at: new Date(a.collected_at).toISOString(),
      text: a.text,
      citations: inStoredOrder(byAnswer.get(a.answer_id)),
      products: [],
    };
    const analysis = analyzeAnswer(answer, compiled, judgings ? verdictsFor(judgings, a.answer_id, a.text) : undefined);
    // The answers row is stored already and the answers view skips re-analysis rows: no need to
    // send the text to ClickHouse again.
    const ctx = { answerId: a.answer_id, organizationId: a.organization_id, brandId, generation, reanalysis: true };
    answerRows({ ...answer, text: '' }, ctx, analysis, [], out);
  }
  // Bytes, as ingestion writes them: one string of the whole page cost more in concatenation,
  // garbage collection and its UTF-8 copy for the insert than the analysis itself.
  return { answers: answers.length, rows: out.bytes() };
}
