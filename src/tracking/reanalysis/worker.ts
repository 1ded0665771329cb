// The worker thread of a re-analysis (started by reanalysis/worker-thread.ts): turns each step's stored
// rows into the answer_rows_in rows of the next generation (reanalysis/step.ts), one step at a time, in order.
import { parentPort, workerData } from 'node:worker_threads';
import { compileEntities } from '../analysis/analyze.ts';
import { stepLines } from './step.ts';
import type { ReanalysisInit, ToMain, ToWorker } from './worker-thread.ts';

const port = parentPort!;
const init = workerData as ReanalysisInit;
const compiled = compileEntities(init.entities);

port.on('message', (m: ToWorker) => {
  let reply: ToMain;
  try {
    reply = { seq: m.seq, ...stepLines(m, init.brandId, compiled, init.generation) };
  } catch (err) {
    reply = { seq: m.seq, error: (err as Error)?.message ?? String(err) };
  }
  // The rows are a view of their writer's own memory (never a shared pool's): it moves whole.
  port.postMessage(reply, 'rows' in reply ? [reply.rows.buffer as ArrayBuffer] : []);
});
