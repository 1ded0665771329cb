// The worker thread of the resample pool (resample-pool.ts): computes each request's intervals
// (resample.ts) and answers with them, so the bootstrap's CPU never holds the server's thread.
import { parentPort } from 'node:worker_threads';
import { interval } from './resample.ts';
import type { ToMain, ToWorker } from './resample-pool.ts';

const port = parentPort!;

port.on('message', (m: ToWorker) => {
  let reply: ToMain;
  try {
    reply = { seq: m.seq, intervals: m.jobs.map((job) => interval(job, m.opts)) };
  } catch (err) {
    reply = { seq: m.seq, error: (err as Error)?.message ?? String(err) };
  }
  port.postMessage(reply);
});
