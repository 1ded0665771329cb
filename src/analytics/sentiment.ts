// Sentiment per entity (docs/api.md section 13): over the answers in range, how many name each
// entity (assessed) and how many of those speak of it positively, neutrally or negatively, and the
// brand's same counts per platform and model. Read from entity_daily's polarity counts when the
// filters allow (whole days, no topic), else from answer_entities; neutral is what is named and
// neither positive nor negative, so rows stored before clickhouse/015 count as neutral.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { entitySource, type EntitySource } from './entity-source.ts';
import { round } from './formulas.ts';
import { select } from '../stores/scoped-query.ts';
import { humanOrder } from '../text-order.ts';

export interface SentimentCounts {
  assessed: number;
  positive: number;
  neutral: number;
  negative: number;
  /** 100 x (positive - negative) / assessed, 1 decimal; null when nothing is assessed. */
  net_sentiment: number | null;
}

export interface SentimentFigures {
  entities: ({ entity_id: string; name: string; is_brand: boolean } & SentimentCounts)[];
  by_platform: ({ platform: string; model_used: string } & SentimentCounts)[];
}

/** The select list of assessed, positive and negative from the source's table. */
function countsSql(src: EntitySource): string {
  const rollup = src.table === 'entity_daily';
  if (!rollup && src.table !== 'answer_entities') throw new Error(`sentiment is not kept in ${src.table}`);
  const positive = rollup ? 'positive_count' : 'sign * (mentions > 0 AND sentiment = 1)';
  const negative = rollup ? 'negative_count' : 'sign * (mentions > 0 AND sentiment = -1)';
  return (
    `${src.m('named')} AS assessed, sum(${positive}) AS positive, sum(${negative}) AS negative, ` +
    `${src.m('rows')} AS row_count`
  );
}

interface CountRow {
  assessed: number | string;
  positive: number | string;
  negative: number | string;
}

export function sentimentCounts(r: CountRow | undefined): SentimentCounts {
  const assessed = Number(r?.assessed ?? 0);
  const positive = Number(r?.positive ?? 0);
  const negative = Number(r?.negative ?? 0);
  return {
    assessed,
    positive,
    neutral: assessed - positive - negative,
    negative,
    net_sentiment: assessed > 0 ? round((100 * (positive - negative)) / assessed, 1) : null,
  };
}

export async function sentimentFigures(
  ch: ClickHouse,
  f: Filters,
  brand: { id: string; name: string },
  competitors: { id: string; name: string }[],
): Promise<SentimentFigures> {
  const bySource = entitySource(f, ['entity_id', 'is_brand']);
  const platformSource = entitySource(f, ['is_brand', 'platform', 'model']);
  const [entityRows, platformRows] = await Promise.all([
    ch.rows<CountRow & { entity_id: string }>(
      select(bySource, { select: `entity_id, ${countsSql(bySource)}`, groupBy: 'entity_id' }),
    ),
    ch.rows<CountRow & { platform: string; model: string }>(
      select(platformSource, {
        select: `platform, model, ${countsSql(platformSource)}`,
        where: 'is_brand = 1',
        groupBy: 'platform, model',
        having: 'row_count > 0',
        orderBy: 'platform, model',
      }),
    ),
  ]);
  const byId = new Map(entityRows.map((r) => [String(r.entity_id), r]));
  const rivals = competitors
    .map((c) => ({ entity_id: c.id, name: c.name, is_brand: false, ...sentimentCounts(byId.get(c.id)) }))
    .sort((a, b) => b.assessed - a.assessed || humanOrder(a.name, b.name));
  return {
    entities: [
      { entity_id: brand.id, name: brand.name, is_brand: true, ...sentimentCounts(byId.get(brand.id)) },
      ...rivals,
    ],
    by_platform: platformRows.map((r) => ({ platform: r.platform, model_used: r.model, ...sentimentCounts(r) })),
  };
}
