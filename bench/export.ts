// bench/export: ingests N simulated answers for one brand (bench/ingest-workspace.ts: realistic
// texts and citations, 2,800 answers a day), closes the stores, then runs the real command
// `answerscope export answers --brand ID` in a child process on the same DATA_DIR, as an operator
// would, its standard output read and thrown away (a pipe, so backpressure applies; the lines are
// counted to check the export is whole). The child's resident memory is sampled from /proc every
// 100 ms (Linux): the peak in all and per tenth of the run, so flat memory shows as no trend.
// `parquet`: the same export with --format parquet (docs/warehouse.md), its bytes counted instead of
// its lines, and the file's row count read from its footer to check it is whole.
//   node --import tsx bench/export.ts [N=1000000] [jsonl|parquet]      (npm run bench:export -- N parquet)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ingestFile } from '../src/tracking/ingest/file.ts';
import { benchWorkspace } from './ingest-workspace.ts';

const N = Number(process.argv[2] ?? 1_000_000);
const FORMAT = process.argv[3] ?? 'jsonl';
if (FORMAT !== 'jsonl' && FORMAT !== 'parquet') throw new Error('format: jsonl or parquet');
/** Memory must not grow with the history: one page of answers, the engines, and nothing per answer. */
const TARGET_MB = 1_024;
const BIN = fileURLToPath(new URL('../bin/answerscope.js', import.meta.url));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-bench-export-'));
const ws = await benchWorkspace(dir);
const { stores, brandId } = ws;
const file = path.join(dir, 'answers.jsonl');
const out = fs.createWriteStream(file);
for (const line of ws.lines(N)) {
  if (!out.write(`${line}\n`)) await once(out, 'drain');
}
out.end();
await once(out, 'finish');
const ingestStarted = performance.now();
const ingested = await ingestFile(stores, file);
const ingestSeconds = (performance.now() - ingestStarted) / 1000;
fs.rmSync(file);
// The embedded stores belong to one process: the command opens them itself once these are closed.
await stores.close();

/** Resident memory of a process in bytes, from /proc (0 once it has exited). */
function rssOf(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

const env = { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent' };
const started = performance.now();
const child = spawn(process.execPath, [BIN, 'export', 'answers', '--brand', brandId, '--format', FORMAT], {
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
});
const samples: { at: number; rss: number }[] = [];
const timer = setInterval(() => {
  const rss = rssOf(child.pid!);
  if (rss) samples.push({ at: performance.now(), rss });
}, 100);
let lines = 0;
let bytes = 0;
// A Parquet file is kept to read its row count from its footer (hyparquet reads only the footer).
const parquetFile = path.join(dir, 'answers.parquet');
const kept = FORMAT === 'parquet' ? fs.createWriteStream(parquetFile) : undefined;
child.stdout.on('data', (chunk: Buffer) => {
  bytes += chunk.length;
  if (kept && !kept.write(chunk)) {
    child.stdout.pause();
    kept.once('drain', () => child.stdout.resume());
  }
  if (kept) return;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
});
let stderr = '';
child.stderr.on('data', (d) => (stderr += d));
const [code] = (await once(child, 'close')) as [number];
clearInterval(timer);
if (kept) {
  kept.end();
  await once(kept, 'finish');
  if (code === 0) {
    const { parquetMetadataAsync } = await import('hyparquet');
    const handle = await fs.promises.open(parquetFile);
    const byteLength = (await handle.stat()).size;
    const file = {
      byteLength,
      slice: async (start: number, end = byteLength) => {
        const buf = Buffer.alloc(end - start);
        await handle.read(buf, 0, end - start, start);
        return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
      },
    };
    lines = Number((await parquetMetadataAsync(file)).num_rows);
    await handle.close();
  }
}
const seconds = (performance.now() - started) / 1000;

const peak = Math.max(0, ...samples.map((s) => s.rss));
const byTenth = Array<number>(10).fill(0);
for (const { at, rss } of samples) {
  const tenth = Math.min(9, Math.max(0, Math.floor(((at - started) / (seconds * 1000)) * 10)));
  byTenth[tenth] = Math.max(byTenth[tenth], rss);
}
const mb = (b: number) => Math.round(b / 1e6);
console.log(
  JSON.stringify(
    {
      answers_ingested: ingested.inserted,
      ingest_seconds: Math.round(ingestSeconds * 10) / 10,
      exit_code: code,
      stderr: stderr.trim() || undefined,
      format: FORMAT,
      answers_exported: lines,
      megabytes_exported: mb(bytes),
      export_seconds: Math.round(seconds * 10) / 10,
      answers_per_second: Math.round(lines / seconds),
      peak_rss_mb: mb(peak),
      peak_rss_mb_by_tenth: byTenth.map(mb),
      postgres: process.env.DATABASE_URL ? 'server' : 'embedded PGlite',
      clickhouse: process.env.CLICKHOUSE_URL ? 'server' : 'embedded chDB',
    },
    null,
    2,
  ),
);
const met = code === 0 && lines === N && mb(peak) < TARGET_MB;
console.log(
  `target (${FORMAT}: peak RSS under ${TARGET_MB.toLocaleString('en')} MB at 1,000,000 answers): ` +
    (met ? 'met' : 'NOT met'),
);
fs.rmSync(dir, { recursive: true, force: true });
