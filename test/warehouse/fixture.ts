// Shared set-up of the warehouse and connector tests: the golden answer set of
// test/analytics/golden-data.ts ingested twice (the second import replaces every answer, so every
// view and figure must see past the cancel rows), plus AI visits written straight into ai_visits.
import fs from 'node:fs';
import path from 'node:path';
import { seedTenant, type Tenant, type TestServer } from '../helpers/server.ts';
import { ingestFile } from '../../src/tracking/ingest/file.ts';
import { goldenAnswers, WORKSPACE_BRAND } from '../analytics/golden-data.ts';

/** Visits per (day, platform, page path, country); 12 paths, so the top-10 limit matters. */
const VISITS: [string, string, string, string, number][] = [
  ['2026-11-02', 'chatgpt', '/pricing', 'US', 5],
  ['2026-11-02', 'perplexity', '/', 'DE', 2],
  ['2026-11-02', 'gemini', '/blog/a', 'GB', 1],
  ['2026-11-03', 'chatgpt', '/docs', 'FR', 3],
  ['2026-11-03', 'claude', '/pricing', 'US', 2],
  ['2026-11-03', 'perplexity', '/blog/b', 'US', 1],
  ['2026-11-09', 'chatgpt', '/', 'US', 4],
  ...['/p1', '/p2', '/p3', '/p4', '/p5', '/p6'].map((p): [string, string, string, string, number] => [
    '2026-11-09',
    'copilot',
    p,
    'XX',
    1,
  ]),
];

export async function writeVisits(server: TestServer, brandId: string) {
  const rows = VISITS.flatMap(([day, platform, pagePath, country, n]) =>
    Array.from({ length: n }, (_, i) => ({
      brand_id: brandId,
      ts: `${day} ${String(8 + i).padStart(2, '0')}:00:00.000`,
      day,
      platform,
      path: pagePath,
      country,
      referrer_host: `${platform}.example`,
    })),
  );
  await server.stores.ch.insert('ai_visits', rows);
}

/** A tenant with the golden workspace, its answers ingested twice, and AI visits. */
export async function goldenTenant(
  server: TestServer,
  opts: { edit?: (answers: any[]) => void } = {},
): Promise<Tenant> {
  const tenant = await seedTenant(server, [WORKSPACE_BRAND]);
  const answers = goldenAnswers(tenant.promptIds);
  const file = path.join(server.dataDir, `golden-${tenant.brandId}.jsonl`);
  const write = () => fs.writeFileSync(file, answers.map((a) => JSON.stringify(a)).join('\n'));
  write();
  await ingestFile(server.stores, file);
  // The re-import replaces every answer (with edited content when asked).
  opts.edit?.(answers);
  write();
  const again = await ingestFile(server.stores, file);
  if (again.replaced !== answers.length) throw new Error(`unexpected re-import ${JSON.stringify(again)}`);
  await writeVisits(server, tenant.brandId);
  return tenant;
}
