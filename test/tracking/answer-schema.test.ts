// validateAnswer checks plainly valid answers by hand and leaves the rest to the schema: whatever
// the input, it must accept exactly what the schema accepts, return what the schema returns, and
// refuse with the schema's message. The latest collected_at accepted is one day after "now": the
// tests fix it, so no outcome depends on the day they run.
// test-process: shared
import test from 'ava';
import { answerLineSchema, plainlyValid, validateAnswer } from '../../src/tracking/ingest/answer-schema.ts';

const NOW = Date.parse('2026-11-01T12:00:00Z');
const LATEST = NOW + 86_400_000;
const schema = answerLineSchema(LATEST);

const base = {
  id: '5D0C1F3E-0000-4000-8000-000000000001',
  prompt_id: 'C04515F8-74F9-4DD2-BA09-66AB02953DF1',
  platform: 'chatgpt',
  model: '  gpt-4o ',
  region: 'US',
  mode: 'standard',
  collected_at: '2026-11-01T06:00:00+02:00',
  text: 'Acme is great.',
  citations: [
    { url: 'https://acme.example/x', title: 'X', extra: 1 },
    { url: 'https://b.example/', title: null },
    { url: 'https://c.example/' },
  ],
  products: [],
  unknown_key: 'dropped',
};

const long = (n: number) => 'x'.repeat(n);
const variants: [string, unknown][] = [
  ['as is', base],
  ['not an object', [base]],
  ['null', null],
  ['a string', 'answer'],
  ...(['id', 'model', 'region', 'mode', 'citations', 'products', 'unknown_key'] as const).map(
    (k): [string, unknown] => [`without ${k}`, { ...base, [k]: undefined }],
  ),
  ...(['prompt_id', 'platform', 'collected_at', 'text'] as const).map((k): [string, unknown] => [
    `without ${k}`,
    { ...base, [k]: undefined },
  ]),
  ['id null', { ...base, id: null }],
  ['id not a UUID', { ...base, id: 'abc' }],
  ['id a number', { ...base, id: 7 }],
  ['prompt_id not a UUID', { ...base, prompt_id: 'c04515f8-74f9-4dd2-ba09' }],
  ['unknown platform', { ...base, platform: 'altavista' }],
  ['platform in capitals', { ...base, platform: 'ChatGPT' }],
  ['model at the limit after trimming', { ...base, model: ` ${long(200)} ` }],
  ['model too long', { ...base, model: long(201) }],
  ['model a number', { ...base, model: 4 }],
  ['region too long', { ...base, region: long(65) }],
  ['region null', { ...base, region: null }],
  ['shopping', { ...base, mode: 'shopping' }],
  ['unknown mode', { ...base, mode: 'fast' }],
  ['date without a zone', { ...base, collected_at: '2026-11-01T06:00:00' }],
  ['impossible date', { ...base, collected_at: '2026-13-45T00:00:00Z' }],
  ['date with fractions', { ...base, collected_at: '2026-11-01T06:00:00.123456Z' }],
  ['date a number', { ...base, collected_at: 1762000000000 }],
  ['text empty', { ...base, text: '' }],
  ['text too long', { ...base, text: long(1_000_001) }],
  ['text not a string', { ...base, text: ['a'] }],
  ['citations not a list', { ...base, citations: { url: 'https://a.example' } }],
  ['too many citations', { ...base, citations: Array.from({ length: 1001 }, () => ({ url: 'https://a.example' })) }],
  ['a citation without url', { ...base, citations: [{ title: 'x' }] }],
  ['a citation that is a list', { ...base, citations: [['https://a.example']] }],
  ['a citation url too long', { ...base, citations: [{ url: long(8193) }] }],
  ['a citation title too long', { ...base, citations: [{ url: 'https://a.example', title: long(2001) }] }],
  ['a citation title a number', { ...base, citations: [{ url: 'https://a.example', title: 3 }] }],
  ['citations null', { ...base, citations: null }],
  ['products', { ...base, products: [{ title: 'Acme CRM', price: '$5' }] }],
  ['products not a list', { ...base, products: {} }],
  ['a product that is not an object', { ...base, products: ['x'] }],
  ['search_queries null', { ...base, search_queries: null }],
  ['search_queries empty', { ...base, search_queries: [] }],
  ['search_queries with padding', { ...base, search_queries: ['  best crm  ', 'crm pricing'] }],
  ['search_queries at the limits', { ...base, search_queries: Array.from({ length: 100 }, () => long(1000)) }],
  ['too many search_queries', { ...base, search_queries: Array.from({ length: 101 }, () => 'q') }],
  ['a search query too long', { ...base, search_queries: [long(1001)] }],
  ['a blank search query', { ...base, search_queries: ['  '] }],
  ['a search query a number', { ...base, search_queries: [3] }],
  ['search_queries a string', { ...base, search_queries: 'best crm' }],
  ['search_queries, with products', { ...base, search_queries: ['q'], products: [{ title: 'Acme CRM' }] }],
  ['a list', [1, 2]],
  ['an empty list', []],
  ['a number', 42],
  ['true', true],
  ...at('February 30th', '2026-02-30T06:00:00Z'),
  ...at('February 29th of a common year', '2026-02-29T06:00:00Z'),
  ...at('February 29th of a leap year', '2024-02-29T06:00:00Z'),
  ...at('February 29th of 2000 (divisible by 400)', '2000-02-29T12:00:00Z'),
  ...at('April 31st', '2026-04-31T06:00:00Z'),
  ...at('day 0', '2026-04-00T06:00:00Z'),
  ...at('month 0', '2026-00-10T06:00:00Z'),
  ...at('hour 24', '2026-10-01T24:00:00Z'),
  ...at('hour 24 without seconds', '2026-10-01T24:00Z'),
  ...at('minute 60', '2026-10-01T06:60:00Z'),
  ...at('second 60', '2026-10-01T06:59:60Z'),
  ...at('without seconds', '2026-10-01T06:59Z'),
  ...at('an offset of +05:30', '2026-10-01T06:00:00+05:30'),
  ...at('an offset of +0530', '2026-10-01T06:00:00+0530'),
  ...at('an offset of -23:59', '2026-10-01T06:00:00-23:59'),
  ...at('an offset of +24:00', '2026-10-01T06:00:00+24:00'),
  ...at('an offset of +05:60', '2026-10-01T06:00:00+05:60'),
  ...at('the first instant allowed', '2000-01-01T00:00:00Z'),
  ...at('the first instant allowed, with an offset', '2000-01-01T05:30:00+05:30'),
  ...at('a second before 2000', '1999-12-31T23:59:59Z'),
  ...at('before 2000 once its offset is applied', '2000-01-01T00:30:00+01:00'),
  ...at('in 1800', '1800-01-01T00:00:00Z'),
  ...at('in year 0', '0000-01-01T00:00:00Z'),
  ...at('one day after now exactly', new Date(LATEST).toISOString()),
  ...at('a millisecond later than that', new Date(LATEST + 1).toISOString()),
  ...at('in 9999', '9999-12-31T00:00:00Z'),
];

