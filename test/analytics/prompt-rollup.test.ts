// Prompt performance reads the whole months of its range from prompt_monthly and its other days
// from prompt_daily (src/analytics/prompt-source.ts). Simulated answers over three and a half
// months, some re-imported with other text (cancel rows in every table), must give exactly the
// figures of answer_entities alone, for whole months, edges, open ranges and a topic.
// test-process: shared
import { randomUUID } from 'node:crypto';
import test from 'ava';
import {
  numberedLines as lines,
  seedTenant,
  sqlSent,
  startTestServer,
  type Tenant,
  type TestServer,
} from '../helpers/server.ts';
import { ingestLines } from '../../src/tracking/ingest/file.ts';
import { simulateDays } from '../../src/tracking/capture/simulated/answers.ts';
import { loadSimBrands } from '../../src/tracking/capture/simulated/brands.ts';
import { promptFigures } from '../../src/analytics/prompt-performance.ts';
import type { Filters } from '../../src/analytics/filters.ts';

// The answers' ids: fixed within the run (the re-import reuses them), this run's own, since other
// files' answers may be in the store beside them.
const idPrefix = randomUUID().slice(0, 24);

let server: TestServer;
let t0: Tenant;

test.before(async () => {
  server = await startTestServer();
  t0 = await seedTenant(server, [
    {
      name: 'Acme',
      slug: 'acme',
      domains: ['acme.example'],
      competitors: [{ name: 'Globex', domains: ['globex.example'] }],
      topics: [
        { name: 'CRM', prompts: [{ text: 'best crm', platforms: ['chatgpt', 'perplexity'], regions: ['US', 'GB'] }] },
        { name: 'Email', prompts: [{ text: 'email tools', platforms: ['chatgpt', 'claude'], regions: ['US'] }] },
      ],
    },
  ]);
  const brands = await loadSimBrands(server.stores.pg, [t0.brandId]);
  const answers = [...simulateDays({ seed: 7, brands, from: '2026-01-20', days: 100 })].map((a, i) => ({
    ...a,
    id: `${idPrefix}${String(i).padStart(12, '0')}`,
  }));
  await ingestLines(server.stores, lines(answers));
  // Every fourth answer again, its text cut short: other mentions and positions.
  const changed = answers.filter((_, i) => i % 4 === 0).map((a: any) => ({ ...a, text: a.text.slice(0, 60) }));
  const again = await ingestLines(server.stores, lines(changed));
  if (again.replaced !== changed.length) throw new Error(`unexpected re-import ${JSON.stringify(again)}`);
});
test.after.always(async () => {
  await server?.stop();
});

const range = (from: string, to: string): Partial<Filters> => ({ from: new Date(from), to: new Date(to) });
const byPrompt = (rows: { prompt_id: string }[]) => [...rows].sort((a, b) => a.prompt_id.localeCompare(b.prompt_id));

const cases: [string, Partial<Filters>, RegExp][] = [
  ['all time', {}, /FROM prompt_monthly/],
  ['whole months', range('2026-02-01', '2026-03-31T23:59:59.999Z'), /FROM prompt_monthly/],
  ['months with edges', range('2026-01-20', '2026-04-10T23:59:59.999Z'), /prompt_monthly.*UNION ALL.*prompt_daily/s],
  ['open start', { to: new Date('2026-03-20T23:59:59.999Z') }, /prompt_monthly.*UNION ALL.*prompt_daily/s],
  ['open end', { from: new Date('2026-02-15T00:00:00.000Z') }, /prompt_monthly.*UNION ALL.*prompt_daily/s],
  ['within a month', range('2026-02-03', '2026-02-20T23:59:59.999Z'), /FROM prompt_daily/],
  ['topic', range('2026-01-25', '2026-03-31T23:59:59.999Z'), /prompt_monthly.*prompt_id IN/s],
];

for (const [name, filters, reads] of cases) {
  test(`prompt figures from the monthly rollup equal the raw rows: ${name}`, async (t) => {
    const f: Filters = {
      brandId: t0.brandId,
      generation: 0,
      ...filters,
      ...(name === 'topic' ? { promptIds: [t0.promptIds[0]] } : {}),
    };
    const sql = await sqlSent(server.stores.ch, (ch) => promptFigures(ch, f));
    t.regex(sql, reads);
    const viaRollups = await promptFigures(server.stores.ch, f);
    const viaRaw = await promptFigures(server.stores.ch, f, { raw: true });
    t.true(viaRaw.length > 0, 'the case has prompts');
    t.deepEqual(byPrompt(viaRollups), byPrompt(viaRaw));
  });
}
