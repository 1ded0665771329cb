// The digest.daily event: for each brand whose organization listens for it, once per UTC day, the
// previous day's visibility summary (the very figures GET visibility-summary returns for that
// day), what changed since the day before (totals, and the prompts and competitors that moved
// most) and the content opportunities created that day. A (brand, day) row in webhook_digests,
// written in the transaction that queues the deliveries, makes the job idempotent.
import type { Logger } from 'pino';
import type { Stores } from '../stores/index.ts';
import type { Filters } from '../analytics/filters.ts';
import { round } from '../analytics/formulas.ts';
import { visibilitySummary } from '../analytics/visibility-summary.ts';
import { promptFigures } from '../analytics/prompt-performance.ts';
import { competitorComparison } from '../analytics/competitor-comparison.ts';
import { promptTexts } from '../tenancy/prompts.ts';
import { enqueueEvent } from './outbox.ts';
import { deliveriesQueued } from './worker.ts';

/** Movers listed per kind. */
export const TOP_MOVERS = 5;

interface DigestBrand { id: string; name: string; organization_id: string }

const dayFilters = (brandId: string, day: string): Filters =>
  ({ brandId, from: new Date(`${day}T00:00:00.000Z`), to: new Date(`${day}T23:59:59.999Z`) });

export function previousDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** a - b rounded as the figures are, or null when either is missing. */
const delta = (a: number | null, b: number | null, digits = 1) => (a === null || b === null ? null : round(a - b, digits));

/** Largest absolute changes first; ties by label, so the order is stable. */
const byChange = <T>(changes: (x: T) => number[], label: (x: T) => string) => (a: T, b: T) => {
  const [ca, cb] = [changes(a), changes(b)];
  for (let i = 0; i < ca.length; i++) if (Math.abs(cb[i]) !== Math.abs(ca[i])) return Math.abs(cb[i]) - Math.abs(ca[i]);
  return label(a).localeCompare(label(b));
};

async function promptMovers(stores: Stores, brandId: string, day: string, before: string) {
  const [today, yesterday, texts] = await Promise.all([
    promptFigures(stores.ch, dayFilters(brandId, day)),
    promptFigures(stores.ch, dayFilters(brandId, before)),
    promptTexts(stores.pg, brandId),
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
    .sort(byChange((m) => [m.change!], (m) => m.prompt_text))
    .slice(0, TOP_MOVERS);
}

async function competitorMovers(stores: Stores, brand: DigestBrand, competitors: { id: string; name: string }[], day: string, before: string) {
  const [today, yesterday] = await Promise.all([
    competitorComparison(stores.ch, dayFilters(brand.id, day), brand, competitors),
    competitorComparison(stores.ch, dayFilters(brand.id, before), brand, competitors),
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
    .sort(byChange((m) => [m.change ?? 0, m.total_mentions - m.previous_total_mentions], (m) => m.name))
    .slice(0, TOP_MOVERS);
}

/** Opportunities the content jobs created for the brand during `day` (UTC), best first. */
async function newOpportunities(stores: Stores, brandId: string, day: string) {
  const { rows } = await stores.pg.query(
    `SELECT o.id, o.title, o.type, o.impact, o.opportunity_score, o.status, o.prompt_id, p.text AS prompt_text, o.created_at
       FROM content_opportunities o JOIN prompts p ON p.id = o.prompt_id
      WHERE o.brand_id = $1 AND o.created_at >= $2::date AND o.created_at < $2::date + 1
      ORDER BY o.opportunity_score DESC, o.created_at, o.id`,
    [brandId, day],
  );
  return rows.map((r) => ({ ...r, opportunity_score: Number(r.opportunity_score), created_at: new Date(r.created_at).toISOString() }));
}

/** The `data` of a brand's digest for `day`. */
export async function buildDigest(stores: Stores, brand: DigestBrand, day: string) {
  const before = previousDay(day);
  const { rows: competitors } = await stores.pg.query<{ id: string; name: string }>(
    'SELECT id, name FROM competitors WHERE brand_id = $1 ORDER BY name, id', [brand.id]);
  const names = new Map(competitors.map((c) => [c.id, c.name]));
  const [summary, previous, prompts, competitorRows, opportunities] = await Promise.all([
    visibilitySummary(stores.ch, dayFilters(brand.id, day), brand, names),
    visibilitySummary(stores.ch, dayFilters(brand.id, before), brand, names),
    promptMovers(stores, brand.id, day, before),
    competitorMovers(stores, brand, competitors, day, before),
    newOpportunities(stores, brand.id, day),
  ]);
  const t = summary.totals;
  const p = previous.totals;
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
    top_movers: { prompts, competitors: competitorRows },
    new_opportunities: opportunities,
  };
}

/**
 * Queues the digest of the day before `date` for every brand (or the one given) whose
 * organization has an endpoint subscribed to digest.daily and that has no digest for that day yet.
 */
export async function runDailyDigest(stores: Stores, log: Logger, args: { date: string; brandId?: string }) {
  const day = previousDay(args.date);
  const { rows: brands } = await stores.pg.query<DigestBrand>(
    `SELECT b.id, b.name, b.organization_id FROM brands b
      WHERE ($2::uuid IS NULL OR b.id = $2)
        AND EXISTS (SELECT 1 FROM webhook_endpoints e
                     WHERE e.organization_id = b.organization_id AND 'digest.daily' = ANY (e.events))
        AND NOT EXISTS (SELECT 1 FROM webhook_digests d WHERE d.brand_id = b.id AND d.day = $1)
      ORDER BY b.created_at, b.id`,
    [day, args.brandId ?? null],
  );
  let digests = 0;
  let deliveries = 0;
  for (const brand of brands) {
    const data = await buildDigest(stores, brand, day);
    const queued = await stores.pg.tx(async (client) => {
      // Another run may have got here first: the key decides, and the loser queues nothing.
      const claim = await client.query(
        'INSERT INTO webhook_digests (brand_id, day, deliveries) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING', [brand.id, day]);
      if (!claim.rowCount) return null;
      const n = await enqueueEvent(client, { organizationId: brand.organization_id, type: 'digest.daily', data });
      await client.query('UPDATE webhook_digests SET deliveries = $3 WHERE brand_id = $1 AND day = $2', [brand.id, day, n]);
      return n;
    });
    if (queued === null) continue;
    digests += 1;
    deliveries += queued;
    log.debug({ brandId: brand.id, day, deliveries: queued }, 'daily digest queued');
  }
  if (deliveries) deliveriesQueued();
  return { day, digests, deliveries };
}
