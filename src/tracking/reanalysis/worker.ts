// The worker thread of a re-analysis (started by reanalysis/worker-thread.ts): turns each step's stored
// rows into the answer_rows_in rows of the next generation (reanalysis/step.ts), one step at a time, in order.
import { parentPort } from 'node:worker_threads';
import { compileEntities, type CompiledEntities } from '../analysis/analyze.ts';
import { stepLines } from './step.ts';
import type { ReanalysisInit, ToMain, ToWorker } from './worker-thread.ts';

const port = parentPort!;
// Set by each run's first message: the thread serves one run after another (worker-thread.ts).
let init: ReanalysisInit;
let compiled: CompiledEntities;

port.on('message', (m: ToWorker) => {
  if (m.kind === 'run') {
    init = m;
    compiled = compileEntities(m.entities);
    return;
  }
  let reply: ToMain;
  try {
    reply = { seq: m.seq, ...stepLines(m, init.brandId, compiled, init.generation) };
  } catch (err) {
    reply = { seq: m.seq, error: (err as Error)?.message ?? String(err) };
  }
  // The rows are a view of their writer's own memory (never a shared pool's): it moves whole.
  port.postMessage(reply, 'rows' in reply ? [reply.rows.buffer as ArrayBuffer] : []);
});
