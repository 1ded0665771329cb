// Where captured answers go: batched through the existing ingestion (analysis, ClickHouse,
// data_version bump), then their runs are marked succeeded. A run is marked only after its answer
// is stored, so a crash in between leaves it running; the next run takes the stale claim over and
// stores the slot's answer again under the same id, which replaces it (no duplicate).
// With the model configured as sentiment judge, each batch is judged first (sentiment-judge.ts)
// and its verdicts are stored just before its rows, which take them.
import type { Logger } from 'pino';
import type { Stores } from '../../stores/index.ts';
import type { ValidAnswer } from '../ingest/answer-schema.ts';
import { completeRuns, failRun, type Claim } from './runs.ts';
import { IngestCache, ingestBatch } from '../ingest/batch.ts';
import { withIngestLock } from '../ingest/lock.ts';
import { judgeBatch, type SentimentJudge } from './sentiment-judge.ts';
import { writeVerdicts } from '../ingest/sentiment-verdicts.ts';

interface Pending {
  claim: Claim;
  answer: ValidAnswer;
}

export class AnswerSink {
  private buffer: Pending[] = [];
  private chain: Promise<void> = Promise.resolve();
  /** Answers stored and marked succeeded by this run. */
  stored = 0;
  /** Set when the store failed: the run stops asking providers and ends with this error. */
  error: Error | null = null;

  constructor(
    private stores: Stores,
    private log: Logger,
    private batchSize: number,
    private onError: () => void,
    /** The model that judges sentiment; null: the built-in analyser alone. */
    private judge: SentimentJudge | null = null,
  ) {}

  /** Queues an answer; a full batch is written before this resolves (back-pressure on captures). */
  async add(claim: Claim, answer: ValidAnswer): Promise<void> {
    this.buffer.push({ claim, answer });
    if (this.buffer.length >= this.batchSize) await this.flush();
  }

  /** Writes what is buffered; batches are written one at a time, in order. */
  flush(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length) this.chain = this.chain.then(() => this.write(batch));
    return this.chain;
  }

  private async write(batch: Pending[]): Promise<void> {
    if (this.error) {
      await this.failAll(batch, this.error.message);
      return;
    }
    try {
      const answers = batch.map((p) => p.answer);
      // The model is asked outside the ingest lock: its calls take seconds, which a re-analysis
      // waiting for the lock should not wait for. A verdict is keyed by entity id, so an entity a
      // re-analysis removed meanwhile is simply not named any more when the rows are made.
      const judged = this.judge
        ? await judgeBatch(this.judge, new IngestCache(this.stores), answers, new Date())
        : undefined;
      // A fresh cache inside the lock: a re-analysis between two batches may have switched a
      // brand's generation and entities, and rows must be written as the brand reads them now.
      const result = await withIngestLock(this.stores, async () => {
        if (judged?.rows.length) await writeVerdicts(this.stores.ch, judged.rows);
        return ingestBatch(this.stores, new IngestCache(this.stores), answers, judged?.verdicts);
      });
      const refused = new Map(result.rejected.map((r) => [r.index, r.error]));
      for (const [index, error] of refused) {
        await failRun(this.stores.pg, batch[index].claim, {
          kind: 'store_error',
          message: `the answer was refused: ${error}`,
        });
      }
      const done = batch.filter((_, i) => !refused.has(i)).map((p) => ({ claim: p.claim, model: p.answer.model }));
      // A run whose claim was taken over meanwhile is not this run's to mark (nor to count).
      this.stored += await completeRuns(this.stores.pg, done);
    } catch (err) {
      this.error = err as Error;
      this.log.error({ err }, 'storing captured answers failed; the capture run stops');
      this.onError();
      await this.failAll(batch, (err as Error).message);
    }
  }

  private async failAll(batch: Pending[], reason: string): Promise<void> {
    for (const p of batch) {
      await failRun(this.stores.pg, p.claim, {
        kind: 'store_error',
        message: `the answer could not be stored: ${reason}`,
      }).catch(() => {});
    }
  }
}
