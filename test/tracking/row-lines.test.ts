// Rows are serialised by hand (row-lines.ts); the text must be exactly what JSON.stringify gives,
// since it is both what ClickHouse parses and the identity reconcile compares stored rows by.
import test from 'ava';
import {
  answerKey,
  citationTuple,
  COLUMNS,
  entityTuple,
  keysOf,
  keysOfWide,
  LineWriter,
  rowKey,
  rowLine,
  wideLine,
} from '../../src/tracking/row-lines.ts';

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
    // The template ingestion writes an answer's key with says the same.
    t.is(answerKey(...(values as Parameters<typeof answerKey>)), json(values), s);
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

test('an answer_rows_in line stands for exactly the rows its views write, key for key', (t) => {
  for (const s of TRICKY) {
    const answer = [
      '5d0c1f3e-0000-4000-8000-000000000001',
      'o',
      'b',
      'p',
      'chatgpt',
      s,
      s,
      'standard',
      '2026-11-01 06:00:00.000',
      '2026-11-01',
      s,
      2,
      0,
      [s],
      1,
    ];
    const entities: Parameters<typeof entityTuple>[] = [
      ['e1', 1, 2, 1, 1, 61.66666666666667, -1, -0.459],
      ['e2', 0, 0, 0, 1, 25, 0, 0],
    ];
    const citations: Parameters<typeof citationTuple>[] = [
      [`https://x.example/${s}`, 'x.example', 'you', 'listicle', s, 1, 1, 1],
      ['https://y.example/', 'y.example', 'other', 'other', '', 1, 1, 0],
      [s, s, 'forum', 'other', s, 0, 0, 0],
    ];
    const line = wideLine(
      rowKey('answers', answer),
      entities.map((e) => entityTuple(...e)),
      citations.map((c) => citationTuple(...c)),
      3,
    );
    // What ClickHouse reads: valid JSON of the answer's values, sign 1, the tuples, the generation.
    t.deepEqual(JSON.parse(line), [...answer, 1, entities, citations, 3], s);
    const [id, , brand, prompt, platform, model, region, , at, day] = answer;
    t.deepEqual(
      keysOfWide(line),
      {
        answers: [rowKey('answers', answer)],
        answer_entities: entities.map(([e, isBrand, mentions, position, cited, score, sentiment, sentimentScore]) =>
          rowKey('answer_entities', [
            id,
            brand,
            e,
            isBrand,
            prompt,
            platform,
            model,
            region,
            day,
            at,
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
            id,
            brand,
            prompt,
            platform,
            model,
            region,
            day,
            at,
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
  t.deepEqual(
    keysOfWide(
      wideLine(
        rowKey('answers', [
          'a',
          'o',
          'b',
          'p',
          'grok',
          'm',
          'r',
          'shopping',
          '2026-11-01 06:00:00.000',
          '2026-11-01',
          '',
          0,
          4,
          [],
          0,
        ]),
        [],
        [],
        0,
      ),
    ),
    {
      answers: ['"a","o","b","p","grok","m","r","shopping","2026-11-01 06:00:00.000","2026-11-01","",0,4,[],0'],
      answer_entities: [],
      answer_citations: [],
    },
  );
});
