// The configured model as sentiment judge (docs/api.md section 13, docs/analysis.md "Sentiment"):
// with LLM_BASE_URL and LLM_MODEL set, the daily capture asks it how an answer speaks of each
// entity the analyser found named in it, through the shared chat-completions call. Its answer is
// held to the built-in analyser's shape (a polarity and a score in [-1, 1]); an entity it skips or
// judges invalidly, and every entity of a call that fails, keeps the built-in verdict.
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { chatJson, type ChatEndpoint, type ChatMessage } from '../../runtime/chat-completions.ts';
import { sentimentFallbacks } from '../../runtime/metrics.ts';
import { POLARITY_VALUE, type EntitySentiment } from '../analysis/sentiment/entity-sentiment.ts';
import type { Entity } from '../../tenancy/tracked.ts';
import { chTime } from '../../stores/scoped-query.ts';
import { analyzeAnswer } from '../analysis/analyze.ts';
import type { ValidAnswer } from '../ingest/answer-schema.ts';
import { answerId } from '../ingest/ids.ts';
import type { BatchVerdicts, Lookups } from '../ingest/batch.ts';
import { textHash, type VerdictRow } from '../ingest/sentiment-verdicts.ts';

/** Calls to the model at once, per capture run: answers arrive a few at a time, and the model is shared. */
export const JUDGE_CONCURRENCY = 4;

/** What the model must give for each entity: the built-in analyser's shape. */
const Verdict = z.object({
  name: z.string(),
  sentiment: z.enum(['positive', 'neutral', 'negative']),
  score: z.number().min(-1).max(1),
});
/** What the model is shown it must answer. */
const Shown = z.object({ entities: z.array(Verdict) });
/** What a call must parse as: each entry is checked on its own, so one bad entry costs only its entity. */
const Answer = z.object({ entities: z.array(z.unknown()) });

const SYSTEM = `You judge how an AI assistant's answer speaks of named companies and products.
For each entity listed, read only the sentences of the answer that name it (by its name or one of its aliases)
and give its sentiment: positive, neutral or negative, and a score from -1 (very negative) to 1 (very positive),
0 when the answer only mentions it. A comparison that favours one entity over another is positive for the one
and negative for the other. Give each entity under its name as listed, once.
Answer with exactly one JSON object that matches the JSON Schema given, and nothing else.`;

const SCHEMA = JSON.stringify(z.toJSONSchema(Shown));

function messages(text: string, entities: readonly Entity[]): ChatMessage[] {
  // As JSON: the answer's text is one quoted value, kept apart from the list of entities.
  const request = { entities: entities.map((e) => ({ name: e.name, aliases: e.aliases })), answer: text };
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `JSON Schema: ${SCHEMA}\nEntities and answer: ${JSON.stringify(request)}` },
  ];
}

const fold = (s: string) => s.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The model's verdict as stored, or null when it is invalid: the score rounded to 3 decimals as
 * built-in scores are, and a polarity that does not contradict its score's sign (a "positive" with
 * a negative score is no verdict).
 */
function verdictOf(entry: unknown): EntitySentiment | null {
  const v = Verdict.safeParse(entry);
  if (!v.success) return null;
  const score = Math.round(v.data.score * 1000) / 1000 || 0;
  if ((v.data.sentiment === 'positive' && score < 0) || (v.data.sentiment === 'negative' && score > 0)) return null;
  return { sentiment: v.data.sentiment, score };
}

export class SentimentJudge {
  constructor(
    private readonly endpoint: ChatEndpoint,
    private readonly log: Logger,
  ) {}

