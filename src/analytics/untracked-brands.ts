// untracked-brands: names the answers give as brands that the workspace does not track (docs/api.md
// section 24; docs/metrics.md "Brands you don't track"). Candidates are read where answers put brand
// names: the name opening a numbered or bulleted list item, a bold name, and a shopping card's
// product brand. ClickHouse extracts them (re2), so only the per-name counts leave the store; the
// brand's and its competitors' every form (name and aliases, and names starting with one, such as a
// product line) are dropped here, before the 3-answer threshold is applied.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { select, unionAll } from '../stores/scoped-query.ts';
import { byteOrder } from '../text-order.ts';
import { sourcesUnless } from '../tracking/types.ts';

/** Answers a name must appear in to be listed. */
export const MIN_ANSWERS = 3;
/** Names read from the store, most named first: far more than any page lists. */
const CANDIDATES = 2_000;

/** A brand-like name: one to four capitalised words (letters, digits, & ' . + -). */
const NAME = "[A-Z0-9][A-Za-z0-9&'’.+-]*(?: [A-Z0-9][A-Za-z0-9&'’.+-]*){0,3}";
/** A list item's opening name, optionally bold: `1. Name`, `- **Name**`, `* Name:`. */
const LIST_ITEM = `(?m)^[ \\t]*(?:\\d{1,2}[.)]|[-*•])[ \\t]+(?:\\*\\*)?(${NAME})`;
/** A bold name standing alone: `**Name**` (not `**Best for:**`). */
const BOLD = `\\*\\*(${NAME})\\*\\*`;

/** Punctuation a name may end with that is not part of it (the full stop after `1. Name.`). */
const TRAILING = "[.'’+-]+$";

/** A name as compared with the tracked forms: lower case, trailing punctuation dropped. */
export const nameKey = (s: string) => s.trim().replace(new RegExp(TRAILING), '').toLowerCase();

/** Whether a candidate is one of the tracked forms, or starts with one (a product line of a tracked brand). */
export function isTracked(candidate: string, forms: string[]): boolean {
  const key = nameKey(candidate);
  return forms.some((f) => key === f || key.startsWith(`${f} `));
}

export async function untrackedBrands(ch: ClickHouse, f: Filters, trackedForms: string[]) {
  const { generation: _g, ...scope } = f;
  const fromText = select(
    { table: 'answers', scope, final: true, eq: { mode: 'standard' } },
    {
      select: `answer_id, day, platform,
        arrayJoin(arrayDistinct(arrayConcat(extractAll(text, {listItem:String}), extractAll(text, {bold:String})))) AS name`,
      // Other trackers' imported answers only when the filter asks for their source (as the figures).
      where: ['sign = 1', sourcesUnless(scope)].filter(Boolean).join(' AND '),
      params: { listItem: LIST_ITEM, bold: BOLD },
    },
  );
  const fromCards = select(
    { table: 'shopping_cards', scope, final: true },
    { select: 'answer_id, day, platform, trimBoth(product_brand) AS name', where: "product_brand != ''" },
  );
  const forms = [...new Set(trackedForms.map(nameKey).filter(Boolean))];
  const rows = await ch.rows<{ name: string; answers: number; first_seen: string; platforms: string[] }>(
    select(unionAll([fromText, fromCards]), {
      select: `replaceRegexpOne(name, {trailing:String}, '') AS brand_name, uniqExact(answer_id) AS answers,
        toString(min(day)) AS first_seen, arraySort(groupUniqArray(platform)) AS platforms`,
      where: "lowerUTF8(replaceRegexpOne(name, {trailing:String}, '')) NOT IN {forms:Array(String)}",
      groupBy: 'brand_name',
      having: `answers >= ${MIN_ANSWERS}`,
      orderBy: 'answers DESC, brand_name',
      limit: String(CANDIDATES),
      params: { forms, trailing: TRAILING },
    }),
  );
  return rows
    .map((r) => ({
      name: String((r as unknown as { brand_name: string }).brand_name),
      answers: Number(r.answers),
      first_seen: r.first_seen,
      platforms: r.platforms,
    }))
    .filter((r) => r.name !== '' && !isTracked(r.name, forms))
    .sort((a, b) => b.answers - a.answers || byteOrder(a.name, b.name));
}
