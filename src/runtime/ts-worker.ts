// Starts a worker thread on one of our TypeScript modules. The sources run through tsx (as
// bin/answerscope.js registers it), and a worker starts without the parent's loaders, so it
// registers tsx itself before loading the module. Both worker threads of the service (ingestion's,
// tracking/prepare-thread.ts, and re-analysis's, tracking/reanalysis-thread.ts) start here.
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startTsWorker(module: URL, opts: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const boot = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
register();
await import(${JSON.stringify(module.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), { execArgv: [], ...opts });
}
