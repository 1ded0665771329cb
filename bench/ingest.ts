// bench/ingest: generates N simulated answers into a JSON Lines file, then ingests it exactly as
// `answerscope ingest` does (parse, validate, analyse, store), on the embedded stores unless
// DATABASE_URL / CLICKHOUSE_URL are set. Prints answers per second and the peak memory.
//   node --import tsx bench/ingest.ts [N=100000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { openStores } from '../src/stores/index.ts';
import { migrate } from '../src/stores/migrate.ts';
import { applyWorkspace, parseWorkspace } from '../src/tenancy/workspace.ts';
import { ingestFile } from '../src/tracking/ingest-file.ts';
import { simulateDays } from '../src/tracking/engines/simulated.ts';
import { loadSimBrands } from '../src/tracking/engines/simulated-brands.ts';
import { PLATFORMS } from '../src/tracking/types.ts';

const N = Number(process.argv[2] ?? 100_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-bench-ingest-'));
const config = loadConfig({ ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent' });
pino({ level: 'silent' });
const stores = await openStores(config);
await migrate(stores.pg, stores.ch);

// One brand with 10 competitors and 200 prompts on 7 platforms in 2 regions: 2,800 answers a day.
const platforms = PLATFORMS.filter((p) => p !== 'grok');
const workspace = parseWorkspace({ organizations: [{ name: `Bench ${Date.now()}`, plan: 'business', brands: [{
  name: 'Trailpeak', slug: 'trailpeak', domains: ['trailpeak.example'], aliases: ['Trail Peak'],
  competitors: Array.from({ length: 10 }, (_, i) => ({ name: `Rival ${String.fromCharCode(65 + i)}${i}`, domains: [`rival${i}.example`] })),
  topics: Array.from({ length: 10 }, (_, t) => ({ name: `Topic ${t}`, prompts: Array.from({ length: 20 }, (_, p) => ({
    text: `best outdoor gear question ${t}-${p}`, platforms, regions: ['US', 'GB'] })) })),
}] }] });
const applied = await applyWorkspace(stores.pg, workspace);
const brands = await loadSimBrands(stores.pg, [applied.organizations[0].brands[0].id]);

const file = path.join(dir, 'answers.jsonl');
const out = fs.createWriteStream(file);
let written = 0;
for (const answer of simulateDays({ seed: 7, brands, from: '2025-01-01', days: Math.ceil(N / 2800) })) {
  if (written++ >= N) break;
  if (!out.write(`${JSON.stringify(answer)}\n`)) await once(out, 'drain');
}
out.end();
await once(out, 'finish');
const bytes = fs.statSync(file).size;

const baseline = process.memoryUsage().rss;
let peak = 0;
const sample = () => { peak = Math.max(peak, process.memoryUsage().rss); };
const timer = setInterval(sample, 100);
sample();
const started = performance.now();
const cpuBefore = process.cpuUsage();
const result = await ingestFile(stores, file);
const seconds = (performance.now() - started) / 1000;
// CPU time of the whole process (every thread, chDB's included): near 2x seconds means both cores were busy.
const cpu = process.cpuUsage(cpuBefore);
clearInterval(timer);
sample();

const [{ answers }] = await stores.ch.rows<{ answers: number }>('SELECT sum(sign) AS answers FROM answers');
console.log(JSON.stringify({
  answers: N,
  file_mb: Math.round(bytes / 1e6),
  seconds: Math.round(seconds * 10) / 10,
  answers_per_second: Math.round(N / seconds),
  cpu_seconds: Math.round((cpu.user + cpu.system) / 1e5) / 10,
  rss_before_mb: Math.round(baseline / 1e6),
  peak_rss_mb: Math.round(peak / 1e6),
  inserted: result.inserted,
  rejected: result.rejected.length,
  stored_answers: answers,
  postgres: stores.pg.embedded ? 'embedded PGlite' : 'server',
  clickhouse: stores.ch.embedded ? 'embedded chDB' : 'server',
}, null, 2));
await stores.close();
fs.rmSync(dir, { recursive: true, force: true });
