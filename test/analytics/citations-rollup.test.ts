// The citations figures read whole months from the monthly rollups and the other days from
// answer_citations. Simulated answers over three and a half months, some re-imported with changed
// citations (cancel rows in both the table and the rollups), must give exactly the figures of
// answer_citations alone, for whole months, edges, timestamps, filters and every source filter.
// test-process: shared
import { randomUUID } from 'node:crypto';
import test from 'ava';
import {
  numberedLines as lines,
  seedTenant,
  startTestServer,
  type Tenant,
  type TestServer,
} from '../helpers/server.ts';
import { ingestLines } from '../../src/tracking/ingest/file.ts';
import { simulateDays } from '../../src/tracking/capture/simulated/answers.ts';
import { loadSimBrands } from '../../src/tracking/capture/simulated/brands.ts';
import { citations, type SourceFilter } from '../../src/analytics/citations.ts';
import { citationSource, type CitationRollup } from '../../src/analytics/citation-source.ts';
import { wholeMonths, wholeQuarters } from '../../src/analytics/month-span.ts';
import type { Filters } from '../../src/analytics/filters.ts';
import { testBrandId } from '../helpers/brand-id.ts';

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
      aliases: ['Acme Inc'],
      competitors: [
        { name: 'Globex', domains: ['globex.example'] },
        { name: 'Initech', domains: ['initech.example'] },
      ],
      topics: [
        {
          name: 'CRM',
          prompts: [{ text: 'best crm', platforms: ['chatgpt', 'perplexity', 'gemini'], regions: ['US', 'GB'] }],
        },
        { name: 'Email', prompts: [{ text: 'email tools', platforms: ['chatgpt', 'claude'], regions: ['US'] }] },
      ],
    },
  ]);
  const brands = await loadSimBrands(server.stores.pg, [t0.brandId]);
  const answers = [...simulateDays({ seed: 11, brands, from: '2026-01-20', days: 100 })].map((a, i) => ({
    ...a,
    id: `${idPrefix}${String(i).padStart(12, '0')}`,
  }));
  await ingestLines(server.stores, lines(answers));
  // Every fifth answer again, with its first citation dropped and the others' titles changed.
  const changed = answers
    .filter((_, i) => i % 5 === 0)
    .map((a: any) => ({
      ...a,
      citations: (a.citations ?? []).slice(1).map((c: any) => ({ ...c, title: `${c.title ?? ''} (updated)` })),
    }));
  const again = await ingestLines(server.stores, lines(changed));
  if (again.replaced !== changed.length) throw new Error(`unexpected re-import ${JSON.stringify(again)}`);
});
test.after.always(async () => {
  await server?.stop();
});

const range = (from: string, to: string): Pick<Filters, 'from' | 'to'> => ({ from: new Date(from), to: new Date(to) });

test('whole months of a range', (t) => {
  const f = (from?: string, to?: string) =>
    wholeMonths({
      brandId: testBrandId('b'),
      generation: 0,
      from: from ? new Date(from) : undefined,
      to: to ? new Date(to) : undefined,
    });
  t.deepEqual(f('2026-02-01T00:00:00.000Z', '2026-03-31T23:59:59.999Z'), {
    from: '2026-02-01',
    to: '2026-03-01',
    end: '2026-03-31',
  });
  t.deepEqual(f('2026-01-20T00:00:00.000Z', '2026-04-10T23:59:59.999Z'), {
    from: '2026-02-01',
    to: '2026-03-01',
    end: '2026-03-31',
  });
  // A bound inside the 1st of a month, or before the end of the last day, gives that month up.
  t.deepEqual(f('2026-02-01T00:00:00.001Z', '2026-03-31T23:59:59.998Z'), undefined);
  t.deepEqual(f('2026-01-31T12:00:00.000Z', '2026-04-01T00:00:00.000Z'), {
    from: '2026-02-01',
    to: '2026-03-01',
    end: '2026-03-31',
  });
  t.deepEqual(f('2026-02-03T00:00:00.000Z', '2026-02-27T23:59:59.999Z'), undefined);
  t.deepEqual(f('2026-12-01T00:00:00.000Z', '2027-01-31T23:59:59.999Z'), {
    from: '2026-12-01',
    to: '2027-01-01',
    end: '2027-01-31',
  });
  t.deepEqual(f(undefined, '2026-02-28T23:59:59.999Z'), { from: undefined, to: '2026-02-01', end: '2026-02-28' });
  t.deepEqual(f('2026-02-15T00:00:00.000Z', undefined), { from: '2026-03-01', to: undefined, end: undefined });
});

test('whole quarters of a span of whole months', (t) => {
  t.deepEqual(wholeQuarters({ from: '2026-01-01', to: '2026-03-01', end: '2026-03-31' }), {
    from: '2026-01-01',
    to: '2026-01-01',
    lastMonth: '2026-03-01',
    end: '2026-03-31',
  });
  // February to November: the second and third quarters.
  t.deepEqual(wholeQuarters({ from: '2026-02-01', to: '2026-11-01', end: '2026-11-30' }), {
    from: '2026-04-01',
    to: '2026-07-01',
    lastMonth: '2026-09-01',
    end: '2026-09-30',
  });
  // Across a year: the fourth quarter of one and the first of the next.
  t.deepEqual(wholeQuarters({ from: '2025-10-01', to: '2026-04-01', end: '2026-04-30' }), {
    from: '2025-10-01',
    to: '2026-01-01',
    lastMonth: '2026-03-01',
    end: '2026-03-31',
  });
  t.is(wholeQuarters({ from: '2026-02-01', to: '2026-04-01', end: '2026-04-30' }), undefined);
  t.is(wholeQuarters({ from: '2026-03-01', to: '2026-05-01', end: '2026-05-31' }), undefined);
  t.deepEqual(wholeQuarters({ to: '2026-02-01', end: '2026-02-28' }), {
    from: undefined,
    to: '2025-10-01',
    lastMonth: '2025-12-01',
    end: '2025-12-31',
  });
  t.deepEqual(wholeQuarters({ from: '2026-02-01' }), {
    from: '2026-04-01',
    to: undefined,
    lastMonth: undefined,
    end: undefined,
  });
  t.deepEqual(wholeQuarters({}), { from: undefined, to: undefined, lastMonth: undefined, end: undefined });
});

