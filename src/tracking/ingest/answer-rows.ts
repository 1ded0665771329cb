// One analysed answer -> the rows it stores in ClickHouse (sign = +1), written by ingest/fact-rows.ts. Pure
// but for the writer it writes into.
// Entity and citation rows only for answers that feed visibility figures; cards only for shopping.
// answer_entities: the brand's row for every such answer; a competitor's only where it is named or cited.
import type { AnswerAnalysis } from '../analysis/analyze.ts';
import type { CardFigures } from '../types.ts';
import type { ValidAnswer } from './answer-schema.ts';
import { cardId } from './ids.ts';
import { firstIndexes } from '../analysis/first-indexes.ts';
import { POLARITY_VALUE } from '../analysis/sentiment/entity-sentiment.ts';
import { type CitationTuple, type EntityTuple, rowKey, writeAnswerRowsIn } from './fact-rows.ts';
import type { RowBinaryWriter } from '../../stores/row-binary.ts';
import { chTime } from '../../stores/scoped-query.ts';

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
  // A competitor neither named nor cited adds nothing to any figure (every competitor figure is a
  // sum over its rows divided by the answer count, which the brand's row carries), so only the
  // brand's row is always stored. This keeps the table to a few rows per answer.
  const entityRows: EntityTuple[] = [];
  analysis?.entities.forEach((e, i) => {
    if (e.kind !== 'brand' && e.mentions === 0 && e.citations === 0) return;
    const s = analysis.sentiments[i];
    entityRows.push({
      entity_id: e.entity_id,
      is_brand: e.kind === 'brand' ? 1 : 0,
      mentions: e.mentions,
      position: e.position,
      citations: e.citations,
      score: e.score,
      sentiment: s ? POLARITY_VALUE[s.sentiment] : 0,
      sentiment_score: s ? s.score : 0,
    });
  });
  // Whom the answer names, carried by each of its citation rows: the citation gap reads it there
  // instead of matching citations against the entity rows (clickhouse/021). Ids in text order, as
  // the migration's backfill orders them, so a re-import of an unchanged answer keeps its rows.
  let namesBrand = 0;
  const namedCompetitors: string[] = [];
  for (const e of analysis?.entities ?? []) {
    if (e.mentions === 0) continue;
    if (e.kind === 'brand') namesBrand = 1;
    else namedCompetitors.push(e.entity_id);
  }
  namedCompetitors.sort();
  const citations = analysis ? analysis.citations : [];
  const domainFirst = firstIndexes(citations, (c) => c.domain); // i: the first of its domain
  let seenGroups = 0; // a bit per group: you, competitor, external
  const citationRows = citations.map((c, i): CitationTuple => {
    const group = c.category === 'you' ? 1 : c.category === 'competitor' ? 2 : 4;
    const row: CitationTuple = {
      url: c.url,
      domain: c.domain,
      category: c.category,
      article_type: c.article_type,
      title: c.title,
      domain_first: domainFirst[i] === i ? 1 : 0,
      group_first: seenGroups & group ? 0 : 1,
      answer_first: i === 0 ? 1 : 0,
      names_brand: namesBrand,
      named_competitors: namedCompetitors,
    };
    seenGroups |= group;
    return row;
  });
  const at = Date.parse(a.collected_at);
  writeAnswerRowsIn(wide, {
    answer_id: answerId,
    organization_id: organizationId,
    brand_id: brandId,
    prompt_id,
    platform,
    model,
    region,
    mode: a.mode,
    collected_at: at,
    day: at,
    text: a.text,
    citation_count: citations.length,
    product_count: cards.length,
    search_queries: a.search_queries ?? [],
    search_queries_known: Array.isArray(a.search_queries) ? 1 : 0,
    provider_model: a.provenance?.provider_model ?? model,
    engine_version: a.provenance?.engine_version ?? '',
    source: a.provenance?.source ?? 'import',
    sign: 1,
    entity_rows: entityRows,
    citation_rows: citationRows,
    generation: ctx.generation,
    reanalysis: ctx.reanalysis ? 1 : undefined,
  });
  // The cards' rows are JSON lines, with the day and time as text: only shopping answers need them.
  const day = a.collected_at.slice(0, 10);
  const created_at = cards.length ? chTime(a.collected_at) : '';
  return cards.map((c, i) =>
    rowKey('shopping_cards', {
      card_id: cardId(answerId, i),
      answer_id: answerId,
      organization_id: organizationId,
      brand_id: brandId,
      prompt_id,
      platform,
      model,
      region,
      day,
      created_at,
      position: c.position,
      product_title: c.product_title,
      product_brand: c.product_brand,
      price_amount: c.price_amount,
      price_currency: c.price_currency,
      image_url: c.image_url,
      merchant_url: c.merchant_url,
      merchant_domain: c.merchant_domain,
      rating: c.rating,
      review_count: c.review_count,
      raw: JSON.stringify(c.raw),
      matched_brand_id: c.matched_brand_id,
      matched_brand_role: c.matched_brand_role,
    }),
  );
}
