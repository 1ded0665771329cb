// The digest.daily event: for each brand whose organization listens for it, once per UTC day, the
// previous day's visibility summary (the very figures GET visibility-summary returns for that
// day), what changed since the day before (totals, and the prompts and competitors that moved
// most), the content opportunities created that day and the alerts that fired on windows ending
// that day. It composes the analytics, content and alerts figures, so it is a job, not part of
// webhooks (which the others notify through): the subscriptions and the (brand, day) row in
// webhook_digests that makes the job idempotent are webhooks' (src/webhooks/digest-queue.ts).
import type { Logger } from 'pino';
import type { Stores } from '../src/stores/index.ts';
import { readsOnce } from '../src/stores/reads-once.ts';
import type { Filters } from '../src/analytics/filters.ts';
import { round } from '../src/analytics/formulas.ts';
import { visibilitySummary } from '../src/analytics/visibility-summary.ts';
import { visibilityConfidence } from '../src/analytics/confidence.ts';
import { promptFigures } from '../src/analytics/prompt-performance.ts';
import { competitorComparison } from '../src/analytics/competitor-comparison.ts';
import { type SentimentCounts, type SentimentFigures, sentimentFigures } from '../src/analytics/sentiment.ts';
import { promptTexts } from '../src/tenancy/prompts.ts';
import { competitorsOf } from '../src/tenancy/brands.ts';
import { opportunitiesCreatedOn } from '../src/content/opportunity-store.ts';
import { firingsAbout } from '../src/alerts/firings.ts';
import { type DigestBrand, digestsDue, queueDigest } from '../src/webhooks/digest-queue.ts';
import { deliveriesQueued } from '../src/webhooks/worker.ts';
import { addDays } from '../src/instant.ts';
import { humanOrder } from '../src/text-order.ts';

/** Movers listed per kind. */
export const TOP_MOVERS = 5;

const dayFilters = (brand: DigestBrand, day: string): Filters => ({
  brandId: brand.id,
  generation: brand.analysis_generation,
  from: new Date(`${day}T00:00:00.000Z`),
  to: new Date(`${day}T23:59:59.999Z`),
});

/** a - b rounded as the figures are, or null when either is missing. */
const delta = (a: number | null, b: number | null, digits = 1) =>
  a === null || b === null ? null : round(a - b, digits);

/**
 * Whether the day before's value lies inside the day's 95% interval, so the movement may be noise
 * (docs/metrics.md, "How sure a figure is"); null when either day has no value.
 */
export const withinInterval = (ci95: [number, number] | null, previous: number | null) =>
  ci95 === null || previous === null ? null : previous >= ci95[0] && previous <= ci95[1];

/** The digest's sentence on the brand's AI visibility score: its move, and whether it is inside the interval. */
export function scoreStatement(value: number | null, ci95: [number, number] | null, previous: number | null): string {
  if (value === null || ci95 === null) return 'No answers on this day: no AI visibility score to compare.';
  const [lo, hi] = ci95.map((x) => x.toFixed(1));
  const today = `AI visibility score ${value.toFixed(1)}`;
  if (previous === null) return `${today} (95% interval ${lo}-${hi}); no answers the day before to compare with.`;
  const moved = round(value - previous, 1);
  const how =
    moved === 0
      ? 'unchanged from the day before'
      : `${moved > 0 ? 'up' : 'down'} ${Math.abs(moved).toFixed(1)} from ${previous.toFixed(1)}`;
  return withinInterval(ci95, previous)
    ? `${today}, ${how}: within the 95% interval (${lo}-${hi}), may be noise.`
    : `${today}, ${how}: outside the 95% interval (${lo}-${hi}), unlikely to be noise.`;
}

/** Largest absolute changes first; ties by label, so the order is stable. */
const byChange =
  <T>(changes: (x: T) => number[], label: (x: T) => string) =>
  (a: T, b: T) => {
    const [ca, cb] = [changes(a), changes(b)];
    for (let i = 0; i < ca.length; i++)
      if (Math.abs(cb[i]) !== Math.abs(ca[i])) return Math.abs(cb[i]) - Math.abs(ca[i]);
    return humanOrder(label(a), label(b));
  };

async function promptMovers(stores: Stores, brand: DigestBrand, day: string, before: string) {
  const [today, yesterday, texts] = await Promise.all([
    promptFigures(stores.ch, dayFilters(brand, day)),
    promptFigures(stores.ch, dayFilters(brand, before)),
    promptTexts(stores.pg, brand.id),
  ]);
  const previous = new Map(yesterday.map((p) => [p.prompt_id, p]));
  return today
    .filter((p) => texts.has(p.prompt_id) && previous.has(p.prompt_id))
    .map((p) => {
      const was = previous.get(p.prompt_id)!;
      return {
        prompt_id: p.prompt_id,
        prompt_text: texts.get(p.prompt_id)!.text,
        avg_visibility: p.avg_visibility,
        previous_avg_visibility: was.avg_visibility,
        change: delta(p.avg_visibility, was.avg_visibility),
        total_mentions: p.total_mentions,
        previous_total_mentions: was.total_mentions,
      };
    })
    .filter((m) => m.change !== null && m.change !== 0)
    .sort(
      byChange(
        (m) => [m.change!],
        (m) => m.prompt_text,
      ),
    )
    .slice(0, TOP_MOVERS);
}

