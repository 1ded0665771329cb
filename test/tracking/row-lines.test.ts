// Rows are serialised by hand (row-lines.ts); the text must be exactly what JSON.stringify gives,
// since it is both what ClickHouse parses and the identity reconcile compares stored rows by.
import test from 'ava';
import {
  COLUMNS,
  keysOf,
  keysOfWide,
  LineWriter,
  rowKey,
  rowLine,
  wideRows,
  writeCitationRow,
  writeEntityRow,
  writeWideAnswer,
  writeWideEnd,
} from '../../src/tracking/row-lines.ts';
import { RowBinaryWriter } from '../../src/stores/row-binary.ts';

const json = (values: unknown[]) => JSON.stringify(values.map((v) => v ?? null)).slice(1, -1);

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
    const values = [
      '5d0c1f3e-0000-4000-8000-000000000001',
      null,
      'b',
      'p',
      'chatgpt',
      s,
      s,
      'standard',
      '2026-11-01 06:00:00.000',
      '2026-11-01',
      s,
      3,
      0,
      [s, 'best crm 2026'],
      1,
    ];
    t.is(values.length, COLUMNS.answers.length);
    t.is(rowKey('answers', values), json(values), s);
  }
  // A card with every nullable column null, then with free text everywhere it may be.
  const card = (s: string | null) => [
    'c',
    'a',
    'o',
    'b',
    'p',
    'google_ai_mode',
    s ?? '',
    s ?? '',
    '2026-11-01',
    '2026-11-01 06:00:00.000',
    1,
    s ?? '',
    s ?? '',
    s === null ? null : 19.99,
    s,
    s,
    s,
    s,
    s === null ? null : 4.5,
    s === null ? null : 120,
    JSON.stringify({ title: s }),
    s === null ? null : 'e',
    'other',
  ];
  t.is(card(null).length, COLUMNS.shopping_cards.length);
  for (const s of [null, ...TRICKY]) t.is(rowKey('shopping_cards', card(s)), json(card(s)), String(s));
});

test('numbers are written as JSON writes them, including ones JSON cannot hold', (t) => {
  for (const n of [0, -0, 1, -1.5, 61.66666666666667, 1e21, 1e-7, 2 ** 53 + 2, NaN, Infinity, -Infinity]) {
    const values = [
      'a',
      'b',
      'e',
      1,
      'p',
      'gemini',
      'm',
      'r',
      '2026-11-01',
      '2026-11-01 06:00:00.000',
      n,
      n,
      n,
      n,
      n,
      n,
      n,
    ];
    t.is(rowKey('answer_entities', values), json(values), String(n));
  }
});

test('a body of lines gives back its keys; the writer holds exactly the lines it was given', (t) => {
  const keys = TRICKY.map((s, i) =>
    rowKey('answer_citations', [
      'a',
      'b',
      'p',
      'claude',
      s,
      s,
      '2026-11-01',
      '2026-11-01 06:00:00.000',
      `https://x.example/${i}`,
      'x.example',
      'other',
      'other',
      s,
      1,
      1,
      i === 0 ? 1 : 0,
    ]),
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
  for (const written of TRICKY) {
    // What is stored: UTF-8 has no lone surrogates, so one is written (and read back) as U+FFFD.
    const s = Buffer.from(written).toString();
    type EntityRow = Parameters<typeof writeEntityRow> extends [unknown, ...infer R] ? R : never;
    type CitationRow = Parameters<typeof writeCitationRow> extends [unknown, ...infer R] ? R : never;
    const entities: EntityRow[] = [
      [E1, 1, 2, 1, 1, 61.66666666666667, -1, -0.459],
      [E2, 0, 0, 0, 70_000, 25, 0, -0],
    ];
    const citationsOf = (x: string): CitationRow[] => [
      [`https://x.example/${x}`, 'x.example', 'you', 'listicle', x, 1, 1, 1],
      ['https://y.example/', 'y.example', 'other', 'other', '', 1, 1, 0],
      [x, x, 'forum', 'other', x.repeat(50), 0, 0, 0],
    ];
    const citations = citationsOf(s);
    const w = new RowBinaryWriter(16); // grows as it goes
    for (const generation of [3, 4]) {
      const x = written;
      writeWideAnswer(w, A, O, B, P, 'chatgpt', x, x, 'standard', at, x.repeat(40), 3, 0, [x, 'best crm 2026'], 1);
      w.varUInt(entities.length);
      for (const e of entities) writeEntityRow(w, ...e);
      w.varUInt(citations.length);
      for (const c of citationsOf(x)) writeCitationRow(w, ...c);
      writeWideEnd(w, generation);
    }
    const rows = wideRows(w.bytes());
    t.is(rows.length, 2);
    const answer = [
      A,
      O,
      B,
      P,
      'chatgpt',
      s,
      s,
      'standard',
      '2026-11-01 06:00:00.250',
      '2026-11-01',
      s.repeat(40),
      3,
      0,
    ];
    t.deepEqual(rows[0], [...answer, [s, 'best crm 2026'], 1, 1, entities, citations, 3], s);
    t.is(rows[1][18], 4);
    t.deepEqual(
      keysOfWide(rows[0]),
      {
        answers: [rowKey('answers', [...answer, [s, 'best crm 2026'], 1])],
        answer_entities: entities.map(([e, isBrand, mentions, position, cited, score, sentiment, sentimentScore]) =>
          rowKey('answer_entities', [
            A,
            B,
            e,
            isBrand,
            P,
            'chatgpt',
            s,
            s,
            '2026-11-01',
            '2026-11-01 06:00:00.250',
            mentions,
            position,
            cited,
            score,
            3,
            sentiment,
            sentimentScore,
          ]),
        ),
        answer_citations: citations.map(([url, domain, category, type, title, df, gf, af]) =>
          rowKey('answer_citations', [
            A,
            B,
            P,
            'chatgpt',
            s,
            s,
            '2026-11-01',
            '2026-11-01 06:00:00.250',
            url,
            domain,
            category,
            type,
            title,
            df,
            gf,
            af,
            3,
          ]),
        ),
      },
      s,
    );
  }
  // A shopping answer: no analysis rows, unknown searches, an upper-case id read back in lower case.
  const w = new RowBinaryWriter();
  writeWideAnswer(w, A.toUpperCase(), O, B, P, 'grok', 'm', 'r', 'shopping', at, '', 0, 4, [], 0);
  w.varUInt(0);
  w.varUInt(0);
  writeWideEnd(w, 0);
  const [row] = wideRows(w.bytes());
  t.deepEqual(keysOfWide(row), {
    answers: [
      `"${A}","${O}","${B}","${P}","grok","m","r","shopping","2026-11-01 06:00:00.250","2026-11-01","",0,4,[],0`,
    ],
    answer_entities: [],
    answer_citations: [],
  });
});
