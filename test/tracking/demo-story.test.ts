// The demo's data moves (docs/api.md section 24): over npm run demo's 90 simulated days for its
// workspace, the chosen competitor's mention rate on the chosen platform, counted by the analysis'
// own mention scan, rises by at least 15 points over the last 30 days against the 30 before, while
// the same competitor elsewhere and the same answers without the rise do not.
// test-process: shared
import fs from 'node:fs';
import test from 'ava';
import { simulateDays, type SimBrand } from '../../src/tracking/capture/engines/simulated.ts';
import { DEMO_RISE, demoRise } from '../../src/tracking/capture/engines/demo-story.ts';
import { compileEntities, mentionText, scanMentions } from '../../src/tracking/analysis/analyze.ts';
import type { Entity } from '../../src/tenancy/tracked.ts';
import { newcombe } from '../../src/analytics/intervals.ts';
import { verdict } from '../../src/analytics/visibility-change.ts';

const workspace = JSON.parse(fs.readFileSync(new URL('../../examples/demo-workspace.json', import.meta.url), 'utf8'));
const brands: SimBrand[] = workspace.organizations[0].brands.map((b: any, i: number) => {
  const entity = (kind: Entity['kind'], x: any, id: string): Entity => ({
    id,
    kind,
    name: x.name,
    aliases: x.aliases ?? [],
    domains: x.domains ?? [],
  });
  return {
    brand: entity('brand', b, `b${i}`),
    competitors: b.competitors.map((c: any, j: number) => entity('competitor', c, `b${i}-c${j}`)),
    prompts: b.topics.flatMap((t: any, k: number) =>
      t.prompts.map((p: any, m: number) => ({
        id: `b${i}-p${k}-${m}`,
        text: p.text,
        platforms: p.platforms ?? ['chatgpt'],
        regions: p.regions?.length ? p.regions : [b.region || 'US'],
      })),
    ),
  };
});

const FROM = '2026-06-01';
const DAYS = 90;

/** Mention rate (%) of the competitor per platform, in the last 30 days and the 30 before. */
function rates(rise: ReturnType<typeof demoRise>) {
  const first = brands[0];
  const compiled = compileEntities([first.brand, ...first.competitors]);
  const index = 1 + first.competitors.findIndex((c) => c.name === DEMO_RISE.competitor);
  const lastStart = '2026-07-31'; // FROM + 60 days
  const prevStart = '2026-07-01';
  const counts = new Map<string, { prev: [number, number]; last: [number, number] }>();
  for (const a of simulateDays({ seed: 'demo', brands: [first], from: FROM, days: DAYS, rise })) {
    if (a.mode === 'shopping') continue;
    const day = a.collected_at.slice(0, 10);
    const period = day >= lastStart ? 'last' : day >= prevStart ? 'prev' : undefined;
    if (!period) continue;
    const c = counts.get(a.platform) ?? { prev: [0, 0], last: [0, 0] };
    const named = scanMentions(compiled, mentionText(a.text)).counts[index] > 0;
    c[period][0] += named ? 1 : 0;
    c[period][1]++;
    counts.set(a.platform, c);
  }
  return new Map(
    [...counts].map(([p, c]) => [
      p,
      { prev: (100 * c.prev[0]) / c.prev[1], last: (100 * c.last[0]) / c.last[1], n: c.last[1], c },
    ]),
  );
}

test('the demo competitor rises by 15 points or more on its platform over the last 30 days', (t) => {
  const rise = demoRise(brands, FROM, DAYS);
  t.truthy(rise, 'the demo workspace has the competitor');
  t.is(rise!.from, '2026-07-31');
  const moved = rates(rise).get(DEMO_RISE.platform)!;
  t.true(moved.n >= 20, `${moved.n} answers: enough for a verdict`);
  t.true(moved.last - moved.prev >= 15, `${moved.prev.toFixed(1)}% -> ${moved.last.toFixed(1)}%`);
  // With the platform's model chosen, the Competitors page's change is this one: Newcombe's interval
  // of the difference lies above 0, so its verdict is up.
  const ci = newcombe(moved.c.last[0], moved.c.last[1], moved.c.prev[0], moved.c.prev[1])!;
  t.is(verdict(moved.c.last[1], moved.c.prev[1], [100 * ci[0], 100 * ci[1]]), 'up');
  // Without the rise, the same days do not show it: the rise is the story, not the noise.
  const still = rates(undefined).get(DEMO_RISE.platform)!;
  t.true(still.last - still.prev < 15, `${still.prev.toFixed(1)}% -> ${still.last.toFixed(1)}%`);
});
