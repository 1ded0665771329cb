// Shopping cards (newest first, cursor-paged) and the visibility of one product. Cards are listed,
// not summed, so they are read with FINAL: ClickHouse collapses each card's +1/-1 rows at query
// time (every card has its own sort key, card_id included), whatever merges have run.
import type { ClickHouse } from '../stores/clickhouse.ts';
import { encodeCursor, type PageCursor } from '../cursor.ts';
import { round } from './formulas.ts';
import { chTime } from '../tracking/rows.ts';

const CARD_COLUMNS = ['card_id', 'answer_id', 'brand_id', 'position', 'product_title', 'product_brand', 'price_amount',
  'price_currency', 'image_url', 'merchant_url', 'merchant_domain', 'rating', 'review_count', 'raw', 'matched_brand_id',
  'matched_brand_role', 'platform', 'region', 'created_at'];

export interface CardFilters { brandId: string; role?: string; platform?: string; region?: string }

function cardWhere(f: CardFilters) {
  const parts = ['brand_id = {brand:UUID}'];
  const params: Record<string, unknown> = { brand: f.brandId };
  if (f.role) { parts.push('matched_brand_role = {role:String}'); params.role = f.role; }
  if (f.platform) { parts.push('platform = {platform:String}'); params.platform = f.platform; }
  if (f.region) { parts.push('region = {region:String}'); params.region = f.region; }
  return { parts, params };
}

export async function shoppingCards(ch: ClickHouse, f: CardFilters, opts: { limit: number; cursor?: PageCursor }) {
  const { parts, params } = cardWhere(f);
  if (opts.cursor) {
    // Strictly after the last card of the previous page in (created_at DESC, id DESC) order, so
    // cards sharing a timestamp are neither skipped nor repeated.
    parts.push(`(created_at, card_id) < ({cAt:DateTime64(3, 'UTC')}, {cId:UUID})`);
    Object.assign(params, { cAt: chTime(opts.cursor.at), cId: opts.cursor.id });
  }
  const rows = await ch.rows<Record<string, any>>(
    `SELECT ${CARD_COLUMNS.join(', ')} FROM shopping_cards FINAL WHERE ${parts.join(' AND ')}
     ORDER BY created_at DESC, card_id DESC LIMIT {limit:UInt32}`,
    { ...params, limit: opts.limit + 1 },
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
  return { cards: page, next_cursor: rows.length > opts.limit && last ? encodeCursor({ at: last.created_at, id: last.id }) : null };
}

export async function productVisibility(ch: ClickHouse, brandId: string, title: string) {
  const live = `SELECT ${CARD_COLUMNS.join(', ')} FROM shopping_cards FINAL
    WHERE brand_id = {brand:UUID} AND product_title = {title:String}`;
  const params = { brand: brandId, title };
  const [[totals], platforms, regions, dates, merchants] = await Promise.all([
    ch.rows<{ n: number; latest: string; rating: number | null; reviews: number }>(
      `SELECT count() AS n, max(created_at) AS latest, avgOrNull(rating) AS rating, sum(coalesce(review_count, 0)) AS reviews FROM (${live})`, params),
    ch.rows<{ k: string; count: number }>(`SELECT platform AS k, count() AS count FROM (${live}) GROUP BY k ORDER BY count DESC, k`, params),
    ch.rows<{ k: string; count: number }>(`SELECT region AS k, count() AS count FROM (${live}) GROUP BY k ORDER BY count DESC, k`, params),
    ch.rows<{ k: string; count: number }>(`SELECT toString(toDate(created_at)) AS k, count() AS count FROM (${live}) GROUP BY k ORDER BY k DESC`, params),
    ch.rows<{ k: string; count: number }>(
      `SELECT merchant_domain AS k, count() AS count FROM (${live}) WHERE merchant_domain IS NOT NULL GROUP BY k ORDER BY count DESC, k`, params),
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
