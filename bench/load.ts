// `npm run bench:load [-- seconds [connections]]`: a mixed read load on the Metrics API (/api/v1).
// Starts the app on embedded stores (PGlite, chDB) in a temporary DATA_DIR, or with DATABASE_URL set
// on a fresh database of that Postgres server (dropped at the end) and chDB, with a synthetic
// warehouse (bench/warehouse.ts: BRANDS brands, each its own organization and API key, PROMPTS
// prompts on 7 platforms over DAYS days), then drives all nine /api/v1 endpoints over several
// date ranges and filters with autocannon (on a worker thread) for 60 s by default. The server trusts
// X-Forwarded-For (TRUST_PROXY=1) and each request comes from one of ADDRESSES client addresses,
// so the per-address rate limit (250 per 15 minutes, the default) applies as in production without
// capping the run. Request logs are written at info level to /dev/null, so their cost is counted.
// Prints the CPU one request costs when the distinct requests are served one at a time (and the
// rate the machine's cores would reach at that cost), then throughput, p50, p99, errors and the result
// cache's hit rate.
//
// Flags: --uncached turns the result cache off (RESULT_CACHE_ENTRIES=0); --realistic draws each
// request's date range from the last year (mostly distinct ranges, the warehouse ending yesterday)
// and ingests a day of today's answers for every brand half-way through, printing the hit rate
// before and after that ingest. Targets: >= 1,000 req/s with the cache, >= 400 req/s with
// --uncached, p99 < 250 ms and no errors either way.
// Environment: DATABASE_URL (see above); CLICKHOUSE_READ_SLOTS is passed on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { createLogger } from '../src/logger.ts';
import { applyWorkspace, parseWorkspace } from '../src/tenancy/workspace.ts';
import { createKey } from '../src/tenancy/keys.ts';
import { generateBrand, generateVisits, PLATFORM_MODELS, type WarehouseBrand } from './warehouse.ts';
import { ingestFile } from '../src/tracking/ingest/file.ts';
import { registry } from '../src/runtime/metrics.ts';
import type { Stores } from '../src/stores/index.ts';
import { freshDatabase } from '../test/helpers/server.ts';

const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
const [seconds, connections] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const UNCACHED = flags.has('--uncached');
const REALISTIC = flags.has('--realistic');
const DURATION_S = Number(seconds ?? 60);
const CONNECTIONS = Number(connections ?? 24);
const BRANDS = 4;
const PROMPTS = 40;
const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
// Realistic: a year that ends yesterday, so the mid-run ingest is of today's answers.
const DAYS = REALISTIC ? 365 : 180;
const START = REALISTIC ? dayOf(Date.now() - DAYS * DAY_MS) : '2026-01-01';
// Realistic: 2,000 ranges, so a 60 s run at the uncached rate asks each about once and then again.
const ADDRESSES = REALISTIC ? 2000 : 4000;
const TARGET = { rps: UNCACHED ? 400 : 1000, p99: 250 };

/** The endpoints that take a date range. */
const RANGE_ENDPOINTS = [
  'visibility-summary',
  'visibility-trend',
  'competitor-comparison',
  'citations',
  'prompt-performance',
  'ai-traffic',
];

