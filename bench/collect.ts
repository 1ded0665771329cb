// `npm run bench:collect`: how many tracking beacons per second POST /api/collect accepts on
// loopback. Starts the app on a temporary DATA_DIR (embedded PGlite and chDB), seeds one brand,
// sends AI-referred beacons for a bounded time with autocannon (on a worker thread, so the load
// generator does not share the server's event loop), then flushes the visit buffer and counts the
// rows stored. Target (issue 9): at least 5,000 accepted beacons per second.
//
// Options (environment): BENCH_DURATION_S (10), BENCH_CONNECTIONS (64), COLLECT_RATE_LIMIT_MAX
// (raised to 1e9 here so the per-address limit does not cap a single load generator).
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { applyWorkspace, parseWorkspace } from '../src/tenancy/workspace.ts';

const TARGET = 5000;
const load = () => os.loadavg()[0].toFixed(1);
const durationS = Number(process.env.BENCH_DURATION_S ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const TRACKING_ID = 'as_bench_site';

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-bench-collect-'));
  // Only what the bench needs: no DATABASE_URL / CLICKHOUSE_URL from the caller, so stores are embedded.
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    SCHEDULER: '0',
    LOG_LEVEL: 'warn',
    COLLECT_RATE_LIMIT_MAX: process.env.COLLECT_RATE_LIMIT_MAX ?? '1000000000',
  });
  const server = await startServer(config, { log: pino({ level: 'warn' }) });
  try {
    const applied = await applyWorkspace(
      server.stores.pg,
      parseWorkspace({
        organizations: [
          {
            name: 'Bench Org',
            plan: 'growth',
            members: [{ email: 'bench@example.test' }],
            brands: [{ name: 'Acme', slug: 'acme', domains: ['acme.example'], tracking_id: TRACKING_ID }],
          },
        ],
      }),
    );
    const brandId: string = applied.organizations[0].brands[0].id;

    // A mix of platforms, pages and countries, as sendBeacon sends them (text/plain).
    const referrers = [
      'https://chatgpt.com/',
      'https://www.perplexity.ai/search/x',
      'https://gemini.google.com/app',
      'https://claude.ai/chat/1',
    ];
    const countries = ['US', 'DE', 'GB', 'FR'];
    const requests = referrers.flatMap((referrer, i) =>
      countries.map((country, j) => ({
        method: 'POST' as const,
        path: '/api/collect',
        headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': CHROME, 'cf-ipcountry': country },
        body: JSON.stringify({
          site: TRACKING_ID,
          url: `https://acme.example/page-${i}-${j}?utm_campaign=bench`,
          referrer,
        }),
      })),
    );

    process.stdout.write(
      `bench:collect: ${connections} connections for ${durationS} s against ${server.url}/api/collect\n`,
    );
    // The server's event loop is this thread's; how busy it was tells whether the server or the
    // machine (other processes, the load generator) set the pace.
    const elu0 = performance.eventLoopUtilization();
    const result = await autocannon({ url: server.url, connections, duration: durationS, requests, workers: 1 });
    const elu = performance.eventLoopUtilization(elu0);
    await server.traffic.flush();
    const [{ n: stored }] = await server.stores.ch.system<{ n: number }>(
      'SELECT count() AS n FROM ai_visits WHERE brand_id = {b:UUID}',
      { b: brandId },
    );

    const accepted = result['2xx'];
    // The client stops counting at the deadline, while up to one request per connection is still
    // in flight and gets stored: every counted beacon is stored, plus at most those.
    const complete = stored >= accepted && stored <= accepted + connections;
    const perSecond = Math.round(accepted / result.duration);
    const lines = [
      `accepted beacons: ${accepted} in ${result.duration.toFixed(1)} s = ${perSecond}/s (target ${TARGET}/s: ${perSecond >= TARGET ? 'met' : 'NOT met'})`,
      `refused (non-2xx): ${result.non2xx}, errors: ${result.errors}, timeouts: ${result.timeouts}`,
      `latency ms: p50 ${result.latency.p50}, p99 ${result.latency.p99}, max ${result.latency.max}`,
      `server event loop busy ${(elu.utilization * 100).toFixed(0)}%: ${Math.round((elu.active * 1000) / Math.max(1, accepted))} µs per beacon, ` +
        `${load()} load average on ${os.cpus().length} cores`,
      `stored in ai_visits: ${stored}${complete ? '' : ' (MISMATCH: beacons were lost)'}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (!complete) process.exitCode = 1;
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`bench:collect failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
