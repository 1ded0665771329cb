// untracked-brands: names the answers give as brands that the workspace does not track (docs/api.md
// section 24; docs/metrics.md "Brands you don't track"). Candidates are read where answers put brand
// names: the name opening a numbered or bulleted list item, a bold name, and a shopping card's
// product brand. ClickHouse extracts them (re2), so only the per-name counts leave the store; the
// brand's and its competitors' every form (name and aliases, and names starting with one, such as a
// product line) are dropped in the same read, before the 3-answer threshold is applied. The answers
// explorer's `untracked` filter reads the same pairs (untrackedMentions), so a count opens its answers.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { select, unionAll, type PlainFilters, type ScopedQuery } from '../stores/scoped-query.ts';
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
const nameKey = (s: string) => s.trim().replace(new RegExp(TRAILING), '').toLowerCase();

/** Every form the workspace tracks: the brand's and each competitor's name and aliases. */
export const trackedForms = (entities: readonly { name: string; aliases: readonly string[] }[]) =>
  entities.flatMap((e) => [e.name, ...e.aliases]);

/**
 * Each (answer, name) pair the count is made of: a candidate name as compared (trailing punctuation
 * dropped), every tracked form and a name starting with one left out, from answers the explorer
 * lists (live, of the sources the figures count). The count groups these by name; the explorer's
 * `untracked` filter keeps the answers of one name, so a count's link opens exactly its answers.
 */
export function untrackedMentions(scope: PlainFilters, trackedForms: string[]): ScopedQuery {
  const { generation: _g, ...facts } = scope;
  const fromText = select(
    { table: 'answers', scope: facts, final: true },
    {
      select:
        `answer_id, day, platform,
        arrayJoin(arrayDistinct(arrayConcat(extractAll(text, {listItem:String}), extractAll(text, ` +
        '{bold:String})))) AS name',
      // Other trackers' imported answers only when the filter asks for their source (as the figures).
      // The mode is a condition of this text, not `eq`: the explorer binds its own mode beside it.
      where: ['sign = 1', "mode = 'standard'", sourcesUnless(scope)].filter(Boolean).join(' AND '),
      params: { listItem: LIST_ITEM, bold: BOLD },
    },
  );
  // A card counts when its answer is one the explorer lists (live, of the sources counted): the same answers again.
  const listed = select(
    { table: 'answers', scope: facts, final: true },
    { select: 'answer_id', where: ['sign = 1', sourcesUnless(scope)].filter(Boolean).join(' AND ') },
  );
  const fromCards = select(
    { table: 'shopping_cards', scope: facts, final: true },
    {
      select: 'answer_id, day, platform, trimBoth(product_brand) AS name',
      where: "product_brand != ''",
      in: { column: 'answer_id', query: listed },
    },
  );
  const forms = [...new Set(trackedForms.map(nameKey).filter(Boolean))];
  // Tracked: the name (lower case) is a form, or starts with one and a space (a product line of it).
  return select(unionAll([fromText, fromCards]), {
    select: "answer_id, day, platform, replaceRegexpOne(name, {trailing:String}, '') AS brand_name",
    where:
      `brand_name != '' AND NOT arrayExists(
      f -> lowerUTF8(brand_name) = f OR startsWith(lowerUTF8(brand_name), concat(f, ' ')), ` +
      '{untrackedForms:Array(String)})',
    params: { untrackedForms: forms, trailing: TRAILING },
  });
}

export async function untrackedBrands(ch: ClickHouse, f: Filters, trackedForms: string[]) {
  const rows = await ch.rows<{ brand_name: string; answers: number; first_seen: string; platforms: string[] }>(
    select(untrackedMentions(f, trackedForms), {
      select: `brand_name, uniqExact(answer_id) AS answers,
        toString(min(day)) AS first_seen, arraySort(groupUniqArray(platform)) AS platforms`,
      groupBy: 'brand_name',
      having: `answers >= ${MIN_ANSWERS}`,
      orderBy: 'answers DESC, brand_name',
      limit: String(CANDIDATES),
    }),
  );
  return rows
    .map((r) => ({
      name: String(r.brand_name),
      answers: Number(r.answers),
      first_seen: r.first_seen,
      platforms: r.platforms,
    }))
    .sort((a, b) => b.answers - a.answers || byteOrder(a.name, b.name));
}