/** A variant of the answer collected at `when`, with and without its products (the fast path's case). */
function at(name: string, when: string): [string, unknown][] {
  return [
    [`collected ${name}`, { ...base, collected_at: when }],
    [`collected ${name}, with products`, { ...base, collected_at: when, products: [{ title: 'Acme CRM' }] }],
  ];
}

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

for (const [name, input] of variants) {
  test(`same outcome as the schema: ${name}`, (t) => {
    const parsed = schema.safeParse(input);
    const v = validateAnswer(input, LATEST);
    t.is(v.ok, parsed.success);
    if (v.ok && parsed.success) t.deepEqual(v.answer, parsed.data as any);
    if (!v.ok && !parsed.success) {
      if (isObject(input)) t.true(v.error.startsWith(`${parsed.error.issues[0].path.join('.') || 'line'}: `), v.error);
      else t.is(v.error, 'line must be a JSON object');
    }
    // The hand-written fast path on its own: it may leave an answer to the schema, never differ from it.
    const plain = plainlyValid(input, LATEST);
    if (plain) t.deepEqual(plain, parsed.data as any);
  });
}

test('the fast path takes the plain answers, whatever their time zone', (t) => {
  const plain = ['2026-11-01T06:00:00+02:00', '2026-10-01T06:00:00+0530', '2024-02-29T06:00Z', '2000-01-01T00:00Z'];
  for (const when of plain) {
    t.truthy(plainlyValid({ ...base, collected_at: when }, LATEST), when);
  }
});