  /**
   * The model's verdicts on the entities named in a text, by entity id; an entity missing from the
   * map keeps the built-in verdict (counted by reason). Never throws: a failed call is logged once,
   * without the text, and leaves every entity to the built-in analyser.
   */
  async judge(
    text: string,
    named: readonly Entity[],
    about: { answerId: string; brandId: string },
  ): Promise<Map<string, EntitySentiment>> {
    const out = new Map<string, EntitySentiment>();
    let answer: z.output<typeof Answer>;
    try {
      answer = await chatJson(this.endpoint, {
        name: 'entity_sentiment',
        schema: Answer,
        jsonSchema: Shown,
        messages: messages(text, named),
        temperature: 0,
      });
    } catch (err) {
      sentimentFallbacks.inc({ reason: 'failed' }, named.length);
      this.log.warn(
        { answer_id: about.answerId, brand_id: about.brandId, err: (err as Error).message },
        'the sentiment model gave no verdict; the built-in ones stand',
      );
      return out;
    }
    // An entry names its entity by name or alias; the first entry naming an entity is its verdict.
    const byForm = new Map<string, Entity>();
    for (const e of named) {
      for (const form of [e.name, ...e.aliases]) if (!byForm.has(fold(form))) byForm.set(fold(form), e);
    }
    const seen = new Set<string>();
    for (const entry of answer.entities) {
      const name = (entry as { name?: unknown } | null)?.name;
      const entity = typeof name === 'string' ? byForm.get(fold(name)) : undefined;
      if (!entity || seen.has(entity.id)) continue;
      seen.add(entity.id);
      const verdict = verdictOf(entry);
      if (verdict) out.set(entity.id, verdict);
      else sentimentFallbacks.inc({ reason: 'invalid' });
    }
    const skipped = named.length - seen.size;
    if (skipped > 0) sentimentFallbacks.inc({ reason: 'skipped' }, skipped);
    return out;
  }
}

/**
 * The judge the configuration asks for: null without LLM_BASE_URL (every verdict is the built-in
 * analyser's), or with LLM_BASE_URL but no LLM_MODEL (said once per run, as a warning).
 */
export function sentimentJudge(llm: Config['llm'], log: Logger): SentimentJudge | null {
  const { baseUrl, apiKey, model, timeoutMs } = llm;
  if (!baseUrl) return null;
  if (!model) {
    log.warn('LLM_BASE_URL is set without LLM_MODEL: sentiment stays with the built-in analyser');
    return null;
  }
  return new SentimentJudge({ baseUrl, apiKey, model, timeoutMs }, log);
}

/** What the capture of a batch stores of the model's judging, and the verdicts its rows take. */
export interface JudgedBatch {
  rows: VerdictRow[];
  verdicts: BatchVerdicts;
}

/**
 * Asks the model about every standard answer of the batch that names at least one of its brand's
 * entities (the analysis says which), a few calls at a time. An answer of an unknown prompt is
 * left to ingestion, which refuses it.
 */
export async function judgeBatch(
  judge: SentimentJudge,
  lookups: Lookups,
  answers: readonly ValidAnswer[],
  judgedAt: Date,
): Promise<JudgedBatch> {
  await lookups.resolvePrompts(answers.map((a) => a.prompt_id));
  const limit = pLimit(JUDGE_CONCURRENCY);
  const at = chTime(judgedAt.toISOString());
  const verdicts = new Map<string, ReadonlyMap<string, EntitySentiment>>();
  const perAnswer = await Promise.all(
    answers.map(async (a) => {
      const prompt = lookups.prompt(a.prompt_id);
      if (!prompt || a.mode !== 'standard') return [];
      const compiled = await lookups.compiled(prompt.brandId);
      const builtin = analyzeAnswer(a, compiled).sentiments;
      const named = compiled.entities.filter((_, i) => builtin[i] !== null);
      if (!named.length) return [];
      const id = a.id ?? answerId(a);
      const judged = await limit(() => judge.judge(a.text, named, { answerId: id, brandId: prompt.brandId }));
      verdicts.set(id, judged);
      const hash = textHash(a.text);
      return compiled.entities.flatMap((e, i): VerdictRow[] => {
        const s = judged.get(e.id) ?? builtin[i];
        if (!s) return [];
        return [
          {
            brand_id: prompt.brandId,
            day: a.collected_at.slice(0, 10),
            answer_id: id,
            entity_id: e.id,
            judged_at: at,
            text_hash: hash,
            judged: judged.has(e.id) ? 1 : 0,
            sentiment: POLARITY_VALUE[s.sentiment],
            sentiment_score: s.score,
          },
        ];
      });
    }),
  );
  return { rows: perAnswer.flat(), verdicts };
}