async function competitorMovers(
  stores: Stores,
  brand: DigestBrand,
  competitors: { id: string; name: string }[],
  day: string,
  before: string,
) {
  const [today, yesterday] = await Promise.all([
    competitorComparison(stores.ch, dayFilters(brand, day), brand, competitors),
    competitorComparison(stores.ch, dayFilters(brand, before), brand, competitors),
  ]);
  const previous = new Map(yesterday.competitors.map((c) => [c.competitor_id, c]));
  return today.competitors
    .map((c) => {
      const was = previous.get(c.competitor_id)!;
      return {
        competitor_id: c.competitor_id,
        name: c.name,
        ai_visibility_score: c.ai_visibility_score,
        previous_ai_visibility_score: was.ai_visibility_score,
        change: delta(c.ai_visibility_score, was.ai_visibility_score),
        total_mentions: c.total_mentions,
        previous_total_mentions: was.total_mentions,
      };
    })
    .filter((m) => (m.change ?? 0) !== 0 || m.total_mentions !== m.previous_total_mentions)
    .sort(
      byChange(
        (m) => [m.change ?? 0, m.total_mentions - m.previous_total_mentions],
        (m) => m.name,
      ),
    )
    .slice(0, TOP_MOVERS);
}

/** The brand's counts of a sentiment figure built without competitors (its first entity). */
function brandSentiment(figures: SentimentFigures): SentimentCounts {
  const { assessed, positive, neutral, negative, net_sentiment } = figures.entities[0];
  return { assessed, positive, neutral, negative, net_sentiment };
}

/** The `data` of a brand's digest for `day`. */
export async function buildDigest(allStores: Stores, brand: DigestBrand, day: string) {
  // The summary, the comparison and the confidence figures of a day start from the same per-entity
  // sums: each distinct read is made once for the whole digest.
  const stores = { ...allStores, ch: readsOnce(allStores.ch) };
  const before = addDays(day, -1);
  const competitors = await competitorsOf(stores.pg, brand.id);
  const names = new Map(competitors.map((c) => [c.id, c.name]));
  const [summary, previous, prompts, competitorRows, opportunities, alerts, feeling, felt, sure] = await Promise.all([
    visibilitySummary(stores.ch, dayFilters(brand, day), brand, names),
    visibilitySummary(stores.ch, dayFilters(brand, before), brand, names),
    promptMovers(stores, brand, day, before),
    competitorMovers(stores, brand, competitors, day, before),
    opportunitiesCreatedOn(stores.pg, brand.id, day),
    firingsAbout(stores.pg, brand.id, day),
    sentimentFigures(stores.ch, dayFilters(brand, day), brand, []).then(brandSentiment),
    sentimentFigures(stores.ch, dayFilters(brand, before), brand, []).then(brandSentiment),
    // The day's intervals: is each reported movement larger than the day's own uncertainty?
    visibilityConfidence(stores.ch, dayFilters(brand, day), brand, competitors),
  ]);
  const t = summary.totals;
  const p = previous.totals;
  const [own, ...others] = sure.entities;
  const scoreCi = new Map(others.map((e) => [e.entity_id, e.ai_visibility_score.ci95]));
  const scoreCi95 = own.ai_visibility_score.ci95;
  return {
    brand: { id: brand.id, name: brand.name },
    date: day,
    summary,
    change: {
      compared_to: before,
      resultCount: t.resultCount - p.resultCount,
      totalMentions: t.totalMentions - p.totalMentions,
      totalCitations: t.totalCitations - p.totalCitations,
      avgVisibility: delta(t.avgVisibility, p.avgVisibility),
      aiVisibilityScore: delta(t.aiVisibilityScore, p.aiVisibilityScore),
    },
    confidence: {
      n: sure.n,
      samples_per_slot: sure.samples_per_slot,
      ai_visibility_score: {
        value: own.ai_visibility_score.value,
        ci95: scoreCi95,
        previous: p.aiVisibilityScore,
        within_interval: withinInterval(scoreCi95, p.aiVisibilityScore),
      },
      statement: scoreStatement(own.ai_visibility_score.value, scoreCi95, p.aiVisibilityScore),
    },
    // How the day's answers spoke of the brand (the sentiment endpoint's brand row), and the day before.
    sentiment: {
      ...feeling,
      previous_net_sentiment: felt.net_sentiment,
      change: delta(feeling.net_sentiment, felt.net_sentiment),
    },
    top_movers: {
      prompts,
      competitors: competitorRows.map((m) => {
        const ci95 = scoreCi.get(m.competitor_id) ?? null;
        return { ...m, ci95, within_interval: withinInterval(ci95, m.previous_ai_visibility_score) };
      }),
    },
    new_opportunities: opportunities,
    // The alert rules that fired on windows ending this day (evaluated the next morning, before the digest).
    alerts,
  };
}

/**
 * Queues the digest of the day before `date` for every brand (or the one given) whose
 * organization has an endpoint subscribed to digest.daily and that has no digest for that day yet.
 */
export async function runDailyDigest(stores: Stores, log: Logger, args: { date: string; brandId?: string }) {
  const day = addDays(args.date, -1);
  const brands = await digestsDue(stores.pg, day, args.brandId);
  let digests = 0;
  let deliveries = 0;
  for (const brand of brands) {
    const queued = await queueDigest(stores.pg, brand, day, await buildDigest(stores, brand, day));
    if (queued === null) continue;
    digests += 1;
    deliveries += queued;
    log.debug({ brandId: brand.id, day, deliveries: queued }, 'daily digest queued');
  }
  if (deliveries) deliveriesQueued();
  return { day, digests, deliveries };
}
