// Shopping cards (newest first, cursor-paged) and the visibility of one product. Cards are listed,
// not summed, so they are read with FINAL: ClickHouse collapses each card's +1/-1 rows at query
// time (every card has its own sort key, card_id included), whatever merges have run.
import type { ClickHouse } from '../stores/clickhouse.ts';
import { encodeCursor, type PageCursor } from '../cursor.ts';
import { round } from './formulas.ts';
import { chTime, select, type Clauses, type Source, type BrandId } from '../stores/scoped-query.ts';
import type { CardFigures } from '../tracking/types.ts';

const CARD_COLUMNS = [
  'card_id',
  'answer_id',
  'brand_id',
  'position',
  'product_title',
  'product_brand',
  'price_amount',
  'price_currency',
  'image_url',
  'merchant_url',
  'merchant_domain',
  'rating',
  'review_count',
  'raw',
  'matched_brand_id',
  'matched_brand_role',
  'platform',
  'region',
  'created_at',
];

/** A card as CARD_COLUMNS reads it (timestamps come as ISO strings: CLICKHOUSE_SETTINGS). */
interface CardRow extends Omit<CardFigures, 'raw'> {
  card_id: string;
  answer_id: string;
  brand_id: string;
  /** The product as the answer gave it, as JSON text. */
  raw: string;
  platform: string;
  region: string;
  created_at: string;
}

export interface CardFilters {
  brandId: BrandId;
  role?: string;
  platform?: string;
  region?: string;
}

/** The brand's live cards, with equality on whitelisted columns (role, platform, region). */
const liveCards = (f: CardFilters): Source => ({
  table: 'shopping_cards',
  scope: { brandId: f.brandId, region: f.region },
  final: true,
  eq: { matched_brand_role: f.role, platform: f.platform },
});

export async function shoppingCards(ch: ClickHouse, f: CardFilters, opts: { limit: number; cursor?: PageCursor }) {
  // Strictly after the last card of the previous page in (created_at DESC, id DESC) order, so
  // cards sharing a timestamp are neither skipped nor repeated.
  const after = opts.cursor ? { cAt: chTime(opts.cursor.at), cId: opts.cursor.id } : undefined;
  const rows = await ch.rows<CardRow>(
    select(liveCards(f), {
      select: CARD_COLUMNS.join(', '),
      where: after ? `(created_at, card_id) < ({cAt:DateTime64(3, 'UTC')}, {cId:UUID})` : undefined,
      orderBy: 'created_at DESC, card_id DESC',
      limit: '{limit:UInt32}',
      params: { ...after, limit: opts.limit + 1 },
    }),
  );
  const page = rows.slice(0, opts.limit).map((r) => ({
    id: r.card_id,
    prompt_result_id: r.answer_id,
    brand_id: r.brand_id,
    position: r.position,
    product_title: r.product_title,
    product_brand: r.product_brand,
    price_amount: r.price_amount,
    price_currency: r.price_currency,
    image_url: r.image_url,
    merchant_url: r.merchant_url,
    merchant_domain: r.merchant_domain,
    rating: r.rating,
    review_count: r.review_count,
    raw: JSON.parse(r.raw),
    matched_brand_id: r.matched_brand_id,
    matched_brand_role: r.matched_brand_role,
    platform: r.platform,
    region: r.region,
    created_at: new Date(r.created_at).toISOString(),
  }));
  const last = page[page.length - 1];
  const more = rows.length > opts.limit && last;
  return { cards: page, next_cursor: more ? encodeCursor({ at: last.created_at, id: last.id }) : null };
}

export async function productVisibility(ch: ClickHouse, brandId: BrandId, title: string) {
  const live = select({ ...liveCards({ brandId }), eq: { product_title: title } }, { select: CARD_COLUMNS.join(', ') });
  const counts = (key: string, c: Pick<Clauses, 'where' | 'orderBy'>) =>
    ch.rows<{ k: string; count: number }>(
      select(live, { select: `${key} AS k, count() AS count`, groupBy: 'k', ...c }),
    );
  const [[totals], platforms, regions, dates, merchants] = await Promise.all([
    ch.rows<{ n: number; latest: string; rating: number | null; reviews: number }>(
      select(live, {
        select: `count() AS n, max(created_at) AS latest, avgOrNull(rating) AS rating,
        sum(coalesce(review_count, 0)) AS reviews`,
      }),
    ),
    counts('platform', { orderBy: 'count DESC, k' }),
    counts('region', { orderBy: 'count DESC, k' }),
    counts('toString(toDate(created_at))', { orderBy: 'k DESC' }),
    counts('merchant_domain', { where: 'merchant_domain IS NOT NULL', orderBy: 'count DESC, k' }),
  ]);
  if (!totals || Number(totals.n) === 0) return null;
  return {
    product_title: title,
    total_appearances: Number(totals.n),
    by_platform: platforms.map((p) => ({ platform: p.k, count: Number(p.count) })),
    by_region: regions.map((r) => ({ region: r.k, count: Number(r.count) })),
    by_date: dates.map((d) => ({ date: d.k, count: Number(d.count) })),
    latest_appearance: new Date(totals.latest).toISOString(),
    average_rating: totals.rating === null ? null : round(Number(totals.rating), 2),
    total_reviews: Number(totals.reviews),
    merchant_domains: merchants.map((m) => ({ domain: m.k, count: Number(m.count) })),
  };
}
