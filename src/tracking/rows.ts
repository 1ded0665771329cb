// One analysed answer -> the rows it stores in ClickHouse (sign = +1), written by row-lines.ts. Pure
// but for the writer it writes into.
// Entity and citation rows only for answers that feed visibility figures; cards only for shopping.
// answer_entities: the brand's row for every such answer; a competitor's only where it is named or cited.
import type { AnswerAnalysis } from './analyze.ts';
import type { CardFigures } from './types.ts';
import type { ValidAnswer } from './answer-schema.ts';
import { cardId } from './ids.ts';
import { firstIndexes } from './first-indexes.ts';
import { POLARITY_VALUE } from './sentiment/entity-sentiment.ts';
import { rowKey, writeCitationRow, writeEntityRow, writeWideAnswer, writeWideEnd } from './row-lines.ts';
import type { RowBinaryWriter } from '../stores/row-binary.ts';
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

// Values go in COLUMNS order (row-lines.ts).
/**
 * Writes an answer's answer_rows_in row (its answers, answer_entities and answer_citations rows)
 * into `wide`, and returns the keys of its shopping_cards rows.
 */
export function answerRows(
  a: ValidAnswer,
  ctx: AnswerContext,
  analysis: AnswerAnalysis | null,
  cards: CardFigures[],
  wide: RowBinaryWriter,
): string[] {
  const { answerId, organizationId, brandId } = ctx;
  const { prompt_id, platform, model, region } = a;
  writeWideAnswer(
    wide,
    answerId,
    organizationId,
    brandId,
    prompt_id,
    platform,
    model,
    region,
    a.mode,
    Date.parse(a.collected_at),
    a.text,
    analysis ? analysis.citations.length : 0,
    cards.length,
    a.search_queries ?? [],
    Array.isArray(a.search_queries) ? 1 : 0,
  );
  // A competitor neither named nor cited adds nothing to any figure (every competitor figure is a
  // sum over its rows divided by the answer count, which the brand's row carries), so only the
  // brand's row is always stored. This keeps the table to a few rows per answer.
  const stored = (e: AnswerAnalysis['entities'][number]) => e.kind === 'brand' || e.mentions > 0 || e.citations > 0;
  const entities = analysis ? analysis.entities : [];
  let count = 0;
  for (const e of entities) if (stored(e)) count++;
  wide.varUInt(count);
  entities.forEach((e, i) => {
    if (!stored(e)) return;
    const s = analysis!.sentiments[i];
    writeEntityRow(
      wide,
      e.entity_id,
      e.kind === 'brand' ? 1 : 0,
      e.mentions,
      e.position,
      e.citations,
      e.score,
      s ? POLARITY_VALUE[s.sentiment] : 0,
      s ? s.score : 0,
    );
  });
  const citations = analysis ? analysis.citations : [];
  wide.varUInt(citations.length);
  const domainFirst = firstIndexes(citations, (c) => c.domain); // i: the first of its domain
  let seenGroups = 0; // a bit per group: you, competitor, external
  citations.forEach((c, i) => {
    const group = c.category === 'you' ? 1 : c.category === 'competitor' ? 2 : 4;
    writeCitationRow(
      wide,
      c.url,
      c.domain,
      c.category,
      c.article_type,
      c.title,
      domainFirst[i] === i ? 1 : 0,
      seenGroups & group ? 0 : 1,
      i === 0 ? 1 : 0,
    );
    seenGroups |= group;
  });
  writeWideEnd(wide, ctx.generation, ctx.reanalysis);
  const shoppingCards: string[] = [];
  // The cards' rows are JSON lines, with the day and time as text: only shopping answers need them.
  const day = a.collected_at.slice(0, 10);
  const collected_at = cards.length ? chTime(a.collected_at) : '';
  cards.forEach((c, i) => {
    shoppingCards.push(
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
  return shoppingCards;
}
