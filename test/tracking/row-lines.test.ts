// Rows are serialised by hand (row-lines.ts); the text must be exactly what JSON.stringify gives,
// since it is both what ClickHouse parses and the identity reconcile compares stored rows by.
// test-process: shared
import test from 'ava';
import { columnsOf, type FactRow, type FactTable } from '../../src/stores/fact-tables.ts';
import {
  type AnswerRowsIn,
  type CitationTuple,
  type EntityTuple,
  keysOf,
  keysOfWide,
  LineWriter,
  rowKey,
  rowLine,
  wideRows,
  writeAnswerRowsIn,
} from '../../src/tracking/ingest/fact-rows.ts';
import { RowBinaryWriter } from '../../src/stores/row-binary.ts';

// A row's values in its table's column order, as JSON: what its key must be.
const json = <T extends FactTable>(table: T, row: FactRow<T>) =>
  JSON.stringify(columnsOf(table).map((c) => (row as Record<string, unknown>)[c] ?? null)).slice(1, -1);

const TRICKY = [
  'plain',
  'say "hi"',
  'back\\slash',
  'new\nline\r\ttab',
  'café ’quotes’ 日本語 😀',
  'lone \ud800 surrogate',
  '\u0000\u001f control',
  '</script>',
  '',
  '\u2028\u2029',
];

test('free text is escaped exactly like JSON.stringify, null and missing values are null', (t) => {
  for (const s of TRICKY) {
    const row = {
      answer_id: '5d0c1f3e-0000-4000-8000-000000000001',
      organization_id: null,
      brand_id: 'b',
      prompt_id: 'p',
      platform: 'chatgpt',
      model: s,
      region: s,
      mode: 'standard',
      collected_at: '2026-11-01 06:00:00.000',
      day: '2026-11-01',
      text: s,
      citation_count: 3,
      product_count: 0,
      search_queries: [s, 'best crm 2026'],
      search_queries_known: 1,
      provider_model: s,
      engine_version: s,
      source: s,
    };
    t.is(rowKey('answers', row), json('answers', row), s);
  }
  // A card with every nullable column null, then with free text everywhere it may be.
  const card = (s: string | null): FactRow<'shopping_cards'> => ({
    card_id: 'c',
    answer_id: 'a',
    organization_id: 'o',
    brand_id: 'b',
    prompt_id: 'p',
    platform: 'google_ai_mode',
    model: s ?? '',
    region: s ?? '',
    day: '2026-11-01',
    created_at: '2026-11-01 06:00:00.000',
    position: 1,
    product_title: s ?? '',
    product_brand: s ?? '',
    price_amount: s === null ? null : 19.99,
    price_currency: s,
    image_url: s,
    merchant_url: s,
    merchant_domain: s,
    rating: s === null ? null : 4.5,
    review_count: s === null ? null : 120,
    raw: JSON.stringify({ title: s }),
    matched_brand_id: s === null ? null : 'e',
    matched_brand_role: 'other',
  });
  for (const s of [null, ...TRICKY])
    t.is(rowKey('shopping_cards', card(s)), json('shopping_cards', card(s)), String(s));
  // The key follows the table's column order, not the order the row's fields were written in.
  const reversed = Object.fromEntries(Object.entries(card('x')).reverse()) as FactRow<'shopping_cards'>;
  t.is(rowKey('shopping_cards', reversed), json('shopping_cards', card('x')));
});

test('numbers are written as JSON writes them, including ones JSON cannot hold', (t) => {
  for (const n of [0, -0, 1, -1.5, 61.66666666666667, 1e21, 1e-7, 2 ** 53 + 2, NaN, Infinity, -Infinity]) {
    const row = {
      answer_id: 'a',
      brand_id: 'b',
      entity_id: 'e',
      is_brand: 1,
      prompt_id: 'p',
      platform: 'gemini',
      model: 'm',
      region: 'r',
      day: '2026-11-01',
      collected_at: '2026-11-01 06:00:00.000',
      mentions: n,
      position: n,
      citations: n,
      score: n,
      generation: n,
      sentiment: n,
      sentiment_score: n,
    };
    t.is(rowKey('answer_entities', row), json('answer_entities', row), String(n));
  }
});

test('a body of lines gives back its keys; the writer holds exactly the lines it was given', (t) => {
  const keys = TRICKY.map((s, i) =>
    rowKey('answer_citations', {
      answer_id: 'a',
      brand_id: 'b',
      prompt_id: 'p',
      platform: 'claude',
      model: s,
      region: s,
      day: '2026-11-01',
      collected_at: '2026-11-01 06:00:00.000',
      url: `https://x.example/${i}`,
      domain: 'x.example',
      category: 'other',
      article_type: 'other',
      title: s,
      domain_first: 1,
      group_first: 1,
      answer_first: i === 0 ? 1 : 0,
      generation: 0,
      names_brand: i % 2,
      named_competitors: i % 3 ? [] : ['5d0c1f3e-0000-4000-8000-000000000001'],
    }),
  );
  const writer = new LineWriter();
  // Enough text to make the writer grow several times.
  for (let i = 0; i < 2000; i++) writer.add(keys);
  const text = Buffer.from(writer.lines()).toString('utf8');
  t.is(
    text,
    keys
      .map((k) => rowLine(k, 1))
      .join('')
      .repeat(2000),
  );
  t.deepEqual(keysOf(text).slice(0, keys.length), keys);
  t.is(keysOf(text).length, keys.length * 2000);
  t.is(rowLine('1,"a"', -1), '[1,"a",-1]\n');
});

