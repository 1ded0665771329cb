// bench/reanalyze: ingests N simulated answers for one brand (bench/ingest-workspace.ts), adds a
// competitor, then re-analyses the whole history as `answerscope reanalyze --brand ID` does, on the
// embedded stores unless DATABASE_URL / CLICKHOUSE_URL are set. Meanwhile one client reads the
// brand's visibility summary (uncached) again and again: the cost of reads during a re-analysis.
// Prints answers per second, peak memory (in all and per tenth of the run), read latencies, how
// long the event loop was held, and the target line.
//   node --import tsx bench/reanalyze.ts [N=100000]   (READS=0: no reader; PAGE_SIZE=n: answers per page)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ingestFile } from '../src/tracking/ingest/file.ts';
import { reanalyzeBrand } from '../src/tracking/reanalysis/reanalyze.ts';
import { startReanalysis } from '../src/tenancy/reanalysis-queue.ts';
import { brandById } from '../src/tenancy/brands.ts';
import { visibilitySummary } from '../src/analytics/visibility-summary.ts';
import { benchWorkspace } from './ingest-workspace.ts';
import { watchMemory } from './memory.ts';
import { threadCpu } from './thread-cpu.ts';

const N = Number(process.argv[2] ?? 100_000);
const TARGET = 20_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-bench-reanalyze-'));
const ws = await benchWorkspace(dir);
const { stores, brandId } = ws;

const file = path.join(dir, 'answers.jsonl');
const out = fs.createWriteStream(file);
for (const line of ws.lines(N)) {
  if (!out.write(`${line}\n`)) await once(out, 'drain');
}
out.end();
await once(out, 'finish');
await ingestFile(stores, file);

// A competitor the answers name, added after the fact.
await stores.pg.query(
  `INSERT INTO competitors (id, brand_id, name, domains, aliases) VALUES (gen_random_uuid(), $1, 'Rival Z', '{}', '{}')`,
  [brandId],
);

// The reader reads as an API caller does: in its organization's line (src/runtime/fair-queue.ts),
// taking turns with the re-analysis's own reads.
const reader = stores.ch.forCaller(brandId);
/** One uncached summary read over all history, as the API runs it. */
async function read(): Promise<number> {
  const started = performance.now();
  const brand = (await brandById(stores.pg, brandId))!;
  await visibilitySummary(reader, { brandId: brand.id, generation: brand.analysis_generation }, brand, new Map());
  return performance.now() - started;
}
const alone: number[] = [];
for (let i = 0; i < 20; i++) alone.push(await read());

const memory = watchMemory();
const during: number[] = [];
// READS=0 measures the re-analysis alone.
let running = process.env.READS !== '0';
const reading = (async () => {
  while (running) during.push(await read());
})();
const cpu = threadCpu('re-analysis worker');
// How long the server's thread was held at a time (work or garbage collection): what every other
// request of the process waits for on top of its own time.
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const started = performance.now();
await startReanalysis(stores.pg, brandId, 'bench');
const pageSize = process.env.PAGE_SIZE ? Number(process.env.PAGE_SIZE) : undefined;
const result = await reanalyzeBrand(stores, brandId, { pageSize });
const seconds = (performance.now() - started) / 1000;
running = false;
loop.disable();
const cpuByThread = cpu.stop();
await reading;
const { peakMb, peakMbByTenth } = memory.stop(seconds);
const pct = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
};
const rate = Math.round(result.answers / seconds);
console.log(
  JSON.stringify(
    {
      answers: result.answers,
      seconds: Math.round(seconds * 10) / 10,
      answers_per_second: rate,
      cpu_seconds_by_thread: cpuByThread,
      peak_rss_mb: peakMb,
      peak_rss_mb_by_tenth: peakMbByTenth,
      summary_read_ms_alone: { p50: pct(alone, 50), p99: pct(alone, 99) },
      summary_read_ms_during: { reads: during.length, p50: pct(during, 50), p99: pct(during, 99) },
      event_loop_delay_ms: { p99: Math.round(loop.percentile(99) / 1e6), max: Math.round(loop.max / 1e6) },
      postgres: stores.pg.embedded ? 'embedded PGlite' : 'server',
      clickhouse: stores.ch.embedded ? 'embedded chDB' : 'server',
    },
    null,
    2,
  ),
);
console.log(`target (${TARGET.toLocaleString('en')} answers/s): ${rate >= TARGET ? 'met' : 'NOT met'}`);
await stores.close();
fs.rmSync(dir, { recursive: true, force: true });
