// The main thread's side of a re-analysis's worker thread (reanalysis/worker.ts). The
// analysis of a brand's whole history is CPU work of minutes; on the server's own thread it held
// every request of the process in turns, and its garbage (pages of 20,000 answers with their text)
// paused the thread for a fifth of a second at a time. Here this thread only reads the steps,
// as the engine's bytes, and hands them over without parsing them; the worker parses, analyses and
// serialises, and hands back the rows to write. The thread is borrowed for the run and given back
// idle (runtime/ts-worker.ts): a thread costs about half a CPU second to start.
import { borrowWorker, giveBackWorker, transferable, type TsWorker } from '../../runtime/ts-worker.ts';
import type { StepBytes } from './step.ts';
import type { Entity } from '../../tenancy/tracked.ts';

/** What the worker is told first, for the run. */
export interface ReanalysisInit {
  brandId: string;
  /** The brand's entities as they are now. */
  entities: Entity[];
  /** The generation the rows are written into. */
  generation: number;
}

export type ToWorker = ({ kind: 'run' } & ReanalysisInit) | ({ kind: 'step'; seq: number } & StepBytes);
export type ToMain = { seq: number } & ({ answers: number; rows: Uint8Array } | { error: string });

const MODULE = new URL('./worker.ts', import.meta.url);

export class ReanalysisThread {
  private thread: TsWorker<{ answers: number; rows: Uint8Array }>;

  constructor(init: ReanalysisInit) {
    this.thread = borrowWorker(MODULE, { name: 're-analysis worker' });
    this.thread.worker.on('message', (m: ToMain) =>
      this.thread.settle(m.seq, 'error' in m ? { error: new Error(`re-analysis worker: ${m.error}`) } : { ok: m }),
    );
    this.thread.worker.postMessage({ kind: 'run', ...init } satisfies ToWorker);
  }

  /** The step's answer_rows_in rows (RowBinary) and how many answers they hold. Steps are done in the order given. */
  step(step: StepBytes): Promise<{ answers: number; rows: Uint8Array }> {
    return this.thread.request(
      (seq): ToWorker => ({ kind: 'step', seq, ...step }),
      [...transferable(step.answers), ...transferable(step.citations), ...transferable(step.verdicts)],
    );
  }

  /** Ends the run: the thread is kept for the next one, unless a step is still in hand (a failed run). */
  close(): Promise<void> {
    return giveBackWorker(this.thread, 1);
  }
}