test('an answer_rows_in row reads back as its values, and stands for exactly the rows its views write', (t) => {
  const [A, O, B, P, E1, E2] = [1, 2, 3, 4, 5, 6].map((i) => `5d0c1f3e-0000-4000-8000-00000000000${i}`);
  const at = Date.parse('2026-11-01T06:00:00.250Z');
  const day = Date.parse('2026-11-01T00:00:00Z');
  const entities: EntityTuple[] = [
    {
      entity_id: E1,
      is_brand: 1,
      mentions: 2,
      position: 1,
      citations: 1,
      score: 61.66666666666667,
      sentiment: -1,
      sentiment_score: -0.459,
    },
    {
      entity_id: E2,
      is_brand: 0,
      mentions: 0,
      position: 0,
      citations: 70_000,
      score: 25,
      sentiment: 0,
      sentiment_score: -0,
    },
  ];
  const citationsOf = (x: string): CitationTuple[] => [
    {
      url: `https://x.example/${x}`,
      domain: 'x.example',
      category: 'you',
      article_type: 'listicle',
      title: x,
      domain_first: 1,
      group_first: 1,
      answer_first: 1,
      names_brand: 1,
      named_competitors: [],
    },
    {
      url: 'https://y.example/',
      domain: 'y.example',
      category: 'other',
      article_type: 'other',
      title: '',
      domain_first: 1,
      group_first: 1,
      answer_first: 0,
      names_brand: 0,
      named_competitors: [E2, E1],
    },
    {
      url: x,
      domain: x,
      category: 'forum',
      article_type: 'other',
      title: x.repeat(50),
      domain_first: 0,
      group_first: 0,
      answer_first: 0,
      names_brand: 1,
      named_competitors: [E1],
    },
  ];
  const rowOf = (x: string, when: number, generation: number): AnswerRowsIn => ({
    answer_id: A,
    organization_id: O,
    brand_id: B,
    prompt_id: P,
    platform: 'chatgpt',
    model: x,
    region: x,
    mode: 'standard',
    collected_at: when,
    day: when,
    text: x.repeat(40),
    citation_count: 3,
    product_count: 0,
    search_queries: [x, 'best crm 2026'],
    search_queries_known: 1,
    provider_model: x,
    engine_version: `${x}/1`,
    source: 'capture',
    sign: 1,
    entity_rows: entities,
    citation_rows: citationsOf(x),
    generation,
  });
  for (const written of TRICKY) {
    // What is stored: UTF-8 has no lone surrogates, so one is written (and read back) as U+FFFD.
    const s = Buffer.from(written).toString();
    const w = new RowBinaryWriter(16); // grows as it goes
    for (const generation of [3, 4]) writeAnswerRowsIn(w, rowOf(written, at, generation));
    const rows = wideRows(w.bytes());
    t.is(rows.length, 2);
    // Read back: the day as its midnight.
    t.deepEqual(rows[0], { ...rowOf(s, at, 3), day }, s);
    t.is(rows[1].generation, 4);
    const keys = {
      answer_id: A,
      brand_id: B,
      prompt_id: P,
      platform: 'chatgpt',
      model: s,
      region: s,
      day: '2026-11-01',
      collected_at: '2026-11-01 06:00:00.250',
      generation: 3,
    };
    t.deepEqual(
      keysOfWide(rows[0]),
      {
        answers: [
          rowKey('answers', {
            ...keys,
            organization_id: O,
            mode: 'standard',
            text: s.repeat(40),
            citation_count: 3,
            product_count: 0,
            search_queries: [s, 'best crm 2026'],
            search_queries_known: 1,
            provider_model: s,
            engine_version: `${s}/1`,
            source: 'capture',
          }),
        ],
        answer_entities: entities.map((e) => json('answer_entities', { ...keys, ...e })),
        answer_citations: citationsOf(s).map((c) => json('answer_citations', { ...keys, ...c })),
      },
      s,
    );
  }
  // A shopping answer: no analysis rows, unknown searches, an upper-case id read back in lower case.
  const w = new RowBinaryWriter();
  writeAnswerRowsIn(w, {
    ...rowOf('', at, 0),
    answer_id: A.toUpperCase(),
    platform: 'grok',
    model: 'm',
    region: 'r',
    mode: 'shopping',
    citation_count: 0,
    product_count: 4,
    search_queries: [],
    search_queries_known: 0,
    entity_rows: [],
    citation_rows: [],
  });
  const [row] = wideRows(w.bytes());
  t.deepEqual(keysOfWide(row), {
    answers: [
      `"${A}","${O}","${B}","${P}","grok","m","r","shopping","2026-11-01 06:00:00.250","2026-11-01","",0,4,[],0,"","/1","capture"`,
    ],
    answer_entities: [],
    answer_citations: [],
  });
});
