// Content opportunities from tracking data (the generate-opportunities job): prompts whose answers
// name or cite competitors and not the brand. `owned`: a page of the brand's own could win the
// prompt; `earned`: the third-party sources the engines cite are the way in. docs/content.md.
import type { BrandId } from '../stores/scoped-query.ts';
import { randomUUID } from 'node:crypto';
import type { Stores } from '../stores/index.ts';
import { OPPORTUNITIES_LOCK_SEED } from '../stores/locks.ts';
import { round, visibilityScore, type EntitySums } from '../analytics/formulas.ts';
import { promptSignals, windowFilters, WINDOW_DAYS, type PromptSignals } from './signals.ts';
import { opportunityScore, SCORE_FORMULA, type Impact } from './score.ts';
import { volumesOf, type VolumeAnalysis } from './volumes.ts';
import { andList } from './keywords.ts';
import { competitorsOf } from '../tenancy/brands.ts';
import { activePrompts } from '../tenancy/prompts.ts';
import { DAY_MS } from '../instant.ts';
import { humanOrder } from '../text-order.ts';

export type OpportunityType = 'owned' | 'earned';

/** A closed (`done`) opportunity blocks a new one for the same prompt and type this long. */
export const DONE_COOLDOWN_DAYS = 60;

export interface Candidate {
  prompt_id: string;
  type: OpportunityType;
  title: string;
  description: string;
  impact: Impact;
  opportunity_score: number;
  source_data: Record<string, unknown>;
}

interface Named {
  id: string;
  name: string;
}

const score1 = (s: EntitySums, n: number) => round(visibilityScore(s, n) ?? 0, 1);

/** The opportunities one prompt's signals call for (none, one or both types). Pure. */
export function deriveCandidates(
  prompt: { id: string; text: string },
  sig: PromptSignals,
  brand: { id: string; name: string; domains: string[] },
  competitors: Named[],
  volume: VolumeAnalysis | undefined,
): Candidate[] {
  if (sig.answers <= 0 || sig.gap_answers <= 0) return [];
  const n = sig.answers;
  const brandScore = score1(sig.brand, n);
  const rivals = competitors
    .filter((c) => sig.competitors.has(c.id))
    .map((c) => {
      const s = sig.competitors.get(c.id)!;
      return {
        id: c.id,
        name: c.name,
        named: s.named,
        cited: s.cited,
        mentions: s.mentions,
        visibility_score: score1(s, n),
      };
    })
    .filter((c) => c.named > 0 || c.cited > 0)
    .sort((a, b) => b.visibility_score - a.visibility_score || humanOrder(a.name, b.name));
  if (!rivals.length || rivals[0].visibility_score <= brandScore) return [];

  const known = volume !== undefined && volume.google_volumes.length > 0;
  const s = opportunityScore({
    estAiVolume: known ? volume!.est_ai_volume : null,
    brandScore,
    bestCompetitorScore: rivals[0].visibility_score,
    gapAnswers: sig.gap_answers,
    answers: n,
  });
  const thirdParty = sig.domains.filter((d) => d.category !== 'you' && d.category !== 'competitor');
  const source_data = {
    window_days: WINDOW_DAYS,
    answers: n,
    gap_answers: sig.gap_answers,
    competitor_answers: sig.competitor_answers,
    brand: {
      id: brand.id,
      name: brand.name,
      named: sig.brand.named,
      cited: sig.brand.cited,
      visibility_score: brandScore,
    },
    competitors: rivals,
    citations: {
      third_party_answers: sig.third_party_answers,
      competitor_page_answers: sig.competitor_page_answers,
      own_page_answers: sig.own_page_answers,
      top_domains: sig.domains,
      top_urls: sig.urls,
    },
    volume: known
      ? {
          known: true,
          est_ai_volume: volume!.est_ai_volume,
          total_google_volume: volume!.total_google_volume,
          keywords: volume!.keywords,
        }
      : { known: false, est_ai_volume: null, total_google_volume: null, keywords: volume?.keywords ?? [] },
    score: { formula: SCORE_FORMULA, volume: s.volume, gap: s.gap, presence: s.presence },
  };

  const who = andList(rivals.slice(0, 3).map((r) => r.name));
  const lead =
    `${who} ${rivals.length === 1 ? 'appears' : 'appear'} in ${sig.gap_answers} of ${n} answers to ` +
    `"${prompt.text}" that do not mention ${brand.name}`;
  const out: Candidate[] = [];
  const base = { prompt_id: prompt.id, impact: s.impact, opportunity_score: s.score, source_data };
  if (sig.competitor_page_answers > 0 || sig.third_party_answers === 0) {
    const site = brand.domains[0] ? ` on ${brand.domains[0]}` : '';
    const why =
      sig.competitor_page_answers > 0
        ? `engines cite competitors' own pages in ${sig.competitor_page_answers} of them, so a page ` +
          `of ${brand.name}'s own can compete directly`
        : `engines cite no third-party source for it, so a clear, well-structured page${site} can become the one ` +
          `they rely on`;
    out.push({
      ...base,
      type: 'owned',
      title: `Publish a page${site} that answers "${prompt.text}"`,
      description: `${lead}; ${why}.`,
    });
  }
  if (sig.third_party_answers > 0) {
    const sources = andList(thirdParty.slice(0, 3).map((d) => d.domain));
    out.push({
      ...base,
      type: 'earned',
      title: `Get ${brand.name} into the sources cited for "${prompt.text}"`,
      description:
        `${lead}; engines cite third-party pages in ${sig.third_party_answers} of ` +
        `them${sources ? ` (most often ${sources})` : ''}, so coverage there is the way in.`,
    });
  }
  return out;
}

