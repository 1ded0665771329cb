// bench/ingest: generates N simulated answers into a JSON Lines file, then ingests it exactly as
// `answerscope ingest` does (parse, validate, analyse, store), on the embedded stores unless
// DATABASE_URL / CLICKHOUSE_URL are set. Prints answers per second, CPU seconds (in all and by kind
// of thread) and the peak memory (in all and per tenth of the run), then issue 21's target line:
// 20,000 answers/s or more with sentiment on (always: the analysis computes it for every answer).
//   node --import tsx bench/ingest.ts [N=100000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { ingestFile } from '../src/tracking/ingest/file.ts';
import { benchWorkspace } from './ingest-workspace.ts';
import { threadCpu } from './thread-cpu.ts';
import { watchMemory } from './memory.ts';

const N = Number(process.argv[2] ?? 100_000);
const TARGET = 20_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-bench-ingest-'));
const ws = await benchWorkspace(dir);
const stores = ws.stores;

const file = path.join(dir, 'answers.jsonl');
const out = fs.createWriteStream(file);
for (const line of ws.lines(N)) {
  if (!out.write(`${line}\n`)) await once(out, 'drain');
}
out.end();
await once(out, 'finish');
const bytes = fs.statSync(file).size;

const baseline = process.memoryUsage().rss;
const memory = watchMemory();
const started = performance.now();
const cpuBefore = process.cpuUsage();
const threads = threadCpu();
const result = await ingestFile(stores, file);
const seconds = (performance.now() - started) / 1000;
const rate = N / seconds;
// CPU time of the whole process (every thread, chDB's included): near 2x seconds means both cores were busy.
const cpu = process.cpuUsage(cpuBefore);
const cpuByThread = threads.stop();
const { peakMb, peakMbByTenth } = memory.stop(seconds);

const [{ answers }] = await stores.ch.system<{ answers: number }>('SELECT sum(sign) AS answers FROM answers');
console.log(
  JSON.stringify(
    {
      answers: N,
      file_mb: Math.round(bytes / 1e6),
      seconds: Math.round(seconds * 10) / 10,
      answers_per_second: Math.round(rate),
      cpu_seconds: Math.round((cpu.user + cpu.system) / 1e5) / 10,
      // The same by kind of thread (Linux only): where to look for the next saving.
      cpu_seconds_by_thread: cpuByThread,
      rss_before_mb: Math.round(baseline / 1e6),
      peak_rss_mb: peakMb,
      peak_rss_mb_by_tenth: peakMbByTenth,
      inserted: result.inserted,
      rejected: result.rejected.length,
      stored_answers: answers,
      postgres: stores.pg.embedded ? 'embedded PGlite' : 'server',
      clickhouse: stores.ch.embedded ? 'embedded chDB' : 'server',
    },
    null,
    2,
  ),
);
console.log(`target (${TARGET.toLocaleString('en')} answers/s with sentiment): ${rate >= TARGET ? 'met' : 'NOT met'}`);
await stores.close();
fs.rmSync(dir, { recursive: true, force: true });
