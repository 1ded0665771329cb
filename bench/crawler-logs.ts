// bench/crawler-logs: writes N access-log lines (combined, vhost combined and a few JSON Lines; AI
// crawlers on the brand's site, crawlers on other hosts, browsers), then imports them exactly as
// `answerscope crawler-logs import FILE --brand ID --host H` does (its command function, in this
// process, so its memory is measured), on the embedded stores unless DATABASE_URL / CLICKHOUSE_URL
// are set. Prints entries per second and the peak memory (in all and per tenth of the run), then
// whether the target of the issue behind docs/api.md section 14 (50,000 entries/s) was met.
//   node --import tsx bench/crawler-logs.ts [N=1000000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { openStores } from '../src/stores/index.ts';
import { migrate } from '../src/stores/migrate.ts';
import { applyWorkspace, parseWorkspace } from '../src/tenancy/workspace.ts';
import { runCommand } from '../src/cli/commands.ts';
import type { ImportSummary } from '../src/traffic/crawlers/import.ts';
import { watchMemory } from './memory.ts';

const N = Number(process.argv[2] ?? 1_000_000);
const TARGET = 50_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-bench-crawlers-'));
const config = loadConfig({ ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent' });
const stores = await openStores(config);
await migrate(stores.pg, stores.ch);
const applied = await applyWorkspace(
  stores.pg,
  parseWorkspace({
    organizations: [
      {
        name: `Bench ${Date.now()}`,
        plan: 'business',
        brands: [{ name: 'Trailpeak', slug: 'trailpeak', domains: ['trailpeak.example'], aliases: [] }],
      },
    ],
  }),
);
const brandId = applied.organizations[0].brands[0].id as string;

// Addresses inside and outside the bundled ranges, so verification takes both paths.
const AGENTS: [string, string][] = [
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot',
    '20.171.206.',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
    '4.151.71.',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
    '216.73.216.',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
    '198.51.100.',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36',
    '52.70.240.',
  ],
];
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const PATHS = ['/', '/pricing', '/docs/getting-started', '/blog/trail-running-shoes', '/products/peak-2?ref=x'];

function line(i: number): string {
  const [ua, net] = i % 2 === 0 ? AGENTS[(i >> 1) % AGENTS.length] : [BROWSER, '192.0.2.'];
  const ip = `${net}${i % 250}`;
  const p = PATHS[i % PATHS.length];
  const second = String(i % 60).padStart(2, '0');
  if (i % 20 === 7) {
    return JSON.stringify({
      timestamp: `2026-11-20T10:00:${second}Z`,
      method: 'GET',
      host: 'trailpeak.example',
      path: p,
      status_code: 200,
      ip,
      user_agent: ua,
      bytes_sent: 2048,
    });
  }
  const host = i % 10 === 3 ? 'other.example ' : i % 10 === 5 ? 'shop.trailpeak.example:443 ' : '';
  return `${host}${ip} - - [20/Nov/2026:10:00:${second} +0000] "GET ${p} HTTP/1.1" ${i % 13 === 0 ? 404 : 200} 5120 "-" "${ua}" 0.012`;
}

const file = path.join(dir, 'access.log');
const out = fs.createWriteStream(file);
for (let i = 0; i < N; i++) if (!out.write(`${line(i)}\n`)) await once(out, 'drain');
out.end();
await once(out, 'finish');
const bytes = fs.statSync(file).size;

const baseline = process.memoryUsage().rss;
const memory = watchMemory();
const started = performance.now();
const argv = ['crawler-logs', 'import', file, '--brand', brandId, '--host', 'trailpeak.example'];
const result = (await runCommand({ stores, config, log: pino({ level: 'silent' }), cwd: dir }, argv)) as ImportSummary;
const seconds = (performance.now() - started) / 1000;
const { peakMb, peakMbByTenth } = memory.stop(seconds);
const [{ stored }] = await stores.ch.system<{ stored: string }>('SELECT count() AS stored FROM ai_crawler_hits');
const rate = Math.round(N / seconds);
console.log(
  JSON.stringify(
    {
      entries: N,
      file_mb: Math.round(bytes / 1e6),
      seconds: Math.round(seconds * 10) / 10,
      entries_per_second: rate,
      rss_before_mb: Math.round(baseline / 1e6),
      peak_rss_mb: peakMb,
      peak_rss_mb_by_tenth: peakMbByTenth,
      accepted: result.accepted,
      dropped: result.dropped,
      rejected: result.rejected_count,
      stored_hits: Number(stored),
      postgres: stores.pg.embedded ? 'embedded PGlite' : 'server',
      clickhouse: stores.ch.embedded ? 'embedded chDB' : 'server',
    },
    null,
    2,
  ),
);
console.log(`target (${TARGET.toLocaleString('en')} entries/s): ${rate >= TARGET ? 'met' : 'NOT met'}`);
await stores.close();
fs.rmSync(dir, { recursive: true, force: true });
