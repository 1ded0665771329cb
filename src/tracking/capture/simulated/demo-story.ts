// The story `npm run demo`'s simulated data tells besides its noise (docs/api.md section 24): one
// competitor of the first brand is named more often on one platform over the last 30 days, so the
// Competitors page shows an `up` verdict. Simulated like the rest of the demo's answers.
import { DAY_MS, isoDay } from '../../../instant.ts';
import type { SimBrand, SimRise } from './answers.ts';

export const DEMO_RISE = { competitor: 'Ridgeline', platform: 'perplexity', days: 30, odds: 0.3 } as const;

/** The rise for the demo's brands over `days` days from `from`; none when the first brand has no such competitor. */
export function demoRise(brands: SimBrand[], from: string, days: number): SimRise | undefined {
  const competitor = brands[0]?.competitors.find((c) => c.name === DEMO_RISE.competitor);
  if (!competitor) return undefined;
  const start = isoDay(Date.parse(`${from}T00:00:00Z`) + (days - DEMO_RISE.days) * DAY_MS);
  return { competitorId: competitor.id, platform: DEMO_RISE.platform, from: start, odds: DEMO_RISE.odds };
}