const note = (msg: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${msg}\n`);

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-bench-load-'));
  const db = await freshDatabase(process.env.DATABASE_URL);
  // Only what the bench sets: no CLICKHOUSE_URL from the caller, so ClickHouse is the embedded chDB.
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    SCHEDULER: '0',
    TRUST_PROXY: '1',
    WEBHOOK_WORKER: '0',
    RESULT_CACHE_ENTRIES: UNCACHED ? '0' : process.env.RESULT_CACHE_ENTRIES,
    CLICKHOUSE_READ_SLOTS: process.env.CLICKHOUSE_READ_SLOTS,
    ...(db.url ? { DATABASE_URL: db.url } : {}),
  });
  const server = await startServer(config, {
    log: createLogger('info', pino.destination({ dest: '/dev/null', sync: false })),
  });
  try {
    // The warehouse: one organization, member and key per brand.
    const tenants: { brand: WarehouseBrand; key: string }[] = [];
    for (let i = 0; i < BRANDS; i++) {
      const email = `load-${i}@example.test`;
      const applied = await applyWorkspace(
        server.stores.pg,
        parseWorkspace({
          organizations: [
            {
              name: `Load Org ${i}`,
              plan: 'business',
              members: [{ email }],
              brands: [
                {
                  name: `Brand ${i}`,
                  slug: `brand-${i}`,
                  domains: [`brand${i}.example`],
                  competitors: Array.from({ length: 5 }, (_, c) => ({
                    name: `Rival ${i}-${c}`,
                    domains: [`rival${i}-${c}.example`],
                  })),
                  topics: Array.from({ length: 4 }, (_, t) => ({
                    name: `Topic ${t}`,
                    prompts: Array.from({ length: PROMPTS / 4 }, (_, p) => ({ text: `prompt ${i}-${t}-${p}` })),
                  })),
                },
              ],
            },
          ],
        }),
      );
      const b = applied.organizations[0].brands[0];
      const brand: WarehouseBrand = {
        organizationId: applied.organizations[0].id,
        brandId: b.id,
        brandDomain: `brand${i}.example`,
        competitorIds: b.competitors.map((c: any) => c.id),
        competitorDomains: b.competitors.map((_: any, c: number) => `rival${i}-${c}.example`),
        promptIds: b.topics.flatMap((t: any) => t.prompts.map((p: any) => p.id)),
      };
      const answers = await generateBrand(server.stores.ch, brand, { start: START, days: DAYS, seed: i + 1 });
      await generateVisits(server.stores.ch, brand.brandId, { start: START, days: DAYS, count: 50_000 });
      tenants.push({ brand, key: (await createKey(server.stores.pg, { email })).key });
      note(`brand ${i + 1}/${BRANDS}: ${answers.toLocaleString()} answers`);
    }

    // The mix: every Metrics API endpoint, per brand, over four periods, some with a model filter.
    const periods = [
      '',
      `&date_from=${START}&date_to=2026-06-29`,
      '&date_from=2026-06-01&date_to=2026-06-29',
      '&date_from=2026-06-23&date_to=2026-06-29',
    ];
    const paths: { path: string; key: string }[] = [];
    for (const { brand, key } of tenants) {
      paths.push({ path: '/api/v1/whoami', key }, { path: '/api/v1/brands', key });
      for (const period of periods) {
        for (const endpoint of RANGE_ENDPOINTS) {
          paths.push({ path: `/api/v1/${endpoint}?brand_id=${brand.brandId}${period}`, key });
        }
        paths.push({ path: `/api/v1/visibility-summary?brand_id=${brand.brandId}${period}&model=gpt-4o,sonar`, key });
        paths.push({ path: `/api/v1/visibility-trend?brand_id=${brand.brandId}${period}&granularity=week`, key });
      }
      paths.push({ path: `/api/v1/shopping-cards?brand_id=${brand.brandId}`, key });
    }
    // Realistic: every request of the list has a range of its own, drawn from the last year.
    const realistic = (n: number) => {
      const { brand, key } = tenants[n % tenants.length];
      // mulberry32 seeded by the request's number: the same list on every run.
      let seed = n + 1;
      const random = (below: number) => {
        seed = (seed + 0x6d2b79f5) | 0;
        let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
        return Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * below);
      };
      const last = Date.now() - (1 + random(DAYS)) * DAY_MS;
      const first = Math.max(Date.parse(`${START}T00:00:00Z`), last - random(90) * DAY_MS);
      const endpoint = RANGE_ENDPOINTS[random(RANGE_ENDPOINTS.length)];
      return {
        path: `/api/v1/${endpoint}?brand_id=${brand.brandId}&date_from=${dayOf(first)}&date_to=${dayOf(last)}`,
        key,
      };
    };
    // Spread over the client addresses: each request of the list has its own address, and every
    // connection walks the list, so an address makes total / ADDRESSES requests in the run.
    const list = Array.from({ length: ADDRESSES }, (_, n) => {
      const { path: p, key } = REALISTIC ? realistic(n) : paths[n % paths.length];
      return {
        method: 'GET' as const,
        path: p,
        headers: {
          authorization: `Bearer ${key}`,
          'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        },
      };
    });
    // Realistic: the connections share one walk through the list, so the same range comes back
    // only after the whole list (as reporting tools repeat a request over the day), instead of
    // every connection asking the same sequence in step.
    // autocannon runs on a worker thread and loads such a function from a file.
    let requests: object[] = list;
    if (REALISTIC) {
      fs.writeFileSync(path.join(dataDir, 'requests.json'), JSON.stringify(list));
      const walk = path.join(dataDir, 'next-request.cjs');
      fs.writeFileSync(
        walk,
        "const list = require('./requests.json'); let next = 0;\nmodule.exports = (req) => ({ ...req, ...list[next++ % list.length] });\n",
      );
      requests = [{ method: 'GET', setupRequest: walk }];
    }
    // Every distinct request once to warm up, then every one again, one at a time, timing the CPU
    // the whole process spends (chDB's threads and Node's included; the Postgres server's not): the
    // rate the cores reach at that cost. Under load Node shares some of its work between requests
    // (cached runs pass that rate); the engine does not share a read's (uncached runs stay under).
    const serveAll = async () => {
      for (const [n, { path: p, key }] of paths.entries()) {
        const res = await fetch(`${server.url}${p}`, {
          // Addresses of their own: the passes make more requests than one address may.
          headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': `192.0.2.${n % 250}` },
        });
        if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }
    };
    await serveAll();
    const cpuBefore = process.cpuUsage();
    await serveAll();
    const cpuUsed = process.cpuUsage(cpuBefore);
    const cpuPerRequestMs = (cpuUsed.user + cpuUsed.system) / 1000 / paths.length;

    note(
      `load: ${paths.length} distinct requests from ${ADDRESSES} addresses, ${CONNECTIONS} connections, ${DURATION_S} s against ${server.url}/api/v1`,
    );
    const load = os.loadavg()[0];
    const lookups = await cacheLookups();
    let atIngest: { hit: number; miss: number } | null = null;
    // Realistic: the daily ingest half-way, through the ingestion path (today's answers only).
    const ingestion = REALISTIC
      ? new Promise<void>((resolve, reject) => {
          setTimeout(
            () => {
              cacheLookups()
                .then((l) => {
                  atIngest = l;
                  note('ingesting a day of answers for every brand (today)');
                  return ingestToday(
                    server.stores,
                    tenants.map((t) => t.brand),
                    dataDir,
                  );
                })
                .then(resolve, reject);
            },
            (DURATION_S * 1000) / 2,
          );
        })
      : Promise.resolve();
    const result = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: DURATION_S,
      requests,
      workers: 1,
    });
    await ingestion;
    const end = await cacheLookups();
    const rate = (from: { hit: number; miss: number }, to: { hit: number; miss: number }) => {
      const hit = to.hit - from.hit;
      const all = hit + to.miss - from.miss;
      return all ? `${((100 * hit) / all).toFixed(1)}% of ${all}` : 'no look-ups';
    };
    const rps = Math.round(result.requests.average);
    const errors = result.errors + result.timeouts + result.non2xx;
    const met = rps >= TARGET.rps && result.latency.p99 < TARGET.p99 && errors === 0;
    const lines = [
      `machine: ${os.cpus().length} cores, load average ${load.toFixed(1)} before the run`,
      `stores: ${db.url ? 'Postgres server' : 'embedded PGlite'} + embedded chDB; result cache ${config.resultCacheEntries > 0 ? 'on' : 'off'}`,
      `cpu per request, the ${paths.length} distinct ones served one at a time: ${cpuPerRequestMs.toFixed(1)} ms (${os.cpus().length} cores at that cost: ${Math.round((os.cpus().length * 1000) / cpuPerRequestMs)} req/s)`,
      `requests: ${result.requests.total} in ${result.duration.toFixed(1)} s = ${rps} req/s`,
      `latency ms: p50 ${result.latency.p50}, p90 ${result.latency.p90}, p99 ${result.latency.p99}, max ${result.latency.max}`,
      `errors: ${result.errors}, timeouts: ${result.timeouts}, non-2xx: ${result.non2xx}`,
      ...(config.resultCacheEntries > 0
        ? atIngest
          ? [`cache hit rate: ${rate(lookups, atIngest)} before the ingest, ${rate(atIngest, end)} after`]
          : [`cache hit rate: ${rate(lookups, end)}`]
        : []),
      `target (>= ${TARGET.rps} req/s, p99 < ${TARGET.p99} ms, no errors): ${met ? 'met' : 'NOT met'}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (!met) process.exitCode = 1;
  } finally {
    await server.close();
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Hits and misses of the result cache so far (this process's registry). */
async function cacheLookups(): Promise<{ hit: number; miss: number }> {
  const metric = await registry.getSingleMetric('answerscope_result_cache_lookups_total')?.get();
  const count = (outcome: string) => metric?.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  return { hit: count('hit'), miss: count('miss') };
}

/** One answer per prompt and platform of each brand, collected today, through `ingestFile`. */
async function ingestToday(stores: Stores, brands: WarehouseBrand[], dir: string): Promise<void> {
  const file = path.join(dir, 'today.jsonl');
  const today = dayOf(Date.now());
  const lines: string[] = [];
  for (const brand of brands) {
    for (const [i, promptId] of brand.promptIds.entries()) {
      for (const [platform, model] of PLATFORM_MODELS) {
        lines.push(
          JSON.stringify({
            prompt_id: promptId,
            platform,
            model,
            region: 'US',
            collected_at: `${today}T00:${String(i % 60).padStart(2, '0')}:00Z`,
            text: `Today's answer names ${brand.brandDomain}.`,
            citations: [{ url: `https://${brand.brandDomain}/today` }],
          }),
        );
      }
    }
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  await ingestFile(stores, file);
}

main().catch((err) => {
  process.stderr.write(`bench:load failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