const refused = (error: string) => ({ ok: false, error });
const NOT_A_DATE = refused('collected_at: is not a valid date');

test('messages name the field and the first problem', (t) => {
  t.deepEqual(validateAnswer({ ...base, text: undefined }, LATEST), refused('text: is required'));
  t.deepEqual(validateAnswer({ ...base, collected_at: '2026-13-45T00:00:00Z' }, LATEST), NOT_A_DATE);
  const citation = validateAnswer({ ...base, citations: [{ title: 'x' }] }, LATEST);
  t.deepEqual(citation, refused('citations.0.url: is required'));
});

test('search_queries: unknown (absent or null) stays apart from [], and a bad one names the field', (t) => {
  const ok = (v: unknown) => {
    const r = validateAnswer(v, LATEST);
    return r.ok ? r.answer.search_queries : r.error;
  };
  t.is(ok({ ...base }), undefined);
  t.is(ok({ ...base, search_queries: null }), null);
  t.deepEqual(ok({ ...base, search_queries: [] }), []);
  t.deepEqual(ok({ ...base, search_queries: [' best  CRM '] }), ['best  CRM']);
  t.is(ok({ ...base, search_queries: 'crm' }), 'search_queries: Invalid input: expected array, received string');
  t.is(ok({ ...base, search_queries: [''] }), 'search_queries.0: must not be empty');
  t.is(ok({ ...base, search_queries: [long(1001)] }), 'search_queries.0: must be at most 1000 characters');
  t.is(ok({ ...base, search_queries: Array(101).fill('q') }), 'search_queries: accepts at most 100 queries');
});

test('a date that would roll over is refused, never moved to another day', (t) => {
  for (const when of ['2026-02-30T06:00:00Z', '2026-02-29T06:00:00Z', '2026-04-31T06:00:00Z', '2026-10-01T24:00:00Z']) {
    t.deepEqual(validateAnswer({ ...base, collected_at: when }, LATEST), NOT_A_DATE, when);
  }
});

test('collected_at runs from 2000-01-01T00:00:00Z to one day after now, both included', (t) => {
  const outside = refused('collected_at: must be from 2000-01-01T00:00:00Z to one day after now');
  const past = new Date(LATEST + 1).toISOString();
  for (const when of ['1800-01-01T00:00:00Z', '1999-12-31T23:59:59.999Z', '9999-12-31T00:00:00Z', past]) {
    t.deepEqual(validateAnswer({ ...base, collected_at: when }, LATEST), outside, when);
  }
  const first = validateAnswer({ ...base, collected_at: '2000-01-01T05:30:00+05:30' }, LATEST);
  t.is(first.ok && first.answer.collected_at, '2000-01-01T00:00:00.000Z');
  const last = validateAnswer({ ...base, collected_at: new Date(LATEST).toISOString() }, LATEST);
  t.is(last.ok && last.answer.collected_at, new Date(LATEST).toISOString());
});

test('leap years follow the Gregorian rules (a far bound lets 2096 and 2100 through the range check)', (t) => {
  const far = Date.parse('2101-01-01T00:00:00Z');
  t.true(validateAnswer({ ...base, collected_at: '2096-02-29T00:00:00Z' }, far).ok);
  t.deepEqual(validateAnswer({ ...base, collected_at: '2100-02-29T00:00:00Z' }, far), NOT_A_DATE);
});

test('a line holding JSON that is not an object is refused as such', (t) => {
  for (const value of [[1, 2], [], 42, 'x', null, true, false]) {
    t.deepEqual(validateAnswer(value, LATEST), refused('line must be a JSON object'), JSON.stringify(value));
  }
});
