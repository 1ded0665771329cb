// One analysed answer -> the rows it stores in ClickHouse (sign = +1), as text (row-lines.ts). Pure.
// Entity and citation rows only for answers that feed visibility figures; cards only for shopping.
// answer_entities: the brand's row for every such answer; a competitor's only where it is named or cited.
import type { AnswerAnalysis } from './analyze.ts';
import type { CardFigures } from './types.ts';
import type { ValidAnswer } from './answer-schema.ts';
import { cardId } from './ids.ts';
import { POLARITY_VALUE } from './sentiment/entity-sentiment.ts';
import { answerKey, citationTuple, entityTuple, rowKey, wideLine } from './row-lines.ts';
import { chTime } from '../stores/scoped-query.ts';

export interface AnswerContext {
  answerId: string;
  organizationId: string;
  brandId: string;
  /** The brand's analysis generation the rows belong to. */
  generation: number;
  /** A re-analysis of a stored answer: only its analysis rows are written. */
  reanalysis?: boolean;
}

/**
 * What an answer stores: its answer_rows_in line (its answers, answer_entities and answer_citations
 * rows) and the keys of its shopping_cards rows.
 */
export interface AnswerRows {
  wide: string;
  shopping_cards: string[];
}

// Values go in COLUMNS order (row-lines.ts).
export function answerRows(
  a: ValidAnswer,
  ctx: AnswerContext,
  analysis: AnswerAnalysis | null,
  cards: CardFigures[],
): AnswerRows {
  const day = a.collected_at.slice(0, 10);
  const collected_at = chTime(a.collected_at);
  const { answerId, organizationId, brandId } = ctx;
  const { prompt_id, platform, model, region } = a;
  const key = answerKey(
    answerId,
    organizationId,
    brandId,
    prompt_id,
    platform,
    model,
    region,
    a.mode,
    collected_at,
    day,
    a.text,
    analysis ? analysis.citations.length : 0,
    cards.length,
    a.search_queries ?? [],
    Array.isArray(a.search_queries) ? 1 : 0,
  );
  const entities: string[] = [];
  const citations: string[] = [];
  if (analysis) {
    analysis.entities.forEach((e, i) => {
      // A competitor neither named nor cited adds nothing to any figure (every competitor figure is
      // a sum over its rows divided by the answer count, which the brand's row carries), so only the
      // brand's row is always stored. This keeps the table to a few rows per answer.
      if (e.kind !== 'brand' && e.mentions === 0 && e.citations === 0) return;
      const s = analysis.sentiments[i];
      entities.push(
        entityTuple(
          e.entity_id,
          e.kind === 'brand' ? 1 : 0,
          e.mentions,
          e.position,
          e.citations,
          e.score,
          s ? POLARITY_VALUE[s.sentiment] : 0,
          s ? s.score : 0,
        ),
      );
    });
    const seenDomains = new Set<string>();
    const seenGroups = new Set<string>();
    analysis.citations.forEach((c, i) => {
      const group = c.category === 'you' || c.category === 'competitor' ? c.category : 'external';
      citations.push(
        citationTuple(
          c.url,
          c.domain,
          c.category,
          c.article_type,
          c.title,
          seenDomains.has(c.domain) ? 0 : 1,
          seenGroups.has(group) ? 0 : 1,
          i === 0 ? 1 : 0,
        ),
      );
      seenDomains.add(c.domain);
      seenGroups.add(group);
    });
  }
  const rows: AnswerRows = {
    wide: wideLine(key, entities, citations, ctx.generation, ctx.reanalysis),
    shopping_cards: [],
  };
  cards.forEach((c, i) => {
    rows.shopping_cards.push(
      rowKey('shopping_cards', [
        cardId(answerId, i),
        answerId,
        organizationId,
        brandId,
        prompt_id,
        platform,
        model,
        region,
        day,
        collected_at,
        c.position,
        c.product_title,
        c.product_brand,
        c.price_amount,
        c.price_currency,
        c.image_url,
        c.merchant_url,
        c.merchant_domain,
        c.rating,
        c.review_count,
        JSON.stringify(c.raw),
        c.matched_brand_id,
        c.matched_brand_role,
      ]),
    );
  });
  return rows;
}