const domainRollupsFirst: CitationRollup[] = ['citation_domains_monthly', 'citation_domain_models_monthly'];

test('which parts answer', (t) => {
  const columns = { c: ['citation_sum', 'sign'] as [string, string] };
  const src = (f: Partial<Filters>, rollups: CitationRollup[] = ['citation_urls_monthly']) =>
    citationSource({ brandId: t0.brandId, generation: 0, ...f }, rollups, { columns }).sql;
  // Exactly two whole months: the rollup alone.
  t.notRegex(src(range('2026-02-01', '2026-03-31T23:59:59.999Z')), /answer_citations/);
  // Edges on both sides: rollup and raw rows.
  t.regex(src(range('2026-01-20', '2026-04-10T23:59:59.999Z')), /citation_urls_monthly.*UNION ALL.*answer_citations/);
  // Whole quarters of the URL rollup come from its quarterly fold, the months around them from the
  // monthly one, the edge days from the raw rows; the domain rollups have no quarterly fold.
  const quarterAndMore = src(range('2026-01-01', '2026-04-10T23:59:59.999Z'));
  t.regex(quarterAndMore, /FROM citation_urls_quarterly.*UNION ALL.*answer_citations/);
  t.notRegex(quarterAndMore, /citation_urls_monthly/);
  t.regex(
    src(range('2025-12-01', '2026-04-30T23:59:59.999Z')),
    /FROM citation_urls_quarterly.*UNION ALL.*FROM citation_urls_monthly.*month < \{quarterFrom:Date\} OR month > \{quarterLastMonth:Date\}/,
  );
  t.regex(src({}), /FROM citation_urls_quarterly/);
  t.notRegex(src({}), /monthly|answer_citations/);
  t.notRegex(src(range('2026-01-01', '2026-03-31T23:59:59.999Z'), domainRollupsFirst), /quarterly/);
  // A topic, or a model filter on URL figures: raw rows only. The domain rollup keeps models.
  t.notRegex(src({ ...range('2026-02-01', '2026-03-31T23:59:59.999Z'), promptIds: [t0.promptIds[0]] }), /monthly/);
  t.notRegex(src({ ...range('2026-02-01', '2026-03-31T23:59:59.999Z'), models: ['gpt-4o'] }), /monthly/);
  const domainRollups: CitationRollup[] = ['citation_domains_monthly', 'citation_domain_models_monthly'];
  t.regex(src(range('2026-02-01', '2026-03-31T23:59:59.999Z'), domainRollups), /FROM citation_domains_monthly/);
  t.regex(
    src({ ...range('2026-02-01', '2026-03-31T23:59:59.999Z'), models: ['gpt-4o'] }, domainRollups),
    /FROM citation_domain_models_monthly/,
  );
  t.regex(
    src({ ...range('2026-02-01', '2026-03-31T23:59:59.999Z'), region: 'GB' }, domainRollups),
    /FROM citation_domain_models_monthly/,
  );
});

const cases: [string, Partial<Filters>][] = [
  ['all time', {}],
  ['whole months', range('2026-02-01', '2026-03-31T23:59:59.999Z')],
  ['months with edges', range('2026-01-20', '2026-04-10T23:59:59.999Z')],
  ['timestamp bounds', range('2026-01-31T08:30:00.000Z', '2026-04-01T16:00:00.000Z')],
  ['open start', { to: new Date('2026-03-31T23:59:59.999Z') }],
  ['a whole quarter and edges', range('2026-01-01', '2026-04-10T23:59:59.999Z')],
  ['months around a whole quarter', range('2025-12-01', '2026-04-30T23:59:59.999Z')],
  ['a quarter, a month and edges', range('2026-01-01', '2026-05-10T23:59:59.999Z')],
  ['open end', { from: new Date('2026-02-15T00:00:00.000Z') }],
  ['model filter', { ...range('2026-01-20', '2026-04-10T23:59:59.999Z'), models: ['gpt-4o', 'sonar'] }],
  ['region filter', { ...range('2026-02-01', '2026-04-30T23:59:59.999Z'), region: 'GB' }],
  ['topic', { ...range('2026-02-01', '2026-03-31T23:59:59.999Z'), promptIds: [] }],
];

for (const [name, filters] of cases) {
  for (const source of ['all', 'owned', 'competitor', 'external'] as SourceFilter[]) {
    test(`rollups and raw rows agree: ${name}, ${source}`, async (t) => {
      const f: Filters = {
        brandId: t0.brandId,
        generation: 0,
        ...filters,
        ...(filters.promptIds ? { promptIds: [t0.promptIds[0]] } : {}),
      };
      const viaRollups = await citations(server.stores.ch, f, { limit: 7, source });
      const viaRaw = await citations(server.stores.ch, f, { limit: 7, source, raw: true });
      t.deepEqual(viaRollups, viaRaw);
      if (source === 'all') t.true(viaRaw.totals.citations > 0, 'the case has citations');
    });
  }
}
