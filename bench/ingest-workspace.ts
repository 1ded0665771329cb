// The workspace the ingestion benches run on, and its simulated answers: one brand with 10
// competitors and 200 prompts on 7 platforms in 2 regions (2,800 answers a day).
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { openStores, type Stores } from '../src/stores/index.ts';
import { migrate } from '../src/stores/migrate.ts';
import { applyWorkspace, parseWorkspace } from '../src/tenancy/workspace.ts';
import { simulateDays } from '../src/tracking/capture/simulated/answers.ts';
import { loadSimBrands } from '../src/tracking/capture/simulated/brands.ts';
import { PLATFORMS } from '../src/tenancy/tracked.ts';

export interface BenchWorkspace {
  stores: Stores;
  brandId: string;
  /** The first n answers of the simulation, as the JSON Lines of an answer file (without newlines). */
  lines(n: number): Generator<string>;
}

/** Opens the stores of dataDir (embedded unless DATABASE_URL / CLICKHOUSE_URL say otherwise) and applies the workspace. */
export async function benchWorkspace(dataDir: string): Promise<BenchWorkspace> {
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  pino({ level: 'silent' });
  const stores = await openStores(config);
  await migrate(stores.pg, stores.ch);
  const platforms = PLATFORMS.filter((p) => p !== 'grok');
  const workspace = parseWorkspace({
    organizations: [
      {
        name: `Bench ${Date.now()}`,
        plan: 'business',
        brands: [
          {
            name: 'Trailpeak',
            slug: 'trailpeak',
            domains: ['trailpeak.example'],
            aliases: ['Trail Peak'],
            competitors: Array.from({ length: 10 }, (_, i) => ({
              name: `Rival ${String.fromCharCode(65 + i)}${i}`,
              domains: [`rival${i}.example`],
            })),
            topics: Array.from({ length: 10 }, (_, t) => ({
              name: `Topic ${t}`,
              prompts: Array.from({ length: 20 }, (_, p) => ({
                text: `best outdoor gear question ${t}-${p}`,
                platforms,
                regions: ['US', 'GB'],
              })),
            })),
          },
        ],
      },
    ],
  });
  const applied = await applyWorkspace(stores.pg, workspace);
  const brandId = applied.organizations[0].brands[0].id;
  const brands = await loadSimBrands(stores.pg, [brandId]);
  return {
    stores,
    brandId,
    *lines(n: number) {
      let written = 0;
      for (const answer of simulateDays({ seed: 7, brands, from: '2025-01-01', days: Math.ceil(n / 2800) })) {
        if (written++ >= n) return;
        yield JSON.stringify(answer);
      }
    },
  };
}
