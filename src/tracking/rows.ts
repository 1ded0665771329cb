// One analysed answer -> the rows it stores in ClickHouse (sign = +1). Pure.
// Entity and citation rows only for answers that feed visibility figures; cards only for shopping.
// answer_entities: the brand's row for every such answer; a competitor's only where it is named or cited.
import type { AnswerAnalysis } from './analyze.ts';
import type { CardFigures } from './types.ts';
import type { ValidAnswer } from './answer-schema.ts';
import { cardId } from './ids.ts';

export interface AnswerContext {
  answerId: string;
  organizationId: string;
  brandId: string;
}

export interface AnswerRows {
  answers: Record<string, unknown>[];
  answer_entities: Record<string, unknown>[];
  answer_citations: Record<string, unknown>[];
  shopping_cards: Record<string, unknown>[];
}

export const FACT_TABLES = ['answers', 'answer_entities', 'answer_citations', 'shopping_cards'] as const;
export type FactTable = (typeof FACT_TABLES)[number];

/** ClickHouse DateTime64(3) text: `2026-11-01 06:00:00.000` (UTC). */
export const chTime = (iso: string) => iso.replace('T', ' ').replace('Z', '');

export function answerRows(a: ValidAnswer, ctx: AnswerContext, analysis: AnswerAnalysis | null, cards: CardFigures[]): AnswerRows {
  const day = a.collected_at.slice(0, 10);
  const dims = { prompt_id: a.prompt_id, platform: a.platform, model: a.model, region: a.region, day };
  const collected_at = chTime(a.collected_at);
  const rows: AnswerRows = {
    answers: [{
      answer_id: ctx.answerId,
      organization_id: ctx.organizationId,
      brand_id: ctx.brandId,
      ...dims,
      mode: a.mode,
      collected_at,
      text: a.text,
      citation_count: analysis ? analysis.citations.length : 0,
      product_count: cards.length,
      sign: 1,
    }],
    answer_entities: [],
    answer_citations: [],
    shopping_cards: [],
  };
  if (analysis) {
    for (const e of analysis.entities) {
      // A competitor neither named nor cited adds nothing to any figure (every competitor figure is
      // a sum over its rows divided by the answer count, which the brand's row carries), so only the
      // brand's row is always stored. This keeps the table to a few rows per answer.
      if (e.kind !== 'brand' && e.mentions === 0 && e.citations === 0) continue;
      rows.answer_entities.push({
        answer_id: ctx.answerId, brand_id: ctx.brandId, entity_id: e.entity_id, is_brand: e.kind === 'brand' ? 1 : 0,
        ...dims, collected_at, mentions: e.mentions, position: e.position, citations: e.citations, score: e.score, sign: 1,
      });
    }
    const seenDomains = new Set<string>();
    const seenGroups = new Set<string>();
    analysis.citations.forEach((c, i) => {
      const group = c.category === 'you' || c.category === 'competitor' ? c.category : 'external';
      rows.answer_citations.push({
        answer_id: ctx.answerId, brand_id: ctx.brandId, ...dims, collected_at,
        url: c.url, domain: c.domain, category: c.category, article_type: c.article_type, title: c.title,
        domain_first: seenDomains.has(c.domain) ? 0 : 1,
        group_first: seenGroups.has(group) ? 0 : 1,
        answer_first: i === 0 ? 1 : 0,
        sign: 1,
      });
      seenDomains.add(c.domain);
      seenGroups.add(group);
    });
  }
  cards.forEach((c, i) => {
    rows.shopping_cards.push({
      card_id: cardId(ctx.answerId, i), answer_id: ctx.answerId, organization_id: ctx.organizationId, brand_id: ctx.brandId,
      ...dims, created_at: collected_at,
      position: c.position, product_title: c.product_title, product_brand: c.product_brand,
      price_amount: c.price_amount, price_currency: c.price_currency, image_url: c.image_url,
      merchant_url: c.merchant_url, merchant_domain: c.merchant_domain, rating: c.rating, review_count: c.review_count,
      raw: JSON.stringify(c.raw), matched_brand_id: c.matched_brand_id, matched_brand_role: c.matched_brand_role, sign: 1,
    });
  });
  return rows;
}