/** Computes the brand's candidates and writes them: new ones inserted, open ones refreshed. */
export async function generateBrandOpportunities(
  stores: Stores,
  brand: { id: BrandId; organization_id: string; name: string; domains: string[]; analysis_generation: number },
  date: string,
  now: Date,
): Promise<{ candidates: number; created: number; updated: number }> {
  const [prompts, competitors, signals] = await Promise.all([
    activePrompts(stores.pg, brand.id),
    competitorsOf(stores.pg, brand.id),
    promptSignals(stores.ch, windowFilters(brand, date)),
  ]);
  const volumes = await volumesOf(
    stores.pg,
    prompts.map((p) => p.id),
  );
  const candidates = prompts
    .sort((a, b) => humanOrder(a.text, b.text))
    .flatMap((p) =>
      signals.has(p.id) ? deriveCandidates(p, signals.get(p.id)!, brand, competitors, volumes.get(p.id)) : [],
    );
  if (!candidates.length) return { candidates: 0, created: 0, updated: 0 };

  return stores.pg.tx(async (client) => {
    // One writer per brand at a time (two runs of the job must not both insert).
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, $2))', [brand.id, OPPORTUNITIES_LOCK_SEED]);
    const { rows: existing } = await client.query<{
      id: string;
      prompt_id: string;
      type: OpportunityType;
      status: string;
      updated_at: Date;
    }>('SELECT id, prompt_id, type, status, updated_at FROM content_opportunities WHERE brand_id = $1', [brand.id]);
    const cooldownStart = now.getTime() - DONE_COOLDOWN_DAYS * DAY_MS;
    let created = 0;
    let updated = 0;
    for (const c of candidates) {
      const same = existing.filter((e) => e.prompt_id === c.prompt_id && e.type === c.type);
      const open = same.find((e) => e.status === 'new' || e.status === 'sent' || e.status === 'in_progress');
      const values = [c.title, c.description, c.impact, c.opportunity_score, JSON.stringify(c.source_data)];
      if (open) {
        // The figures of an open opportunity follow the data; nothing is written when they did not move.
        const { rowCount } = await client.query(
          `UPDATE content_opportunities
              SET title = $2, description = $3, impact = $4, opportunity_score = $5, source_data = $6::jsonb,
                  updated_at = GREATEST(clock_timestamp(), updated_at + interval '1 millisecond')
            WHERE id = $1 AND (title, description, impact, opportunity_score, source_data)
                  IS DISTINCT FROM ($2, $3, $4, $5::double precision, $6::jsonb)`,
          [open.id, ...values],
        );
        updated += rowCount ?? 0;
        continue;
      }
      const blocked = same.some(
        (e) => e.status === 'dismissed' || (e.status === 'done' && new Date(e.updated_at).getTime() > cooldownStart),
      );
      if (blocked) continue;
      await client.query(
        `INSERT INTO content_opportunities (id, organization_id, brand_id, prompt_id, type, title, description, impact,
           opportunity_score, source_data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb)`,
        [randomUUID(), brand.organization_id, brand.id, c.prompt_id, c.type, ...values],
      );
      created++;
    }
    return { candidates: candidates.length, created, updated };
  });
}
