// Writes a batch of answers' rows into the fact tables so that each table ends up holding, for those
// answers, exactly the rows wanted, whatever it held before (nothing, an older version, or a
// half-written earlier attempt). Per table: read the live rows of the batch's answers (grouped,
// sum(sign) > 0), then insert cancel rows (sign -1, exact copies) for live rows that are not wanted
// and new rows (sign +1) for wanted rows that are not live. Unchanged answers write nothing.
import type { ClickHouse } from '../stores/clickhouse.ts';
import { chTime, FACT_TABLES, type FactTable } from './rows.ts';

/** Stored columns of each fact table, minus `sign`, in a fixed order (the identity of a row). */
export const COLUMNS: Record<FactTable, readonly string[]> = {
  answers: ['answer_id', 'organization_id', 'brand_id', 'prompt_id', 'platform', 'model', 'region', 'mode',
    'collected_at', 'day', 'text', 'citation_count', 'product_count'],
  answer_entities: ['answer_id', 'brand_id', 'entity_id', 'is_brand', 'prompt_id', 'platform', 'model', 'region', 'day',
    'collected_at', 'mentions', 'position', 'citations', 'score'],
  answer_citations: ['answer_id', 'brand_id', 'prompt_id', 'platform', 'model', 'region', 'day', 'collected_at',
    'url', 'domain', 'category', 'article_type', 'title', 'domain_first', 'group_first', 'answer_first'],
  shopping_cards: ['card_id', 'answer_id', 'organization_id', 'brand_id', 'prompt_id', 'platform', 'model', 'region', 'day',
    'created_at', 'position', 'product_title', 'product_brand', 'price_amount', 'price_currency', 'image_url',
    'merchant_url', 'merchant_domain', 'rating', 'review_count', 'raw', 'matched_brand_id', 'matched_brand_role'],
};

const TIME_COLUMNS = new Set(['collected_at', 'created_at']);

/** Rows read back come with ISO timestamps; rows written use ClickHouse's text form. */
function toInsertForm(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = TIME_COLUMNS.has(k) && typeof v === 'string' ? chTime(v).replace(/\+00:00$/, '') : v;
  return out;
}

const identity = (table: FactTable, row: Record<string, unknown>) =>
  JSON.stringify(COLUMNS[table].map((c) => row[c] ?? null));

export interface Scope { brands: string[]; days: string[]; answerIds: string[] }

/** Live rows of the scope's answers in one table, with how many times each is live. */
async function liveRows(ch: ClickHouse, table: FactTable, scope: Scope) {
  const cols = COLUMNS[table].join(', ');
  const rows = await ch.rows<Record<string, unknown> & { live: number }>(
    `SELECT ${cols}, sum(sign) AS live FROM ${table}
      WHERE brand_id IN {brands:Array(UUID)} AND day IN {days:Array(Date)} AND answer_id IN {ids:Array(UUID)}
      GROUP BY ${cols} HAVING live > 0`,
    { brands: scope.brands, days: scope.days, ids: scope.answerIds },
  );
  return rows.map(({ live, ...row }) => ({ row: toInsertForm(row), live: Number(live) }));
}

export interface ReconcileResult {
  /** Answer ids that had a live answers row before this write. */
  existed: Set<string>;
  written: number;
}

export async function reconcile(ch: ClickHouse, scope: Scope, wanted: Record<FactTable, Record<string, unknown>[]>): Promise<ReconcileResult> {
  const existed = new Set<string>();
  let written = 0;
  await Promise.all(FACT_TABLES.map(async (table) => {
    const live = await liveRows(ch, table, scope);
    if (table === 'answers') for (const { row } of live) existed.add(String(row.answer_id));
    // A fresh import (the common case) has nothing live: write the wanted rows as they are.
    if (!live.length) {
      await ch.insert(table, wanted[table]);
      written += wanted[table].length;
      return;
    }
    const liveByKey = new Map(live.map((l) => [identity(table, l.row), l]));
    const out: Record<string, unknown>[] = [];
    for (const row of wanted[table]) {
      const key = identity(table, row);
      const l = liveByKey.get(key);
      if (!l) out.push(row);
      else {
        // Live more than once (never by our writes, but heal it if found): cancel the extra copies.
        for (let i = 1; i < l.live; i++) out.push({ ...l.row, sign: -1 });
        liveByKey.delete(key);
      }
    }
    for (const { row, live: n } of liveByKey.values()) for (let i = 0; i < n; i++) out.push({ ...row, sign: -1 });
    // Cancels first: within one insert block a merge then keeps the newest row of a key.
    out.sort((a, b) => Number(a.sign) - Number(b.sign));
    await ch.insert(table, out);
    written += out.length;
  }));
  return { existed, written };
}
