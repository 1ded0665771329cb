// An analysed answer's answer_rows_in row (rows.ts), read back: the flags the citation rollups sum
// (domain_first, group_first, answer_first) mark the first citation of each domain, of each group
// (you, competitor, external) and of the answer, however many citations the answer has.
// test-process: shared
import test from 'ava';
import type { AnswerAnalysis } from '../../src/tracking/analysis/analyze.ts';
import type { ValidAnswer } from '../../src/tracking/ingest/answer-schema.ts';
import { RowBinaryWriter } from '../../src/stores/row-binary.ts';
import { wideRows } from '../../src/tracking/ingest/fact-rows.ts';
import { answerRows } from '../../src/tracking/ingest/answer-rows.ts';
import type { Category, CitationFigures } from '../../src/tracking/types.ts';

const ID = (i: number) => `5d0c1f3e-0000-4000-8000-00000000000${i}`;
const answer: ValidAnswer = {
  prompt_id: ID(4),
  platform: 'chatgpt',
  model: 'gpt-5',
  region: 'US',
  mode: 'standard',
  collected_at: '2026-11-01T06:00:00.000Z',
  text: 'Acme.',
  citations: [],
  products: [],
};

/** The (domain_first, group_first, answer_first) flags of each citation row of an answer citing these. */
function flags(citations: CitationFigures[]): number[][] {
  const analysis: AnswerAnalysis = { entities: [], citations, sentiments: [] };
  const w = new RowBinaryWriter();
  answerRows(answer, { answerId: ID(1), organizationId: ID(2), brandId: ID(3), generation: 0 }, analysis, [], w);
  const [row] = wideRows(w.bytes());
  return row.citation_rows.map((c) => [c.domain_first, c.group_first, c.answer_first]);
}

const cite = (domain: string, category: Category, k: number): CitationFigures => ({
  url: `https://${domain}/${k}`,
  domain,
  category,
  article_type: 'other',
  title: '',
});

/** The flags as their definition gives them, by looking at every citation before. */
function expected(citations: CitationFigures[]): number[][] {
  const group = (c: Category) => (c === 'you' || c === 'competitor' ? c : 'external');
  return citations.map((c, i) => {
    const before = citations.slice(0, i);
    return [
      before.some((b) => b.domain === c.domain) ? 0 : 1,
      before.some((b) => group(b.category) === group(c.category)) ? 0 : 1,
      i === 0 ? 1 : 0,
    ];
  });
}

test('each domain, group and the answer flag their first citation only', (t) => {
  const citations = [
    cite('acme.com', 'you', 0),
    cite('reddit.com', 'forum', 1),
    cite('acme.com', 'you', 2),
    cite('globex.com', 'competitor', 3),
    cite('nytimes.com', 'editorial', 4),
    cite('reddit.com', 'forum', 5),
    cite('docs.acme.com', 'you', 6),
  ];
  t.deepEqual(flags(citations), [
    [1, 1, 1],
    [1, 1, 0],
    [0, 0, 0],
    [1, 1, 0],
    [1, 0, 0],
    [0, 0, 0],
    [1, 0, 0],
  ]);
  t.deepEqual(flags([]), []);
});

test('past 64 citations the flags are the same as their definition gives', (t) => {
  const categories: Category[] = ['you', 'competitor', 'other', 'forum', 'review'];
  for (const n of [63, 64, 65, 200, 1000]) {
    const citations = Array.from({ length: n }, (_, k) => cite(`d${(k * 7) % 97}.example`, categories[k % 5], k));
    t.deepEqual(flags(citations), expected(citations), `${n} citations`);
  }
});
