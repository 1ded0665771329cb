// entity-trend: one figure for the brand and for each chosen competitor, per UTC day or ISO week,
// over the same answers (docs/api.md section 24; docs/metrics.md "Entity trend"). Each value is the
// figure visibility-summary (brand) or competitor-comparison (competitor) gives for that bucket's
// dates: the same sums (entity-sums.ts) and the same formulas and rounding (formulas.ts), grouped
// by bucket. Every day (week) of the range gets a bucket; one with no answer has null values, so a
// chart draws a gap there rather than a zero or a segment joining its neighbours.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { entitySource } from './entity-source.ts';
import { sumsSql, toSums } from './entity-sums.ts';
import { emptySums, roundOrNull, visibilityScore, type EntitySums } from './formulas.ts';
import { select } from '../stores/scoped-query.ts';
import { DAY_MS } from '../instant.ts';

export const TREND_METRICS = ['ai_visibility_score', 'mention_rate', 'citation_rate'] as const;
export type TrendMetric = (typeof TREND_METRICS)[number];

/** The figure over n answers, rounded as the summary and the change round it (1 decimal); null without answers. */
export function trendValue(metric: TrendMetric, s: EntitySums, n: number): number | null {
  if (n <= 0) return null;
  if (metric === 'ai_visibility_score') return roundOrNull(visibilityScore(s, n), 1);
  return roundOrNull((100 * (metric === 'mention_rate' ? s.named : s.cited)) / n, 1);
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The Monday of the ISO week holding the day (UTC). */
const mondayOf = (ms: number) => {
  const d = new Date(Math.floor(ms / DAY_MS) * DAY_MS);
  return dayOf(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY_MS);
};

/** Every bucket's date from the first day to the last (inclusive): days, or the Mondays of the weeks they touch. */
function bucketDates(first: string, last: string, granularity: 'day' | 'week'): string[] {
  const out: string[] = [];
  const end = Date.parse(`${last}T00:00:00Z`);
  for (let ms = Date.parse(`${first}T00:00:00Z`); ms <= end; ms += DAY_MS) {
    const date = granularity === 'week' ? mondayOf(ms) : dayOf(ms);
    if (out[out.length - 1] !== date) out.push(date);
  }
  return out;
}

export async function entityTrend(
  ch: ClickHouse,
  f: Filters,
  entities: { entity_id: string; role: 'own' | 'competitor' }[],
  opts: { granularity: 'day' | 'week'; metric: TrendMetric },
) {
  const src = entitySource(f, ['entity_id', 'is_brand']);
  const bucket = opts.granularity === 'week' ? 'toMonday(day)' : 'day';
  const competitorIds = entities.filter((e) => e.role === 'competitor').map((e) => e.entity_id);
  const rows = await ch.rows<Record<string, unknown> & { bucket: string; eid: string; is_brand: number }>(
    select(src, {
      select: `toString(${bucket}) AS bucket, toString(entity_id) AS eid, is_brand, ${sumsSql(src)}`,
      // The brand's rows give each bucket's answer count; the competitors' only those chosen.
      where: competitorIds.length
        ? 'is_brand = 1 OR has({competitors:Array(String)}, toString(entity_id))'
        : 'is_brand = 1',
      groupBy: 'bucket, eid, is_brand',
      params: competitorIds.length ? { competitors: competitorIds } : {},
    }),
  );
  const sums = new Map<string, Map<string, EntitySums & { rows: number }>>();
  const answers = new Map<string, number>();
  for (const r of rows) {
    const s = toSums(r);
    const key = Number(r.is_brand) === 1 ? 'brand' : r.eid;
    if (key === 'brand') answers.set(r.bucket, (answers.get(r.bucket) ?? 0) + s.rows);
    const inBucket = sums.get(r.bucket) ?? new Map();
    inBucket.set(key, s);
    sums.set(r.bucket, inBucket);
  }
  const seen = [...answers.entries()].filter(([, n]) => n > 0).map(([d]) => d);
  seen.sort();
  const first = f.from ? dayOf(f.from.getTime()) : seen[0];
  const last = f.to ? dayOf(f.to.getTime()) : seen[seen.length - 1];
  const dates = first && last ? bucketDates(first, last, opts.granularity) : [];
  return dates.map((date) => {
    const n = Math.max(0, answers.get(date) ?? 0);
    const inBucket = sums.get(date);
    const values: Record<string, number | null> = {};
    for (const e of entities) {
      const s = inBucket?.get(e.role === 'own' ? 'brand' : e.entity_id);
      values[e.entity_id] = trendValue(opts.metric, s ?? emptySums(), n);
    }
    return { date, answers: n, values };
  });
}
