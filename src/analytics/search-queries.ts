// search-queries: the web searches the platforms ran before answering the brand's prompts (their
// fan-out, docs/api.md section 12), how often they searched, and which queries came up most.
//
// One row per live answer is built first: its platform and search queries from `answers` (the row
// whose sign-weighted count is positive, so an answer replaced by a re-import counts once, as its
// latest version), and whether it names the brand from the brand's row in `answer_entities` of the
// live analysis generation. Shopping answers are left out, as from every visibility figure.
// A query is normalised (lower-cased, runs of whitespace made one space, trimmed) and counted once
// per answer, however often that answer ran it.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Filters } from './filters.ts';
import { round, roundOrNull } from './formulas.ts';
import { select, unionAll } from '../stores/scoped-query.ts';
import { sourcesUnless } from '../tracking/types.ts';

export interface SearchQueryTotals {
  answers: number;
  answers_known: number;
  answers_with_search: number;
  trigger_rate: number | null;
  queries: number;
  avg_queries_per_search: number | null;
}

export interface TopSearchQuery {
  query: string;
  answers: number;
  platforms: string[];
  brand_named_pct: number;
}

export interface SearchQueries {
  totals: SearchQueryTotals;
  top_queries: TopSearchQuery[];
}

// Unicode-aware: lowerUTF8 folds non-ASCII letters, and \p{Z} catches no-break and other spaces
// (RE2's \s is ASCII only). The same text in any case or spacing is one query.
const normalised = (list: string) =>
  `arrayFilter(x -> x != '', arrayDistinct(arrayMap(x -> ` +
  String.raw`trimBoth(replaceRegexpAll(lowerUTF8(x), '[\s\p{Z}]+', ' ')), ${list})))`;

/** One row per live non-shopping answer in range: platform, known, normalised queries, named. */
function perAnswer(f: Filters) {
  // The live version of each answer: grouped by everything a re-import may change, sign summed.
  const answers = select(
    { table: 'answers', scope: f },
    {
      select: `answer_id, toString(platform) AS answer_platform, search_queries AS sq, search_queries_known AS sq_known,
        toUInt8(1) AS is_answer, toUInt8(0) AS names_brand`,
      where: ["mode != 'shopping'", sourcesUnless(f)].filter(Boolean).join(' AND '),
      groupBy: 'answer_id, platform, search_queries, search_queries_known',
      having: 'sum(sign) > 0',
    },
  );
  // Answers naming the brand, in the live generation (the brand's row exists for every answer).
  const named = select(
    { table: 'answer_entities', scope: f },
    {
      select: `answer_id, '' AS answer_platform, CAST([] AS Array(String)) AS sq, toUInt8(0) AS sq_known,
        toUInt8(0) AS is_answer, toUInt8(1) AS names_brand`,
      where: 'is_brand = 1',
      groupBy: 'answer_id',
      having: 'sum(sign * (mentions > 0)) > 0',
    },
  );
  return select(unionAll([answers, named]), {
    select: `answer_id, anyIf(answer_platform, is_answer = 1) AS platform, maxIf(sq_known, is_answer = 1) AS known,
      ${normalised('anyIf(sq, is_answer = 1)')} AS nq, max(names_brand) AS named`,
    groupBy: 'answer_id',
    having: 'sum(is_answer) > 0',
  });
}

export async function searchQueries(ch: ClickHouse, f: Filters, opts: { limit: number }): Promise<SearchQueries> {
  const answers = perAnswer(f);
  const [[totals], top] = await Promise.all([
    ch.rows<Record<'answers' | 'known_answers' | 'searched' | 'queries', number | string>>(
      select(answers, {
        select: `count() AS answers, countIf(known = 1) AS known_answers,
          countIf(known = 1 AND length(nq) > 0) AS searched, sumIf(length(nq), known = 1) AS queries`,
      }),
    ),
    ch.rows<{ query: string; answers: number | string; platforms: string[]; named_answers: number | string }>(
      select(answers, {
        select:
          'arrayJoin(nq) AS query, count() AS answers, arraySort(groupUniqArray(platform)) AS platforms, ' +
          'sum(named) AS named_answers',
        where: 'known = 1',
        groupBy: 'query',
        // Byte order breaks ties, as ClickHouse compares strings.
        orderBy: 'answers DESC, query ASC',
        limit: '{limit:UInt32}',
        params: { limit: opts.limit },
      }),
    ),
  ]);
  const known = Number(totals?.known_answers ?? 0);
  const searched = Number(totals?.searched ?? 0);
  const queries = Number(totals?.queries ?? 0);
  return {
    totals: {
      answers: Number(totals?.answers ?? 0),
      answers_known: known,
      answers_with_search: searched,
      trigger_rate: known > 0 ? round((100 * searched) / known, 1) : null,
      queries,
      // A mean over no searches is undefined, like the position factor of a brand never named.
      avg_queries_per_search: roundOrNull(searched > 0 ? queries / searched : null, 2),
    },
    top_queries: top.map((r) => ({
      query: r.query,
      answers: Number(r.answers),
      platforms: r.platforms,
      brand_named_pct: round((100 * Number(r.named_answers)) / Number(r.answers), 1),
    })),
  };
}
