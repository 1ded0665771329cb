// Writes a batch of answers' rows into the fact tables so that each table ends up holding, for those
// answers, exactly the rows wanted, whatever it held before (nothing, an older version, or a
// half-written earlier attempt). Per table: read the live rows of the batch's answers (grouped,
// sum(sign) > 0), then insert cancel rows (sign -1, exact copies) for live rows that are not wanted
// and new rows (sign +1) for wanted rows that are not live. Unchanged answers write nothing.
// Rows are compared by their keys (ingest/fact-rows.ts): the stored values, serialised as they are written.
import type { ClickHouse } from '../../stores/clickhouse.ts';
import { type BrandId, select, type Clauses } from '../../stores/scoped-query.ts';
import { chTime } from '../../stores/scoped-query.ts';
import { columnTypesOf } from '../../stores/fact-tables.ts';
import {
  FACT_TABLES,
  type FactRow,
  type FactTable,
  LINE_COLUMNS,
  WIDE_COLUMNS,
  keysOf,
  keysOfWide,
  wideRows,
  rowKey,
  rowLine,
} from './fact-rows.ts';

/** Rows read back come with ISO timestamps; rows written use ClickHouse's text form. */
const insertForm = (v: unknown) => (typeof v === 'string' ? chTime(v).replace(/\+00:00$/, '') : v);

export interface Scope {
  /** The batch's brands, as read from their rows (tenancy's existingBrandIds). */
  brands: BrandId[];
  days: string[];
  answerIds: string[];
}

/**
 * A read of the scope's answers (their brands, days and ids). Several tables are read as one
 * through merge(): the fact tables share brand_id, day and answer_id.
 */
const scoped = (table: FactTable | readonly FactTable[], scope: Scope, c: Omit<Clauses, 'where' | 'params'>) =>
  select(
    { table, scope: { brandIds: scope.brands } },
    {
      ...c,
      where: 'day IN {days:Array(Date)} AND answer_id IN {ids:Array(UUID)}',
      params: { days: scope.days, ids: scope.answerIds },
    },
  );

/**
 * Whether any fact table holds a row (live or cancelled) of the scope's answers: one query, with
 * the id list parsed once, instead of a live-row query per table for the common case of answers
 * never stored. Every table is asked, so an earlier attempt that wrote some tables and not others
 * still takes the comparing path.
 */
async function anyStored(ch: ClickHouse, scope: Scope): Promise<boolean> {
  const found = await ch.rows(scoped(FACT_TABLES, scope, { select: '1', limit: '1' }));
  return found.length > 0;
}

/** Live rows of the scope's answers in one table (their keys), with how many times each is live. */
async function liveRows(ch: ClickHouse, table: FactTable, scope: Scope) {
  const columns = columnTypesOf(table);
  const times = columns.filter(([, type]) => type.startsWith('DateTime64')).map(([name]) => name);
  const cols = columns.map(([name]) => name).join(', ');
  const rows = await ch.rows<Record<string, unknown> & { live: number }>(
    scoped(table, scope, { select: `${cols}, sum(sign) AS live`, groupBy: cols, having: 'live > 0' }),
  );
  return rows.map((row) => {
    for (const name of times) row[name] = insertForm(row[name]);
    return {
      key: rowKey(table, row as unknown as FactRow<FactTable>),
      answerId: String(row.answer_id),
      live: Number(row.live),
    };
  });
}

/**
 * The wanted rows: one answer_rows_in row per answer (its answers, entity and citation rows) in
 * RowBinary, and the `sign = 1` lines of the shopping cards, as text or UTF-8.
 */
export interface WantedLines {
  wide: Uint8Array;
  shopping_cards: string | Uint8Array;
}

const decoder = new TextDecoder();
const text = (body: string | Uint8Array) => (typeof body === 'string' ? body : decoder.decode(body));

/** The wanted rows' keys, table by table. */
function wantedKeys(wanted: WantedLines): Record<FactTable, string[]> {
  const keys: Record<FactTable, string[]> = {
    answers: [],
    answer_entities: [],
    answer_citations: [],
    shopping_cards: keysOf(text(wanted.shopping_cards)),
  };
  for (const row of wideRows(wanted.wide)) {
    const rows = keysOfWide(row);
    keys.answers.push(...rows.answers);
    keys.answer_entities.push(...rows.answer_entities);
    keys.answer_citations.push(...rows.answer_citations);
  }
  return keys;
}

/** Writes the wanted lines; returns the answer ids that had a live answers row before. */
export async function reconcile(ch: ClickHouse, scope: Scope, wanted: WantedLines): Promise<Set<string>> {
  const existed = new Set<string>();
  // A fresh import (the common case): write the wanted rows as they are, the answers through
  // answer_rows_in, whose views fan them out into their three tables.
  if (!(await anyStored(ch, scope))) {
    await Promise.all([
      ch.insertRowBinary('answer_rows_in', WIDE_COLUMNS, wanted.wide),
      ch.insertLines('shopping_cards', LINE_COLUMNS.shopping_cards, wanted.shopping_cards),
    ]);
    return existed;
  }
  const keys = wantedKeys(wanted);
  await Promise.all(
    FACT_TABLES.map(async (table) => {
      const live = await liveRows(ch, table, scope);
      if (table === 'answers') for (const l of live) existed.add(l.answerId);
      const liveByKey = new Map(live.map((l) => [l.key, l.live]));
      // Cancels first: within one insert block a merge then keeps the newest row of a key.
      let cancels = '';
      let adds = '';
      for (const key of keys[table]) {
        const times = liveByKey.get(key);
        if (times === undefined) {
          adds += rowLine(key, 1);
          continue;
        }
        // Live more than once (never by our writes, but heal it if found): cancel the extra copies.
        for (let i = 1; i < times; i++) cancels += rowLine(key, -1);
        liveByKey.delete(key);
      }
      for (const [key, times] of liveByKey) for (let i = 0; i < times; i++) cancels += rowLine(key, -1);
      await ch.insertLines(table, LINE_COLUMNS[table], cancels + adds);
    }),
  );
  return existed;
}
